package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.schema.fb.Attribute;
import dev.flatdump.schema.fb.Organization;
import dev.flatdump.schema.fb.OrganizationType;
import dev.flatdump.schema.fb.Organizations;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The generated FlatBuffers classes and the flatbuffers-java runtime work together. */
class SchemaRoundTripTest {

  @Test
  void readsBackOneOrgWrittenWithTheGeneratedBuilders() {
    var builder = new FlatBufferBuilder(64);
    int id = builder.createString("color");
    int attribute =
        Attribute.createAttribute(builder, id, (byte) -7, (byte) 42, (short) -1234, 12.5, true);
    int attributes = Organization.createAttributesVector(builder, new int[] {attribute});
    int name = builder.createString("Acme");
    int category = builder.createString("tools");
    int country = builder.createString("ES");
    int organization =
        Organization.createOrganization(
            builder, name, category, OrganizationType.BAZ, country, attributes);
    int organizations = Organizations.createOrganizationsVector(builder, new int[] {organization});
    Organizations.finishOrganizationsBuffer(
        builder, Organizations.createOrganizations(builder, organizations));

    ByteBuffer buf = ByteBuffer.wrap(builder.sizedByteArray());

    assertThat(Organizations.OrganizationsBufferHasIdentifier(buf)).isTrue();
    Organizations root = Organizations.getRootAsOrganizations(buf);
    assertThat(root.organizationsLength()).isEqualTo(1);
    Organization org = root.organizations(0);
    assertThat(org.name()).isEqualTo("Acme");
    assertThat(org.category()).isEqualTo("tools");
    assertThat(org.type()).isEqualTo(OrganizationType.BAZ);
    assertThat(OrganizationType.name(org.type())).isEqualTo("BAZ");
    assertThat(org.country()).isEqualTo("ES");
    assertThat(org.attributesLength()).isEqualTo(1);
    Attribute attr = org.attributes(0);
    assertThat(attr.id()).isEqualTo("color");
    assertThat(attr.quantity()).isEqualTo((byte) -7);
    assertThat(attr.amount()).isEqualTo((byte) 42);
    assertThat(attr.size()).isEqualTo((short) -1234);
    assertThat(attr.percent()).isEqualTo(12.5);
    assertThat(attr.active()).isTrue();
  }
}
