package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.Attr;
import dev.flatdump.Org;
import dev.flatdump.OrgType;
import dev.flatdump.schema.pb.Organization;
import dev.flatdump.schema.pb.Organizations;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProtobufOrgStreamEncoderTest extends OrgStreamEncoderContract {

  @Override
  StreamFormat format() {
    return StreamFormat.PROTOBUF;
  }

  @Override
  List<Org> decode(byte[] bytes) throws IOException {
    return Organizations.parseFrom(bytes).getOrganizationsList().stream()
        .map(ProtobufOrgStreamEncoderTest::toOrg)
        .toList();
  }

  @Test
  void writesTheSameBytesAsOneOrganizationsMessage() throws IOException {
    List<Org> orgs = OrgFixtures.mixed();
    var message = Organizations.newBuilder();
    orgs.forEach(org -> message.addOrganizations(ProtobufOrgStreamEncoder.message(org)));

    assertThat(encode(orgs)).isEqualTo(message.build().toByteArray());
  }

  private static Org toOrg(Organization org) {
    return new Org(
        org.getName(),
        org.getCategory(),
        org.getCountry(),
        OrgType.valueOf(org.getType().name()),
        org.getAttributesList().stream()
            .map(
                a ->
                    new Attr(
                        a.getId(),
                        (byte) a.getQuantity(),
                        (byte) a.getAmount(),
                        (short) a.getSize(),
                        a.getPercent(),
                        a.getActive()))
            .toList());
  }
}
