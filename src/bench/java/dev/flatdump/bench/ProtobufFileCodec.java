package dev.flatdump.bench;

import dev.flatdump.bench.samples.Attr;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.schema.pb.Organization;
import dev.flatdump.schema.pb.Organizations;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Protocol Buffers as the articles wrote it: copies every record into one {@code Organizations}
 * message, writes it with {@code writeTo}, and reads it back whole with {@code parseFrom}.
 */
final class ProtobufFileCodec implements OrgFileCodec {

  @Override
  public String name() {
    return "protobuf (as the articles)";
  }

  @Override
  public String extension() {
    return "pb";
  }

  /** The orgs as one {@code Organizations} message, built as the articles build it. */
  static Organizations message(List<Org> orgs) {
    var orgsBuilder = Organizations.newBuilder();
    for (Org org : orgs) {
      var organization =
          Organization.newBuilder()
              .setName(org.name())
              .setCategory(org.category())
              .setCountry(org.country())
              .setType(Organization.OrganizationType.forNumber(org.type().ordinal()));
      for (Attr attr : org.attributes()) {
        organization.addAttributes(
            Organization.Attribute.newBuilder()
                .setId(attr.id())
                .setQuantity(attr.quantity())
                .setAmount(attr.amount())
                .setActive(attr.active())
                .setPercent(attr.percent())
                .setSize(attr.size())
                .build());
      }
      orgsBuilder.addOrganizations(organization.build());
    }
    return orgsBuilder.build();
  }

  @Override
  public Object write(List<Org> orgs, Path file) throws IOException {
    Organizations message = message(orgs);
    try (OutputStream os = new FileOutputStream(file.toFile())) {
      message.writeTo(os);
    }
    return message;
  }

  @Override
  public long readSome(Path file) throws IOException {
    var sum = new ReadChecksum();
    for (Organization org : parse(file).getOrganizationsList()) {
      sum.string(org.getName());
      for (Organization.Attribute attr : org.getAttributesList()) {
        sum.string(attr.getId());
      }
    }
    return sum.value();
  }

  @Override
  public long readAll(Path file) throws IOException {
    var sum = new ReadChecksum();
    for (Organization org : parse(file).getOrganizationsList()) {
      sum.string(org.getName());
      sum.string(org.getCategory());
      sum.number(org.getTypeValue());
      sum.string(org.getCountry());
      for (Organization.Attribute a : org.getAttributesList()) {
        sum.attribute(
            a.getId(), a.getQuantity(), a.getAmount(), a.getSize(), a.getPercent(), a.getActive());
      }
    }
    return sum.value();
  }

  static Organizations parse(Path file) throws IOException {
    try (InputStream is = new FileInputStream(file.toFile())) {
      return Organizations.parseFrom(is);
    }
  }
}
