package dev.flatdump.artifact.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.check.ExpectedRecords.NotFit;
import dev.flatdump.artifact.check.SchemaExportVerifier.Real;
import dev.flatdump.testing.BsonBytes;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mapping oracle on its own: documents into the values their records must hold, or why not. */
class ExpectedRecordsTest {

  private static final String SCHEMA =
      """
      enum Color : byte { Red = 1, Green = 2 }
      struct Point { x: int; y: double; }
      table Item { name: string (key); n: int; }
      table Node { next: Node; }
      table R {
        i: int; s: string; c: Color = Red; p: Point; items: [Item]; f: float; opt: int = null;
        node: Node;
      }
      table Root { rs: [R]; }
      root_type Root;
      """;

  @TempDir Path dir;

  private ExpectedRecords oracle(boolean strict) throws Exception {
    return new ExpectedRecords(new SchemaFixtures(dir, SCHEMA).plan, strict);
  }

  private static Real real(double d) {
    return new Real(Double.doubleToRawLongBits(d));
  }

  @Test
  void mapsADocumentIntoTheValuesItsRecordMustHold() throws Exception {
    BsonDocument doc =
        BsonDocument.parse(
            """
            {"_id": 1, "i": 5, "s": "x", "c": "Green", "p": {"x": 1, "y": 2.5},
             "items": [{"name": "b", "n": 1}, {"name": "a", "n": 2}], "f": 0.5}
            """);

    Map<String, Object> expected = new HashMap<>();
    expected.put("i", 5L);
    expected.put("s", "x");
    expected.put("c", 2L);
    expected.put("p", Map.of("x", 1L, "y", real(2.5)));
    expected.put("f", real(0.5f));
    expected.put("opt", null);
    expected.put("node", null);
    expected.put("items", List.of(Map.of("name", "a", "n", 2L), Map.of("name", "b", "n", 1L)));
    assertThat(oracle(false).record(doc)).containsExactlyInAnyOrderEntriesOf(expected);
  }

  @Test
  void fieldsLeftOutHoldWhatAReaderGets() throws Exception {
    Map<String, Object> values = oracle(false).record(BsonDocument.parse("{\"_id\": 1}"));

    assertThat(values)
        .containsEntry("i", 0L)
        .containsEntry("c", 1L)
        .containsEntry("f", real(0.0f))
        .containsEntry("opt", null)
        .containsEntry("s", null)
        .containsEntry("p", null)
        .containsEntry("items", null);
  }

  @Test
  void refusesWithTheFieldsPathAndTheReason() throws Exception {
    ExpectedRecords oracle = oracle(false);

    assertThat(refusal(oracle, "{\"i\": 1}")).isEqualTo("_id: missing");
    assertThat(refusal(oracle, "{\"_id\": 1, \"i\": 2.5}")).isEqualTo("i: 2.5 is not an integer");
    assertThat(refusal(oracle, "{\"_id\": 1, \"c\": \"Purple\"}"))
        .isEqualTo("c: 'Purple' is not a value of Color");
    assertThat(refusal(oracle, "{\"_id\": 1, \"p\": {\"x\": 1}}"))
        .isEqualTo("p.y: missing: a struct needs every field");
    assertThat(refusal(oracle, "{\"_id\": 1, \"items\": [{\"name\": \"a\"}, null]}"))
        .isEqualTo("items[1]: null in a vector");
    assertThat(refusal(oracle, "{\"_id\": 1, \"f\": 0.1}"))
        .isEqualTo("f: 0.1 is not exactly a float");
  }

  @Test
  void refusesUnknownFieldsOnlyWhenStrictInStructsToo() throws Exception {
    BsonDocument extra = BsonDocument.parse("{\"_id\": 1, \"extra\": 1}");
    BsonDocument structExtra =
        BsonDocument.parse("{\"_id\": 1, \"p\": {\"x\": 1, \"y\": 2, \"z\": 3}}");

    assertThat(oracle(false).record(extra)).containsEntry("i", 0L);
    assertThat(oracle(false).record(structExtra)).containsKey("p");
    assertThat(refusal(oracle(true), extra)).isEqualTo("extra: not in the schema (--strict)");
    assertThat(refusal(oracle(true), structExtra)).isEqualTo("p.z: not in the schema (--strict)");
  }

  @Test
  void readsARawDocumentsBytesForWhatItsDecodingHides() throws Exception {
    ExpectedRecords oracle = oracle(false);
    byte[] notUtf8 = {(byte) 0xFF};

    assertThat(
            refusal(
                oracle,
                BsonBytes.raw(
                    BsonBytes.int32("_id", 1), BsonBytes.int32("i", 1), BsonBytes.int32("i", 2))))
        .isEqualTo("i: the field appears twice in the document");
    assertThat(
            oracle.record(
                BsonBytes.raw(
                    BsonBytes.int32("_id", 1),
                    BsonBytes.int32("extra", 1),
                    BsonBytes.int32("extra", 2))))
        .containsEntry("i", 0L);
    assertThat(
            refusal(
                oracle,
                BsonBytes.raw(BsonBytes.int32("_id", 1), BsonBytes.string("extra", notUtf8))))
        .isEqualTo("extra: not valid UTF-8");
  }

  @Test
  void refusesTablesNestedDeeperThanReadersAllow() throws Exception {
    ExpectedRecords oracle = oracle(false);

    assertThat(oracle.record(nested(62))).containsKey("node");
    assertThat(refusal(oracle, nested(63)))
        .isEqualTo(
            "node."
                + String.join(".", Collections.nCopies(62, "next"))
                + ": tables nested deeper than FlatBuffers readers allow");
  }

  /** A record with {@code levels} tables below it: {@code node}, then {@code next}s. */
  private static BsonDocument nested(int levels) {
    BsonDocument inner = new BsonDocument();
    for (int i = 1; i < levels; i++) {
      inner = new BsonDocument("next", inner);
    }
    return new BsonDocument("_id", new BsonInt32(1)).append("node", inner);
  }

  private static String refusal(ExpectedRecords oracle, String json) {
    return refusal(oracle, BsonDocument.parse(json));
  }

  private static String refusal(ExpectedRecords oracle, BsonDocument doc) {
    try {
      oracle.record(doc);
    } catch (NotFit e) {
      return e.getMessage();
    }
    throw new AssertionError("fits: " + doc.toJson());
  }
}
