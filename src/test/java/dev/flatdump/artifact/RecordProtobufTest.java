package dev.flatdump.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.bench.samples.Attr;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.OrgType;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.encode.engine.ShardBuilder;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.schema.pb.Organization;
import dev.flatdump.schema.pb.Organizations;
import dev.flatdump.testing.OrganizationsEngine;
import dev.flatdump.testing.ProtobufOrgs;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonBinaryWriter;
import org.bson.io.BasicOutputBuffer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordProtobufTest {

  private static final SchemaPlan ORGANIZATIONS = SchemaFiles.bundled().plan();

  /** The orgs exported by the schema engine, as one shard of the bundled schema. */
  private static ByteBuffer shard(List<Org> orgs, Sharing.Kinds kinds) {
    return OrganizationsEngine.encode(kinds, orgs);
  }

  private static byte[] protobuf(ByteBuffer... shards) throws Exception {
    var protobuf = RecordProtobuf.organizations(ORGANIZATIONS);
    var out = new ByteArrayOutputStream();
    for (ByteBuffer s : shards) {
      protobuf.write(s, out);
    }
    return out.toByteArray();
  }

  @Nested
  class Organizations_ {

    @Test
    void writesTheBytesProtobufsOwnSerializerWritesForTheSameRecords() throws Exception {
      List<Org> orgs = new OrgGenerator(Profile.REALISTIC, 3).stream().limit(300).toList();
      List<Org> first = orgs.subList(0, 100);
      List<Org> rest = orgs.subList(100, orgs.size());

      byte[] written = protobuf(shard(first, Sharing.Kinds.ALL), shard(rest, Sharing.Kinds.ALL));

      assertThat(written).isEqualTo(ProtobufOrgs.of(orgs).toByteArray());
    }

    @Test
    void leavesOutProto3DefaultsButKeepsNegativeZero() throws Exception {
      Org zeros =
          new Org(
              "",
              "c",
              "ES",
              OrgType.FOO,
              List.of(
                  new Attr("a", (byte) 0, (byte) 0, (short) 0, 0.0, false),
                  new Attr("b", (byte) -1, (byte) 0, (short) -300, -0.0, true),
                  new Attr("c", (byte) 0, (byte) 0, (short) 0, Double.NaN, false)));
      Org none = new Org("n", "c", "", OrgType.BAZ, List.of());

      byte[] written = protobuf(shard(List.of(zeros, none), Sharing.Kinds.NONE));

      assertThat(written).isEqualTo(ProtobufOrgs.of(List.of(zeros, none)).toByteArray());
      Organizations back = Organizations.parseFrom(written);
      assertThat(Double.doubleToRawLongBits(back.getOrganizations(0).getAttributes(1).getPercent()))
          .isEqualTo(Double.doubleToRawLongBits(-0.0));
    }
  }

  @Nested
  class OtherSchemas {

    @TempDir Path dir;

    private SchemaPlan plan(String fbs) throws Exception {
      Path file = dir.resolve("organizations.fbs");
      Files.writeString(file, fbs);
      return SchemaPlan.load(file);
    }

    @Test
    void refuseAFieldThatHasNoTwinNamingIt() throws Exception {
      SchemaPlan plan =
          plan(
              """
              table Attribute { id: string; weight: float; }
              table Organization { name: string; attributes: [Attribute]; }
              table Organizations { organizations: [Organization]; }
              root_type Organizations;
              """);

      assertThatThrownBy(() -> RecordProtobuf.organizations(plan))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Organizations.organizations.attributes.weight")
          .hasMessageContaining("flatdump.Organization.Attribute has no field weight");
    }

    @Test
    void refuseAValueTheTwinCannotHold() throws Exception {
      SchemaPlan plan =
          plan(
              """
              table Attribute { id: string; size: long; }
              table Organization { name: string; attributes: [Attribute]; }
              table Organizations { organizations: [Organization]; }
              root_type Organizations;
              """);

      assertThatThrownBy(() -> RecordProtobuf.organizations(plan))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Organizations.organizations.attributes.size")
          .hasMessageContaining("long cannot be written as protobuf int32");
    }

    @Test
    void refuseARootWithNoTwin() throws Exception {
      SchemaPlan plan =
          plan(
              """
              table State { name: string; }
              table States { states: [State]; }
              root_type States;
              """);

      assertThatThrownBy(() -> RecordProtobuf.organizations(plan))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("has no message States");
    }

    @Test
    void writeASubsetOfTheTwinsFields() throws Exception {
      SchemaPlan plan =
          plan(
              """
              table Organization { name: string; country: string; }
              table Organizations { organizations: [Organization]; }
              root_type Organizations;
              """);
      var builder = new ShardBuilder(plan, Sharing.Kinds.ALL, false, 1024);
      List<byte[]> docs = new ArrayList<>();
      for (String json : List.of("{\"name\": \"a\", \"country\": \"ES\"}", "{\"name\": \"b\"}")) {
        var out = new BasicOutputBuffer();
        new org.bson.codecs.BsonDocumentCodec()
            .encode(
                new BsonBinaryWriter(out),
                org.bson.BsonDocument.parse(json),
                org.bson.codecs.EncoderContext.builder().build());
        docs.add(out.toByteArray());
      }
      docs.forEach(d -> builder.add(d, 0, d.length));
      var out = new ByteArrayOutputStream();

      RecordProtobuf.organizations(plan).write(builder.finish(), out);

      Organizations back = Organizations.parseFrom(out.toByteArray());
      assertThat(back.getOrganizationsList())
          .containsExactly(
              Organization.newBuilder().setName("a").setCountry("ES").build(),
              Organization.newBuilder().setName("b").build());
    }
  }
}
