package dev.flatdump.testing;

import dev.flatdump.bench.samples.Attr;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.schema.pb.Organization;
import dev.flatdump.schema.pb.Organizations;
import java.util.List;

/**
 * Organizations as protobuf's own generated code builds them from the articles' model: what the
 * protobuf baseline must come to, built independently of flatdump's writer.
 */
public final class ProtobufOrgs {

  private ProtobufOrgs() {}

  /** The {@code Organization} message of {@code org}. */
  public static Organization message(Org org) {
    var m =
        Organization.newBuilder()
            .setName(org.name())
            .setCategory(org.category())
            .setType(Organization.OrganizationType.valueOf(org.type().name()))
            .setCountry(org.country());
    for (Attr a : org.attributes()) {
      m.addAttributes(
          Organization.Attribute.newBuilder()
              .setId(a.id())
              .setQuantity(a.quantity())
              .setAmount(a.amount())
              .setSize(a.size())
              .setPercent(a.percent())
              .setActive(a.active()));
    }
    return m.build();
  }

  /** The {@code Organizations} message of {@code orgs}, in order. */
  public static Organizations of(List<Org> orgs) {
    var all = Organizations.newBuilder();
    orgs.forEach(o -> all.addOrganizations(message(o)));
    return all.build();
  }
}
