package dev.flatdump.encode;

import com.google.protobuf.CodedOutputStream;
import dev.flatdump.Attr;
import dev.flatdump.Org;
import dev.flatdump.schema.pb.Organization;
import dev.flatdump.schema.pb.Organizations;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Writes an {@code Organizations} message incrementally: each org as one length-delimited field 1.
 * That is exactly how protobuf serializes the repeated field, so the whole output is byte-identical
 * to one {@code Organizations} message and {@code Organizations.parseFrom} reads it.
 */
final class ProtobufOrgStreamEncoder implements OrgStreamEncoder {

  private static final int BUFFER_BYTES = 64 * 1024;

  private final OutputStream out;
  private final CodedOutputStream coded;
  private boolean closed;

  ProtobufOrgStreamEncoder(OutputStream out) {
    this.out = out;
    this.coded = CodedOutputStream.newInstance(out, BUFFER_BYTES);
  }

  @Override
  public void write(Org org) throws IOException {
    Objects.requireNonNull(org, "org must not be null");
    if (closed) {
      throw new IllegalStateException("protobuf encoder is closed");
    }
    coded.writeMessage(Organizations.ORGANIZATIONS_FIELD_NUMBER, message(org));
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (out) {
      coded.flush();
    }
  }

  static Organization message(Org org) {
    var message =
        Organization.newBuilder()
            .setName(org.name())
            .setCategory(org.category())
            .setType(type(org))
            .setCountry(org.country());
    for (Attr attr : org.attributes()) {
      message.addAttributes(
          Organization.Attribute.newBuilder()
              .setId(attr.id())
              .setQuantity(attr.quantity())
              .setAmount(attr.amount())
              .setSize(attr.size())
              .setPercent(attr.percent())
              .setActive(attr.active()));
    }
    return message.build();
  }

  private static Organization.OrganizationType type(Org org) {
    return switch (org.type()) {
      case FOO -> Organization.OrganizationType.FOO;
      case BAR -> Organization.OrganizationType.BAR;
      case BAZ -> Organization.OrganizationType.BAZ;
    };
  }
}
