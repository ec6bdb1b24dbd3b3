package dev.flatdump.artifact.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import dev.flatdump.artifact.SchemaFiles;
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
import dev.flatdump.schema.pb.OrganizationsProto;
import dev.flatdump.testing.OrganizationsEngine;
import dev.flatdump.testing.ProtobufOrgs;
import dev.flatdump.testing.SchemaFixtures;
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

  /** The twin {@code schemas/organizations.proto}, as a user's own {@code .proto} maps. */
  private static final FileDescriptor BUNDLED = OrganizationsProto.getDescriptor();

  private static byte[] protobuf(ByteBuffer... shards) throws Exception {
    return protobuf(RecordProtobuf.of(ORGANIZATIONS, BUNDLED), shards);
  }

  private static byte[] protobuf(RecordProtobuf protobuf, ByteBuffer... shards) throws Exception {
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

    @Test
    void writesOntoTheDerivedTwinWhatTheBundledProtoAndProtobufsGeneratedCodeWrite()
        throws Exception {
      List<Org> orgs =
          new ArrayList<>(new OrgGenerator(Profile.REALISTIC, 11).stream().limit(200).toList());
      orgs.add(
          new Org(
              "",
              "c",
              "",
              OrgType.BAZ,
              List.of(
                  new Attr("z", (byte) 0, (byte) 0, (short) 0, 0.0, false),
                  new Attr("n", (byte) -1, (byte) -128, (short) -300, -0.0, true))));
      ByteBuffer first = shard(orgs.subList(0, 120), Sharing.Kinds.ALL);
      ByteBuffer rest = shard(orgs.subList(120, orgs.size()), Sharing.Kinds.NONE);

      byte[] derived = protobuf(RecordProtobuf.of(ORGANIZATIONS), first, rest);

      assertThat(derived).isEqualTo(protobuf(first, rest));
      assertThat(derived).isEqualTo(ProtobufOrgs.of(orgs).toByteArray());
    }
  }

  @Nested
  class DerivedTwins {

    @TempDir Path dir;

    /** The documents, given as JSON, as the records of one shard of {@code plan}. */
    private ByteBuffer shard(SchemaPlan plan, String... json) {
      var builder = new ShardBuilder(plan, Sharing.Kinds.ALL, false, 1024);
      for (String doc : json) {
        byte[] bson = SchemaFixtures.bson(doc);
        builder.add(bson, 0, bson.length);
      }
      return builder.finish();
    }

    /** The records written onto the derived twin, parsed back by protobuf as its root message. */
    private DynamicMessage written(SchemaPlan plan, ByteBuffer shard) throws Exception {
      byte[] bytes = protobuf(RecordProtobuf.of(plan), shard);
      Descriptor root =
          ProtobufTwin.of(plan).findMessageTypeByName(plan.root().name().replaceAll(".*\\.", ""));
      DynamicMessage back = DynamicMessage.parseFrom(root, bytes);
      assertThat(back.toByteArray()).as("protobuf writes it back the same").isEqualTo(bytes);
      assertThat(back.getUnknownFields().asMap()).isEmpty();
      return back;
    }

    private SchemaPlan plan(String fbs) throws Exception {
      return new SchemaFixtures(dir, fbs).plan;
    }

    private static Object get(DynamicMessage m, String field) {
      return m.getField(m.getDescriptorForType().findFieldByName(field));
    }

    @Test
    void writeTheRecordsOfASchemaWithNoProtoOfItsOwn() throws Exception {
      SchemaPlan plan =
          plan(
              """
              enum Kind : byte { City = 1, Region = 2 }
              struct Point { lat: float; lon: float; }
              table State { name: string; code: ushort; kind: Kind = Region; at: Point;
                            tags: [string]; raw: [ubyte]; pop: long = null; }
              table States { states: [State]; }
              root_type States;
              """);
      ByteBuffer shard =
          shard(
              plan,
              "{\"name\": \"Aragón\", \"code\": 65535, \"kind\": \"City\","
                  + " \"at\": {\"lat\": 41.5, \"lon\": -0.5}, \"tags\": [\"a\", \"\"],"
                  + " \"raw\": {\"$binary\": {\"base64\": \"AQL/\", \"subType\": \"00\"}},"
                  + " \"pop\": 0}",
              "{\"name\": \"\"}");

      DynamicMessage back = written(plan, shard);

      @SuppressWarnings("unchecked")
      List<DynamicMessage> states = (List<DynamicMessage>) get(back, "states");
      assertThat(states).hasSize(2);
      DynamicMessage a = states.get(0);
      assertThat(get(a, "name")).isEqualTo("Aragón");
      assertThat(get(a, "code")).isEqualTo(65535);
      assertThat(get(a, "kind").toString()).isEqualTo("City");
      DynamicMessage at = (DynamicMessage) get(a, "at");
      assertThat(get(at, "lat")).isEqualTo(41.5f);
      assertThat(get(at, "lon")).isEqualTo(-0.5f);
      assertThat(get(a, "tags")).isEqualTo(List.of("a", ""));
      assertThat(((com.google.protobuf.ByteString) get(a, "raw")).toByteArray())
          .containsExactly(1, 2, 0xff);
      assertThat(a.hasField(a.getDescriptorForType().findFieldByName("pop"))).isTrue();
      DynamicMessage b = states.get(1);
      assertThat(get(b, "kind").toString()).as("the default").isEqualTo("Region");
      assertThat(b.hasField(b.getDescriptorForType().findFieldByName("pop"))).isFalse();
      assertThat(b.hasField(b.getDescriptorForType().findFieldByName("at"))).isFalse();
    }

    /**
     * A union is a oneof of its members' messages (the first numbered as its type field, the second
     * as itself, the third after the table's last field), a map the repeated message of its entry
     * table, a wrapper a message of one field; protobuf parses the bytes and writes them back the
     * same, whichever member each record holds.
     */
    @Test
    void writeUnionsAsOneofsMapsAsRepeatedEntriesAndWrappersAsMessages() throws Exception {
      SchemaPlan plan =
          plan(
              """
              attribute "map";
              attribute "wrapper";
              table S (wrapper) { value: string; }
              table L (wrapper) { value: long; }
              table P (wrapper) { value: Point; }
              table Point { x: int; y: int; }
              union U { S, L, P }
              table E { key: string (key); value: [double]; }
              table Ring (wrapper) { value: [double]; }
              table Item (wrapper) { value: U; }
              table R { n: int = null; u: U; m: [E] (map); rings: [Ring]; items: [Item]; z: int; }
              table Root { rs: [R]; }
              root_type Root;
              """);
      Descriptor r = ProtobufTwin.of(plan).findMessageTypeByName("R");
      assertThat(r.getOneofs().get(0).getName()).isEqualTo("u");
      assertThat(r.getOneofs().get(0).getFields())
          .extracting(FieldDescriptor::getName, FieldDescriptor::getNumber)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("u_S", 2),
              org.assertj.core.groups.Tuple.tuple("u_L", 3),
              org.assertj.core.groups.Tuple.tuple("u_P", 8));
      ByteBuffer shard =
          shard(
              plan,
              "{\"n\": 1, \"u\": \"a\", \"m\": {\"k2\": [1.5], \"k1\": []}, \"z\": 9,"
                  + " \"rings\": [[1.0], null], \"items\": [7, {\"x\": 1}, null, \"s\"]}",
              "{\"u\": {\"$numberLong\": \"5\"}, \"z\": 1}",
              "{\"u\": {\"x\": 2, \"y\": 3}}",
              "{}");

      DynamicMessage back = written(plan, shard);

      @SuppressWarnings("unchecked")
      List<DynamicMessage> rs = (List<DynamicMessage>) get(back, "rs");
      assertThat(rs).hasSize(4);
      DynamicMessage a = rs.get(0);
      assertThat(get((DynamicMessage) get(a, "u_S"), "value")).isEqualTo("a");
      @SuppressWarnings("unchecked")
      List<DynamicMessage> m = (List<DynamicMessage>) get(a, "m");
      assertThat(m).extracting(e -> get(e, "key")).containsExactly("k1", "k2");
      assertThat(get(m.get(1), "value")).isEqualTo(List.of(1.5));
      @SuppressWarnings("unchecked")
      List<DynamicMessage> items = (List<DynamicMessage>) get(a, "items");
      assertThat(get((DynamicMessage) get(items.get(0), "value_L"), "value")).isEqualTo(7L);
      assertThat(items.get(2).getAllFields()).isEmpty();
      assertThat(get((DynamicMessage) get(rs.get(1), "u_L"), "value")).isEqualTo(5L);
      DynamicMessage p = (DynamicMessage) get((DynamicMessage) get(rs.get(2), "u_P"), "value");
      assertThat(get(p, "y")).isEqualTo(3);
      assertThat(rs.get(3).getAllFields()).isEmpty();
    }

    @Test
    void writeABitFlagsFieldLeftAtItsUndeclaredZero() throws Exception {
      SchemaPlan plan =
          plan(
              """
              enum Flags : uint (bit_flags) { A, B }
              table R { n: string; f: Flags; g: Flags = B; }
              table Root { rs: [R]; }
              root_type Root;
              """);

      DynamicMessage back = written(plan, shard(plan, "{\"n\": \"x\"}", "{\"f\": \"A\"}"));

      @SuppressWarnings("unchecked")
      List<DynamicMessage> rs = (List<DynamicMessage>) get(back, "rs");
      assertThat(get(rs.get(0), "f").toString()).isEqualTo("FLAGS_UNSPECIFIED");
      assertThat(get(rs.get(0), "g").toString()).isEqualTo("B");
      assertThat(get(rs.get(1), "f").toString()).isEqualTo("A");
    }

    @Test
    void writeAnEnumWithAValueOutsideInt32AsItsInteger() throws Exception {
      SchemaPlan plan =
          plan(
              """
              enum Huge : ulong { Zero = 0, Top = 18446744073709551615 }
              table R { h: Huge; hs: [Huge]; }
              table Root { rs: [R]; }
              root_type Root;
              """);

      DynamicMessage back =
          written(plan, shard(plan, "{\"h\": \"Top\", \"hs\": [\"Top\", \"Zero\", \"Top\"]}"));

      @SuppressWarnings("unchecked")
      DynamicMessage r = ((List<DynamicMessage>) get(back, "rs")).get(0);
      assertThat(get(r, "h")).isEqualTo(-1L);
      assertThat(get(r, "hs")).isEqualTo(List.of(-1L, 0L, -1L));
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

      assertThatThrownBy(() -> RecordProtobuf.of(plan, BUNDLED))
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

      assertThatThrownBy(() -> RecordProtobuf.of(plan, BUNDLED))
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

      assertThatThrownBy(() -> RecordProtobuf.of(plan, BUNDLED))
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

      RecordProtobuf.of(plan, BUNDLED).write(builder.finish(), out);

      Organizations back = Organizations.parseFrom(out.toByteArray());
      assertThat(back.getOrganizationsList())
          .containsExactly(
              Organization.newBuilder().setName("a").setCountry("ES").build(),
              Organization.newBuilder().setName("b").build());
    }
  }
}
