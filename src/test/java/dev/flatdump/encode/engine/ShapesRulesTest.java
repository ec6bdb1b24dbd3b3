package dev.flatdump.encode.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.artifact.check.SchemaVerifier;
import dev.flatdump.encode.plan.SchemaException;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * The shapes MongoDB data has beyond documents of fixed fields: maps, fields whose type varies
 * (unions of wrappers) and arrays of arrays (vectors of wrappers), on the fast paths and off; what
 * flatc decodes from the buffer is what the document held.
 */
class ShapesRulesTest {

  @TempDir Path dir;

  static final String SCHEMA = dev.flatdump.testing.ShapesSchema.TEXT;

  private static RecordEncoder encoder(SchemaFixtures fx, boolean fast) {
    return new RecordEncoder(
        fx.plan,
        new Sharing(fx.plan, fast ? Sharing.Kinds.ALL : Sharing.Kinds.NONE),
        true,
        fast,
        fast,
        fast);
  }

  private static final List<String> DOCS =
      List.of(
          """
          {"_id": 1, "created_at": "2020-01-01T00:00:00Z",
           "names": {"fra": "France", "eng": "England", "deu": "Deutschland"},
           "currencies": {"EUR": {"name": "Euro", "symbol": "€"}, "CHF": {"name": "Franc"}},
           "rings": [[1.5, 2.5], [], [3.0]],
           "polygons": [[[0.0, 0.0], [1.0, 1.0]], [[2.0]]],
           "items": ["a", 7, {"$numberLong": "8"}, 1.25, null, {"x": 1, "y": 2}],
           "maybe": [[1.0], null, [2.0]]}
          """,
          """
          {"_id": 2, "created_at": 1577836800, "names": {}, "currencies": null}
          """,
          """
          {"_id": 3, "created_at": {"$numberLong": "1577836800000"}, "names": {"é": "x", "e": "y"}}
          """,
          """
          {"_id": 4, "created_at": {"x": 5}}
          """,
          """
          {"_id": 5, "created_at": null}
          """);

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void mapsUnionsAndArraysOfArraysRoundTripThroughFlatc(boolean fast) throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir.resolve("s" + fast), SCHEMA);
    List<byte[]> docs = DOCS.stream().map(SchemaFixtures::bson).toList();

    ByteBuffer shard = fx.encode(encoder(fx, fast), docs);

    assertThat(SchemaVerifier.verify(fx.plan, shard).error()).isNull();
    JsonNode records = fx.flatcRecords(shard);
    JsonNode r0 = records.get(0);
    assertThat(r0.get("created_at_type").asText()).isEqualTo("CreatedAtString");
    assertThat(r0.get("created_at").get("value").asText()).isEqualTo("2020-01-01T00:00:00Z");
    assertThat(r0.get("names").toString())
        .isEqualTo(
            "[{\"key\":\"deu\",\"value\":\"Deutschland\"},{\"key\":\"eng\",\"value\":\"England\"},"
                + "{\"key\":\"fra\",\"value\":\"France\"}]");
    assertThat(r0.get("currencies").toString())
        .isEqualTo(
            "[{\"key\":\"CHF\",\"value\":{\"name\":\"Franc\"}},"
                + "{\"key\":\"EUR\",\"value\":{\"name\":\"Euro\",\"symbol\":\"€\"}}]");
    assertThat(r0.get("rings").toString())
        .isEqualTo("[{\"value\":[1.5,2.5]},{\"value\":[]},{\"value\":[3.0]}]");
    assertThat(r0.get("polygons").toString())
        .isEqualTo(
            "[{\"value\":[{\"value\":[0.0,0.0]},{\"value\":[1.0,1.0]}]},"
                + "{\"value\":[{\"value\":[2.0]}]}]");
    JsonNode items = r0.get("items");
    assertThat(items).hasSize(6);
    assertThat(items.get(0).get("value_type").asText()).isEqualTo("CreatedAtString");
    assertThat(items.get(1).get("value_type").asText()).isEqualTo("CreatedAtLong");
    assertThat(items.get(1).get("value").get("value").asLong()).isEqualTo(7);
    assertThat(items.get(2).get("value_type").asText()).isEqualTo("CreatedAtLong");
    assertThat(items.get(3).get("value_type").asText()).isEqualTo("CreatedAtDouble");
    assertThat(items.get(4).has("value")).isFalse(); // null: a wrapper holding nothing
    assertThat(items.get(5).get("value_type").asText()).isEqualTo("CreatedAtDoc");
    assertThat(items.get(5).get("value").get("value").toString()).isEqualTo("{\"x\":1,\"y\":2}");
    assertThat(r0.get("maybe").toString()).isEqualTo("[{\"value\":[1.0]},{},{\"value\":[2.0]}]");

    JsonNode r1 = records.get(1);
    assertThat(r1.get("created_at_type").asText()).isEqualTo("CreatedAtLong");
    assertThat(r1.get("names").toString()).isEqualTo("[]");
    assertThat(r1.has("currencies")).isFalse();
    // keys sorted by their UTF-8 bytes: "e" (0x65) before "é" (0xC3 0xA9)
    assertThat(records.get(2).get("names").toString())
        .isEqualTo("[{\"key\":\"e\",\"value\":\"y\"},{\"key\":\"é\",\"value\":\"x\"}]");
    assertThat(records.get(3).get("created_at_type").asText()).isEqualTo("CreatedAtDoc");
    assertThat(records.get(4).has("created_at")).isFalse();
    assertThat(records.get(4).has("created_at_type")).isFalse();
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void rejectsWhatTheShapesDoNotHold(boolean fast) throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir.resolve("r" + fast), SCHEMA);
    RecordEncoder e = encoder(fx, fast);
    assertRejected(e, "{\"_id\": 1, \"created_at\": true}", "created_at", "got bool");
    assertRejected(e, "{\"_id\": 1, \"names\": [\"a\"]}", "names", "expected a document (map)");
    assertRejected(e, "{\"_id\": 1, \"names\": {\"a\": 1}}", "names.a", "expected string");
    assertRejected(e, "{\"_id\": 1, \"rings\": [1.0]}", "rings[0]", "expected an array");
    assertRejected(e, "{\"_id\": 1, \"rings\": [[null]]}", "rings[0][0]", "null in a vector");
    assertRejected(
        e, "{\"_id\": 1, \"created_at\": {\"x\": 1, \"z\": 2}}", "created_at.z", "--strict");
    assertRejected(
        e, "{\"_id\": 1, \"created_at\": 1.5e300}", "created_at", null); // a double: its member
  }

  /**
   * Fields that read one BSON name (an evolved schema): each value goes to the one whose type takes
   * its BSON type, so a reader of the older field keeps reading the values it holds.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void fieldsReadingOneNameTakeTheValuesOfTheirType(boolean fast) throws Exception {
    SchemaFixtures fx =
        new SchemaFixtures(
            dir.resolve("alt" + fast),
            """
            attribute "bson"; attribute "wrapper";
            table AtString (wrapper) { value: string; }
            table AtLong (wrapper) { value: long; }
            union At { AtString, AtLong }
            table Rec { n: int; at: string; at_v2: At (bson: "at"); n_v2: double (bson: "n"); }
            table Root { records: [Rec]; }
            root_type Root;
            """);
    List<byte[]> docs =
        java.util.stream.Stream.of(
                "{\"n\": 1, \"at\": \"2020\"}",
                "{\"n\": 1.5, \"at\": 1577836800}",
                "{\"n\": null, \"at\": null}")
            .map(SchemaFixtures::bson)
            .toList();
    for (int i = 0; i < 40; i++) { // long runs of one layout: the fast paths learn them
      docs = new java.util.ArrayList<>(docs);
      docs.add(SchemaFixtures.bson("{\"n\": " + i + ", \"at\": \"x\"}"));
    }
    ByteBuffer shard = fx.encode(encoder(fx, fast), docs);

    assertThat(SchemaVerifier.verify(fx.plan, shard).error()).isNull();
    JsonNode records = fx.flatcRecords(shard);
    assertThat(records.get(0).toString()).isEqualTo("{\"n\":1,\"at\":\"2020\"}");
    assertThat(records.get(1).toString())
        .isEqualTo("{\"at_v2_type\":\"AtLong\",\"at_v2\":{\"value\":1577836800},\"n_v2\":1.5}");
    assertThat(records.get(2).toString()).isEqualTo("{}");
    assertThat(records.get(42).toString()).isEqualTo("{\"n\":39,\"at\":\"x\"}");
    RecordEncoder e = encoder(fx, fast);
    assertRejected(e, "{\"at\": true}", "at", "expected string, got bool");
    byte[] twice =
        dev.flatdump.testing.BsonBytes.doc(
            dev.flatdump.testing.BsonBytes.string("at", "x"),
            dev.flatdump.testing.BsonBytes.int32("at", 1));
    assertThatThrownBy(() -> e.encode(new FlatBufferBuilder(), twice, 0, twice.length))
        .isInstanceOfSatisfying(
            RejectedRecord.class, r -> assertThat(r.reason()).contains("appears twice"));
  }

  /**
   * A sub-document found again by its BSON bytes ({@link BsonMemo}) is not walked, so its depth is
   * not checked; wrappers nest two tables per BSON level, so a short sub-document met first near
   * the top can nest too deep where it is met again lower down. Sharing must not change the
   * verdict: the document is rejected either way.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aSubDocumentFoundByItsBytesStillNestsAtMost64Deep(boolean fast) throws Exception {
    SchemaFixtures fx =
        new SchemaFixtures(
            dir.resolve("deep" + fast),
            """
            attribute "wrapper";
            table T { w: W; t: T; }
            table W (wrapper) { value: T; }
            table Rec { t: T; }
            table Root { records: [Rec]; }
            root_type Root;
            """);
    String x = "{}";
    for (int i = 0; i < 14; i++) { // 8 bytes a level, 2 tables: 29 tables in 117 bytes
      x = "{\"w\": " + x + "}";
    }
    String deep = x;
    for (int i = 0; i < 42; i++) { // x at depth 43 in tables: 71 levels with the root
      deep = "{\"t\": " + deep + "}";
    }
    RecordEncoder e = encoder(fx, fast);
    byte[] shallow = SchemaFixtures.bson("{\"t\": " + x + "}");
    byte[] tooDeep = SchemaFixtures.bson("{\"t\": " + deep + "}");
    FlatBufferBuilder builder = new FlatBufferBuilder();
    assertThat(e.encode(builder, shallow, 0, shallow.length)).isPositive();
    assertThatThrownBy(() -> e.encode(builder, tooDeep, 0, tooDeep.length))
        .isInstanceOfSatisfying(
            RejectedRecord.class, r -> assertThat(r.reason()).contains("nested deeper than 64"));
  }

  /** A scalar field of several reading one name takes the values it holds, by their value. */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void theFirstOfSeveralFieldsTakesEveryValueItHolds(boolean fast) throws Exception {
    SchemaFixtures fx =
        new SchemaFixtures(
            dir.resolve("first" + fast),
            """
            attribute "bson";
            enum Kind : ubyte { A = 1, B = 2 }
            table Rec {
              f: float; s: short; k: Kind = B;
              f_v2: double (bson: "f"); s_v2: int (bson: "s"); k_v2: string (bson: "k");
            }
            table Root { records: [Rec]; }
            root_type Root;
            """);
    List<byte[]> docs =
        java.util.stream.Stream.of(
                "{\"f\": 1.5, \"s\": 7, \"k\": \"A\"}", "{\"f\": 0.1, \"s\": 70000, \"k\": \"Z\"}")
            .map(SchemaFixtures::bson)
            .toList();
    ByteBuffer shard = fx.encode(encoder(fx, fast), docs);

    JsonNode records = fx.flatcRecords(shard);
    assertThat(records.get(0).toString()).isEqualTo("{\"f\":1.5,\"s\":7,\"k\":\"A\"}");
    assertThat(records.get(1).toString()).isEqualTo("{\"f_v2\":0.1,\"s_v2\":70000,\"k_v2\":\"Z\"}");
  }

  /** The generative test's schemas have fields sharing a BSON name often enough to matter. */
  @org.junit.jupiter.api.Test
  void generatedSchemasReadOneNameWithSeveralFields() {
    int with = 0;
    for (long seed = 1_000; seed < 1_200; seed++) {
      RandomSchemas.Schema s = RandomSchemas.generate(seed);
      java.util.Set<String> names = new java.util.HashSet<>();
      for (RandomSchemas.Field f : s.record().fields) {
        if (!f.deprecated && !names.add(f.bsonName())) {
          with++;
          break;
        }
      }
    }
    assertThat(with).as("of the 200 schemas the CI run generates").isBetween(30, 120);
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aKeyGivenTwiceInAMapRejects(boolean fast) throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir.resolve("d" + fast), SCHEMA);
    byte[] twice =
        dev.flatdump.testing.BsonBytes.doc(
            dev.flatdump.testing.BsonBytes.int32("_id", 1),
            dev.flatdump.testing.BsonBytes.document(
                "names",
                dev.flatdump.testing.BsonBytes.doc(
                    dev.flatdump.testing.BsonBytes.string("a", "x"),
                    dev.flatdump.testing.BsonBytes.string("a", "y"))));
    RecordEncoder e = encoder(fx, fast);
    assertThatThrownBy(() -> e.encode(new FlatBufferBuilder(), twice, 0, twice.length))
        .isInstanceOfSatisfying(
            RejectedRecord.class,
            r -> {
              assertThat(r.path()).isEqualTo("names.a");
              assertThat(r.reason()).contains("twice");
            });
  }

  private static void assertRejected(RecordEncoder e, String json, String path, String reason) {
    byte[] d = SchemaFixtures.bson(json);
    if (reason == null) {
      assertThat(e.encode(new FlatBufferBuilder(), d, 0, d.length)).isPositive();
      return;
    }
    assertThatThrownBy(() -> e.encode(new FlatBufferBuilder(), d, 0, d.length))
        .as(json)
        .isInstanceOfSatisfying(
            RejectedRecord.class,
            r -> {
              assertThat(r.path()).isEqualTo(path);
              assertThat(r.reason()).contains(reason);
            });
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "table W (wrapper) { a: int; b: int; } table R { w: W; }|exactly one field",
        "table W (wrapper) { a: int; } table R { w: [W] (map); }|is a (map)",
        "table E { k: string (key); } table R { m: [E] (map); }|is a (map)",
        "table E { k: int (key); v: int; } table R { m: [E] (map); }|is a (map)",
        "table M { a: int; } union U { M } table R { u: U; }|must be a (wrapper) table",
        "table M (wrapper) { a: int; } union U { M } table W (wrapper) { v: int; }"
            + " table R { us: [U]; }|vector of unions",
      })
  void refusesMalformedShapesAtLoad(String caseText) throws Exception {
    String[] parts = caseText.split("\\|");
    Path fbs = Files.createDirectories(dir.resolve("bad")).resolve("bad.fbs");
    Files.writeString(
        fbs,
        "attribute \"map\"; attribute \"wrapper\"; "
            + parts[0]
            + " table Root { rs: [R]; } root_type Root;");
    assertThatThrownBy(() -> SchemaPlan.load(fbs))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining(parts[1]);
  }
}
