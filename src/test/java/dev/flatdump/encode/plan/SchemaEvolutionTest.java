package dev.flatdump.encode.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.encode.engine.RecordEncoder;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code infer --evolve}'s merge: the earlier schema with what the data now needs appended; code
 * generated for the earlier schema reads data written with the evolved one.
 */
class SchemaEvolutionTest {

  @TempDir Path dir;

  static final String OLD =
      """
      attribute "bson"; attribute "map"; attribute "wrapper";
      table Owner { login: string; id: int; }
      table NamesEntry { key: string (key); value: string; }
      table Rec {
        id: string (bson: "_id");
        created_at: string;
        count: long;
        small: int;
        owner: Owner;
        names: [NamesEntry] (map);
        gone: string;
        tags: [string];
      }
      table Root { records: [Rec]; }
      root_type Root;
      """;

  static final String NEW =
      """
      attribute "bson"; attribute "map"; attribute "wrapper";
      table Owner { login: string; id: long; site_admin: bool = null; }
      table NamesEntry { key: string (key); value: Name; }
      table Name { official: string; }
      table CreatedAtString (wrapper) { value: string; }
      table CreatedAtLong (wrapper) { value: long; }
      union CreatedAt { CreatedAtString, CreatedAtLong }
      table Rec {
        id: string (bson: "_id");
        created_at: CreatedAt;
        count: int;
        small: long;
        owner: Owner;
        names: [NamesEntry] (map);
        tags: [string];
        added: double;
      }
      table Root { records: [Rec]; }
      root_type Root;
      """;

  private SchemaPlan plan(String name, String text) throws Exception {
    Path fbs = Files.createDirectories(dir.resolve(name)).resolve(name + ".fbs");
    Files.writeString(fbs, text);
    return SchemaPlan.load(fbs);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void appendsWhatTheDataNeedsAndChangesNothing(boolean deprecateMissing) throws Exception {
    SchemaPlan old = plan("old", OLD);
    SchemaEvolution.Result r = SchemaEvolution.evolve(old, plan("new", NEW), deprecateMissing);

    SchemaPlan evolved = plan("evolved", r.schema());
    assertThat(SchemaDiff.between(old, evolved)).noneMatch(SchemaDiff.Change::breaking);
    String s = r.schema();
    assertThat(s)
        .contains("  created_at: string;\n")
        .contains("  count: long;\n") // holds the ints the data has now
        .contains("  small: int;\n")
        .contains("  small_v2: long (bson: \"small\");\n")
        .contains("  created_at_v2: CreatedAt (bson: \"created_at\");\n")
        .contains("  added: double;\n")
        .contains("  id_v2: long (bson: \"id\");\n") // Owner.id: int, now long
        .contains("  site_admin: bool = null;\n")
        .contains("  names: [NamesEntry] (map, deprecated);\n") // a map's values changed type
        .contains("  names_v2: [NamesEntry2] (bson: \"names\", map);\n")
        .contains("union CreatedAt { CreatedAtString, CreatedAtLong }");
    assertThat(s.contains("  gone: string (deprecated);\n")).isEqualTo(deprecateMissing);
    assertThat(r.changes()).anyMatch(c -> c.startsWith("new field Rec.created_at_v2"));
  }

  /** A reader of the earlier schema reads the values its fields still hold from the new data. */
  @Test
  void theEarlierSchemasReaderReadsTheEvolvedData() throws Exception {
    SchemaPlan old = plan("old", OLD);
    SchemaEvolution.Result r = SchemaEvolution.evolve(old, plan("new", NEW), false);
    SchemaFixtures fx = new SchemaFixtures(dir.resolve("fx"), r.schema());
    List<byte[]> docs =
        List.of(
            SchemaFixtures.bson(
                "{\"_id\": \"a\", \"created_at\": \"2020\", \"count\": 3, \"small\": 4,"
                    + " \"owner\": {\"login\": \"x\", \"id\": 5, \"site_admin\": true},"
                    + " \"names\": {\"en\": {\"official\": \"E\"}}, \"added\": 1.5}"),
            SchemaFixtures.bson(
                "{\"_id\": \"b\", \"created_at\": 1577836800, \"small\": {\"$numberLong\":"
                    + " \"5000000000\"}, \"owner\": {\"id\": {\"$numberLong\": \"5000000000\"}}}"));
    ByteBuffer shard = fx.encode(new RecordEncoder(fx.plan, true), docs);
    Path bin = dir.resolve("data.bin");
    byte[] bytes = new byte[shard.remaining()];
    shard.duplicate().get(bytes);
    Files.write(bin, bytes);
    Path oldFbs = dir.resolve("old").resolve("old.fbs");

    JsonNode oldView = SchemaFixtures.flatcJson(oldFbs, bin, "--raw-binary").get("records");

    assertThat(oldView.get(0).toString())
        .isEqualTo(
            "{\"id\":\"a\",\"created_at\":\"2020\",\"count\":3,\"small\":4,"
                + "\"owner\":{\"login\":\"x\",\"id\":5}}");
    assertThat(oldView.get(1).toString()).isEqualTo("{\"id\":\"b\",\"owner\":{}}");
    JsonNode newView = fx.flatcRecords(shard);
    assertThat(newView.get(1).get("created_at_v2").get("value").asLong()).isEqualTo(1577836800L);
    assertThat(newView.get(1).get("small_v2").asLong()).isEqualTo(5000000000L);
    assertThat(newView.get(0).get("names_v2").toString())
        .isEqualTo("[{\"key\":\"en\",\"value\":{\"official\":\"E\"}}]");
  }

  /**
   * A sub-document that is sometimes a string now, an array sometimes a number: the earlier table
   * and vector still take every document and array (the first field taking a BSON type gets it), so
   * they stay, new sub-fields appended, and the other values go to {@code NAME_v2}.
   */
  @Test
  void aTableOrVectorWhosePathBecameAUnionKeepsItsDocumentsOrArrays() throws Exception {
    String old =
        """
        attribute "bson"; attribute "map"; attribute "wrapper";
        table Profile { age: int; }
        table Rec { id: int (bson: "_id"); profile: Profile; tags: [int]; }
        table Root { records: [Rec]; }
        root_type Root;
        """;
    String now =
        """
        attribute "bson"; attribute "map"; attribute "wrapper";
        table ProfileObject { age: int; city: string; }
        table ProfileString (wrapper) { value: string; }
        table ProfileDocument (wrapper) { value: ProfileObject; }
        union Profile { ProfileString, ProfileDocument }
        table TagsInt (wrapper) { value: int; }
        table TagsArray (wrapper) { value: [int]; }
        union Tags { TagsInt, TagsArray }
        table Rec { id: int (bson: "_id"); profile: Profile; tags: Tags; }
        table Root { records: [Rec]; }
        root_type Root;
        """;
    SchemaPlan before = plan("old", old);
    SchemaEvolution.Result r = SchemaEvolution.evolve(before, plan("new", now), false);
    assertThat(SchemaDiff.between(before, plan("evolved", r.schema())))
        .noneMatch(SchemaDiff.Change::breaking);
    assertThat(r.schema())
        .contains("  profile: Profile;\n", "  tags: [int];\n")
        .contains("  profile_v2: Profile2 (bson: \"profile\");\n")
        .contains("  tags_v2: Tags (bson: \"tags\");\n")
        .contains("  city: string;\n"); // appended to Profile, which takes the documents

    SchemaFixtures fx = new SchemaFixtures(dir.resolve("fx"), r.schema());
    ByteBuffer shard =
        fx.encode(
            new RecordEncoder(fx.plan, true),
            List.of(
                SchemaFixtures.bson(
                    "{\"_id\": 1, \"profile\": {\"age\": 3, \"city\": \"c\"},"
                        + " \"tags\": [1, 2]}"),
                SchemaFixtures.bson("{\"_id\": 2, \"profile\": \"p\", \"tags\": 7}")));
    Path bin = dir.resolve("data.bin");
    byte[] bytes = new byte[shard.remaining()];
    shard.duplicate().get(bytes);
    Files.write(bin, bytes);
    JsonNode oldView =
        SchemaFixtures.flatcJson(dir.resolve("old").resolve("old.fbs"), bin, "--raw-binary")
            .get("records");
    assertThat(oldView.get(0).toString())
        .isEqualTo("{\"id\":1,\"profile\":{\"age\":3},\"tags\":[1,2]}");
    assertThat(oldView.get(1).toString()).isEqualTo("{\"id\":2}");
  }

  static final String OLD_NAMESPACED =
      """
      attribute "bson"; attribute "map"; attribute "wrapper";
      namespace geo.v1;
      enum Kind : ubyte { A = 1, B = 2 }
      struct Vec (force_align: 16) { x: float; y: float; z: float; }
      table WS (wrapper) { value: string; }
      table WL (wrapper) { value: long; }
      union Val { WS, WL }
      table E { key: string (key); value: int; }
      table Sub { name: string; old: int (deprecated); k: Kind = B; }
      table Rec {
        id: string (bson: "_id");
        kind: Kind = A;
        pos: Vec;
        val: Val;
        m: [E] (map);
        sub: Sub;
        legacy: int (deprecated);
        d: double = 1.5;
      }
      table Root { records: [Rec]; }
      root_type Root;
      """;

  static final String NEW_FOR_NAMESPACED =
      """
      attribute "bson"; attribute "map"; attribute "wrapper";
      table ValString (wrapper) { value: string; }
      table ValBool (wrapper) { value: bool; }
      union Val { ValString, ValBool }
      table E { key: string (key); value: long; }
      table Sub { name: string; k: string; extra: bool; }
      table Rec {
        id: string (bson: "_id");
        val: Val;
        m: [E] (map);
        sub: Sub;
        legacy: string;
        d: double;
      }
      table Root { records: [Rec]; }
      root_type Root;
      """;

  /**
   * An earlier schema in a namespace: a new type named as an earlier one there is another type
   * (flatc resolves a name from the namespace outwards), and the union's values keep their names.
   */
  @Test
  void evolvesASchemaInANamespace() throws Exception {
    SchemaPlan old = plan("oldns", OLD_NAMESPACED);
    SchemaEvolution.Result r =
        SchemaEvolution.evolve(old, plan("newns", NEW_FOR_NAMESPACED), false);
    SchemaPlan evolved = plan("evolvedns", r.schema());
    assertThat(SchemaDiff.between(old, evolved)).noneMatch(SchemaDiff.Change::breaking);

    EnumPlan val =
        evolved.enums().stream().filter(e -> e.name().equals("geo.v1.Val")).findFirst().get();
    assertThat(val.nameOf(1)).isEqualTo("WS"); // not geo_v1_WS: flatc --json and code name it
    assertThat(val.nameOf(2)).isEqualTo("WL");
    FieldPlan mv2 =
        evolved.record().fields().stream().filter(f -> f.name().equals("m_v2")).findFirst().get();
    assertThat(evolved.tables().get(mv2.typeIndex()).mapValue().kind())
        .as("m_v2's entries hold the longs the data has now:\n" + r.schema())
        .isEqualTo(FieldKind.LONG);

    SchemaFixtures fx = new SchemaFixtures(dir.resolve("fxns"), r.schema());
    List<byte[]> docs =
        List.of(
            SchemaFixtures.bson(
                "{\"_id\": \"a\", \"kind\": \"B\", \"pos\": {\"x\": 1, \"y\": 2, \"z\": 3},"
                    + " \"val\": \"s\", \"m\": {\"k\": {\"$numberLong\": \"5000000000\"}},"
                    + " \"sub\": {\"name\": \"n\", \"extra\": true}, \"d\": 2.5}"),
            SchemaFixtures.bson(
                "{\"_id\": \"b\", \"sub\": {\"k\": \"free text\"}," + " \"legacy\": \"x\"}"));
    ByteBuffer shard = fx.encode(new RecordEncoder(fx.plan, true), docs);
    Path bin = dir.resolve("datans.bin");
    byte[] bytes = new byte[shard.remaining()];
    shard.duplicate().get(bytes);
    Files.write(bin, bytes);

    JsonNode oldView =
        SchemaFixtures.flatcJson(dir.resolve("oldns").resolve("oldns.fbs"), bin, "--raw-binary")
            .get("records");

    assertThat(oldView.get(0).toString())
        .isEqualTo(
            "{\"id\":\"a\",\"kind\":\"B\",\"pos\":{\"x\":1.0,\"y\":2.0,\"z\":3.0},"
                + "\"val_type\":\"WS\",\"val\":{\"value\":\"s\"},"
                + "\"sub\":{\"name\":\"n\"},\"d\":2.5}");
    assertThat(oldView.get(1).toString()).isEqualTo("{\"id\":\"b\",\"sub\":{}}");
  }

  /**
   * An enum whose values became free text keeps the names it has: a value read by several fields
   * goes to the first that takes the value itself, so readers of the earlier schema still read
   * {@code A}; {@code x} goes to {@code k_v2}. Likewise a {@code float} keeps the doubles it holds
   * exactly.
   */
  @Test
  void anEnumKeepsTheNamesItTakesWhenItsValuesBecomeFreeText() throws Exception {
    SchemaPlan old =
        plan(
            "oldenum",
            "enum Kind : ubyte { A = 1, B = 2 } table Rec { k: Kind = B; }"
                + " table Root { records: [Rec]; } root_type Root;");
    SchemaEvolution.Result r =
        SchemaEvolution.evolve(
            old,
            plan(
                "newenum",
                "table Rec { k: string; } table Root { records: [Rec]; } root_type Root;"),
            false);
    SchemaFixtures fx = new SchemaFixtures(dir.resolve("fxenum"), r.schema());
    ByteBuffer shard =
        fx.encode(
            new RecordEncoder(fx.plan, true),
            List.of(SchemaFixtures.bson("{\"k\": \"A\"}"), SchemaFixtures.bson("{\"k\": \"x\"}")));
    Path bin = dir.resolve("dataenum.bin");
    byte[] bytes = new byte[shard.remaining()];
    shard.duplicate().get(bytes);
    Files.write(bin, bytes);

    JsonNode oldView =
        SchemaFixtures.flatcJson(dir.resolve("oldenum").resolve("oldenum.fbs"), bin, "--raw-binary")
            .get("records");

    assertThat(r.changes()).anyMatch(c -> c.contains("it keeps the ones it can"));
    assertThat(oldView.get(0).toString()).isEqualTo("{\"k\":\"A\"}");
    assertThat(oldView.get(1).toString()).isEqualTo("{}"); // x: not a Kind, in k_v2
    assertThat(fx.flatcRecords(shard).get(1).get("k_v2").asString()).isEqualTo("x");
  }

  /** A new union member whose values an earlier member takes is not appended: never chosen. */
  @Test
  void aUnionGetsOnlyTheMembersItLacks() throws Exception {
    SchemaPlan old =
        plan(
            "oldunion",
            """
            attribute "wrapper";
            table WS (wrapper) { value: string; }
            table WL (wrapper) { value: long; }
            union Val { WS, WL }
            table Rec { v: Val; }
            table Root { records: [Rec]; }
            root_type Root;
            """);
    SchemaEvolution.Result r =
        SchemaEvolution.evolve(
            old,
            plan(
                "newunion",
                """
                attribute "wrapper";
                table VString (wrapper) { value: string; }
                table VInt (wrapper) { value: int; }
                table VDouble (wrapper) { value: double; }
                union V { VString, VInt, VDouble }
                table Rec { v: V; }
                table Root { records: [Rec]; }
                root_type Root;
                """),
            false);

    assertThat(r.schema()).contains("union Val { WS, WL, VDouble }");
    assertThat(r.schema()).doesNotContain("VString").doesNotContain("VInt");
    assertThat(r.changes()).containsExactly("new member VDouble of union Val");
  }

  @Test
  void widerNumbersHoldNarrowerOnes() {
    assertThat(SchemaEvolution.holds(FieldKind.LONG, FieldKind.INT)).isTrue();
    assertThat(SchemaEvolution.holds(FieldKind.INT, FieldKind.LONG)).isFalse();
    assertThat(SchemaEvolution.holds(FieldKind.ULONG, FieldKind.UINT)).isTrue();
    assertThat(SchemaEvolution.holds(FieldKind.LONG, FieldKind.ULONG)).isFalse();
    assertThat(SchemaEvolution.holds(FieldKind.ULONG, FieldKind.INT)).isFalse();
    assertThat(SchemaEvolution.holds(FieldKind.DOUBLE, FieldKind.INT)).isTrue();
    assertThat(SchemaEvolution.holds(FieldKind.DOUBLE, FieldKind.LONG)).isFalse();
    assertThat(SchemaEvolution.holds(FieldKind.BOOL, FieldKind.BYTE)).isFalse();
  }
}
