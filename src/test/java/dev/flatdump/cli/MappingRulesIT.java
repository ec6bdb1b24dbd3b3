package dev.flatdump.cli;

import static dev.flatdump.testing.BsonBytes.code;
import static dev.flatdump.testing.BsonBytes.codeWithScope;
import static dev.flatdump.testing.BsonBytes.dbPointer;
import static dev.flatdump.testing.BsonBytes.doc;
import static dev.flatdump.testing.BsonBytes.document;
import static dev.flatdump.testing.BsonBytes.int32;
import static dev.flatdump.testing.BsonBytes.int64;
import static dev.flatdump.testing.BsonBytes.nul;
import static dev.flatdump.testing.BsonBytes.raw;
import static dev.flatdump.testing.BsonBytes.string;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The mapping rules where the engine once broke them, with BSON as a real mongod stores and returns
 * it: each document is exported exactly or rejected with its path, {@code check} finds every shard
 * sound, and {@code verify} agrees with the export on every document.
 */
@ExtendWith(MongoDbExtension.class)
class MappingRulesIT {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static final String HEADER =
      """
      attribute "bson";
      """;

  @TempDir Path dir;

  /** An export's outcome, after {@code check} and {@code verify} both passed. */
  private record Exported(List<JsonNode> rejects, JsonNode records) {
    List<String> rejectedFields() {
      return rejects.stream().map(r -> r.get("field").asString()).toList();
    }
  }

  private Exported export(
      MongoServer server,
      MongoDatabase db,
      String schema,
      List<RawBsonDocument> docs,
      String... more)
      throws Exception {
    String coll = "c" + Long.toHexString(System.nanoTime());
    var collection = db.getCollection(coll, RawBsonDocument.class);
    for (RawBsonDocument d : docs) {
      collection.insertOne(d);
    }
    Path fbs = dir.resolve(coll + ".fbs");
    Files.writeString(fbs, HEADER + schema);
    Path out = dir.resolve(coll);
    List<String> args =
        new ArrayList<>(
            List.of("--schema", fbs.toString(), "--compress", "none", "--max-rejects", "none"));
    args.addAll(List.of(more));
    CliRun run = ExportCommandIT.export(server, db, coll, out, args.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.toString()).isIn(0, Flatdump.EXIT_REJECTS);
    CliRun check = CliRun.of("check", out.toString());
    assertThat(check.exitCode()).as(check.toString()).isZero();
    CliRun verify = ExportCommandIT.verify(server, db, coll, out);
    assertThat(verify.exitCode()).as(verify.toString()).isZero();
    Path export = OutputLayout.resolve(out);
    List<JsonNode> rejects = new ArrayList<>();
    for (String line : Files.readAllLines(export.resolve("rejects.jsonl"))) {
      rejects.add(JSON.readTree(line));
    }
    assertThat(run.exitCode()).isEqualTo(rejects.isEmpty() ? 0 : Flatdump.EXIT_REJECTS);
    return new Exported(rejects, flatc(export, coll));
  }

  /** The records as flatc itself reads the shard. */
  private static JsonNode flatc(Path export, String name) throws Exception {
    return SchemaFixtures.flatcJson(
            export.resolve(name + ".fbs"), export.resolve(name + ".fb"), "--raw-binary")
        .get("rs");
  }

  private static RawBsonDocument bson(BsonDocument d) {
    return new RawBsonDocument(d, new org.bson.codecs.BsonDocumentCodec());
  }

  @Test
  void aFieldGivenTwiceRejectsItsDocumentWhateverTheFirstValue(MongoServer server, MongoDatabase db)
      throws Exception {
    Exported e =
        export(
            server,
            db,
            "table R { n: int; name: string (required); } table Root { rs: [R]; } root_type Root;",
            List.of(
                raw(int32("_id", 1), nul("n"), int32("n", 5), string("name", "a")),
                raw(int32("_id", 2), nul("name"), string("name", "x")),
                raw(int32("_id", 3), int32("n", 5), nul("n"), string("name", "b")),
                // an int64 _id reads back from rejects.jsonl as an int32: verify still matches it
                raw(int64("_id", 5), int32("n", 5), int32("n", 6), string("name", "c")),
                raw(int32("_id", 4), int32("n", 7), string("name", "ok"))));

    assertThat(e.rejectedFields()).containsExactly("n", "name", "n", "n");
    assertThat(e.rejects())
        .allMatch(
            r -> r.get("reason").asString().equals("the field appears twice in the document"));
    assertThat(e.records()).isEqualTo(JSON.readTree("[{\"n\": 7, \"name\": \"ok\"}]"));
  }

  @Test
  void binaryFillsAPlainByteVectorWithItsPayloadAndNoEnumVector(
      MongoServer server, MongoDatabase db) throws Exception {
    Exported e =
        export(
            server,
            db,
            """
            enum Color : ubyte { Red = 1, Green = 2 }
            table R { colors: [Color]; bytes: [ubyte]; }
            table Root { rs: [R]; } root_type Root;
            """,
            List.of(
                bson(
                    new BsonDocument("_id", new BsonInt32(1))
                        .append("colors", new BsonBinary(new byte[] {0, 7}))),
                bson(
                    new BsonDocument("_id", new BsonInt32(2))
                        .append("colors", new BsonBinary(new byte[] {1, 2}))),
                bson(
                    new BsonDocument("_id", new BsonInt32(3))
                        .append(
                            "colors",
                            new BsonArray(List.of(new BsonString("Red"), new BsonInt32(2))))),
                bson(
                    new BsonDocument("_id", new BsonInt32(4))
                        .append("bytes", new BsonBinary((byte) 2, new byte[] {1, 2, 3}))),
                bson(
                    new BsonDocument("_id", new BsonInt32(5))
                        .append("bytes", new BsonBinary((byte) 0x80, new byte[] {9})))));

    assertThat(e.rejectedFields()).containsExactly("colors", "colors");
    assertThat(e.rejects())
        .allMatch(r -> r.get("reason").asString().startsWith("expected an array"));
    assertThat(e.records())
        .isEqualTo(
            JSON.readTree(
                "[{\"colors\": [\"Red\", \"Green\"]}, {\"bytes\": [1, 2, 3]}, {\"bytes\": [9]}]"));
  }

  @Test
  void anIdTheLayoutSkipsIsStillCheckedAndNamed(MongoServer server, MongoDatabase db)
      throws Exception {
    List<RawBsonDocument> docs = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      docs.add(raw(string("_id", String.format("k%03d", i)), int32("n", i), string("s", "v")));
    }
    docs.add(raw(string("_id", new byte[] {'z', (byte) 0xff}), int32("n", 1), string("s", "v")));
    docs.add(raw(string("_id", "zz"), int32("n", 2), string("s", "v")));

    Exported e =
        export(
            server,
            db,
            "table R { n: int; s: string; } table Root { rs: [R]; } root_type Root;",
            docs);

    assertThat(e.rejectedFields()).containsExactly("_id");
    assertThat(e.rejects().get(0).get("reason").asString()).contains("not valid UTF-8");
    assertThat(e.records()).hasSize(201);
  }

  @Test
  void tablesNestAsDeepAsReadersAllowAndNoDeeper(MongoServer server, MongoDatabase db)
      throws Exception {
    Exported e =
        export(
            server,
            db,
            "table Node { next: Node; v: int; } table Root { rs: [Node]; } root_type Root;",
            List.of(
                nested(1, 62),
                nested(2, 63),
                nested(3, 70),
                // a sub-document found again by its bytes is not walked again; deeper, it must be
                bson(new BsonDocument("_id", new BsonInt32(4)).append("next", chain(15, 0))),
                bson(new BsonDocument("_id", new BsonInt32(5)).append("next", chain(62, 0)))));

    String tooDeep = "next" + ".next".repeat(62);
    assertThat(e.rejectedFields()).containsExactly(tooDeep, tooDeep, tooDeep);
    assertThat(e.rejects().get(0).get("reason").asString())
        .isEqualTo(
            "tables nested deeper than 64 levels (counting the shard's root and the record),"
                + " which FlatBuffers readers refuse");
    JsonNode node = e.records().get(0);
    for (int i = 0; i < 62; i++) {
      node = node.get("next");
    }
    assertThat(node.get("v").asInt()).isEqualTo(62);
  }

  /** A record whose {@code next} tables nest {@code levels} deep below it, the last with v. */
  private static RawBsonDocument nested(int id, int levels) {
    return bson(
        new BsonDocument("_id", new BsonInt32(id)).append("next", chain(levels - 1, levels)));
  }

  /**
   * A Node whose {@code next} tables nest {@code levels} below it, the last holding {@code v}; the
   * innermost levels are the same bytes in every chain of the same {@code v}.
   */
  private static BsonDocument chain(int levels, int v) {
    BsonDocument inner = new BsonDocument("v", new BsonInt32(v));
    for (int i = 0; i < levels; i++) {
      inner = new BsonDocument("next", inner);
    }
    return inner;
  }

  @Test
  void oneLeafTableAtTwoDepths(MongoServer server, MongoDatabase db) throws Exception {
    List<RawBsonDocument> docs = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      docs.add(bson(new BsonDocument("_id", new BsonInt32(i)).append("w", wide(i))));
    }
    docs.add(
        bson(
            new BsonDocument("_id", new BsonInt32(100))
                .append("h", new BsonDocument("w", wide(100)))
                .append("w", wide(101))));

    Exported e =
        export(
            server,
            db,
            """
            table Wide { f0: int; f1: int; f2: int; f3: int; f4: int; f5: int; f6: int; f7: int;
                         f8: int; f9: int; }
            table Holder { w: Wide; }
            table Rec { w: Wide; h: Holder; }
            table Root { rs: [Rec]; } root_type Root;
            """,
            docs);

    assertThat(e.rejects()).isEmpty();
    assertThat(e.records()).hasSize(101);
    assertThat(e.records().get(100).get("h").get("w").get("f9").asInt()).isEqualTo(109);
    assertThat(e.records().get(100).get("w").get("f0").asInt()).isEqualTo(101);
  }

  private static BsonDocument wide(int base) {
    BsonDocument w = new BsonDocument();
    for (int f = 0; f < 10; f++) {
      w.append("f" + f, new BsonInt32(base + f));
    }
    return w;
  }

  @Test
  void vectorsOfKeyedTablesAreWrittenInTheKeysOrder(MongoServer server, MongoDatabase db)
      throws Exception {
    BsonArray es = new BsonArray();
    for (String name : List.of("b", "a", "é", "Z")) {
      es.add(new BsonDocument("name", new BsonString(name)));
    }
    es.add(new BsonDocument("name", new BsonString("a")).append("v", new BsonInt32(2)));
    BsonArray ns =
        new BsonArray(
            List.of(
                new BsonDocument("k", new BsonDouble(1e19)), // above 2^63: unsigned order
                new BsonDocument("k", new BsonInt32(5)),
                new BsonDocument("k", new BsonInt64(1L << 62)),
                new BsonDocument()));
    Exported e =
        export(
            server,
            db,
            """
            table E { name: string (key); v: int; }
            table N { k: ulong = 3 (key); }
            table R { es: [E]; ns: [N]; }
            table Root { rs: [R]; } root_type Root;
            """,
            List.of(
                bson(new BsonDocument("_id", new BsonInt32(1)).append("es", es).append("ns", ns))));

    JsonNode r = e.records().get(0);
    assertThat(r.get("es"))
        .isEqualTo(
            JSON.readTree(
                "[{\"name\": \"Z\"}, {\"name\": \"a\"}, {\"name\": \"a\", \"v\": 2},"
                    + " {\"name\": \"b\"}, {\"name\": \"é\"}]"));
    assertThat(r.get("ns"))
        .isEqualTo(
            JSON.readTree(
                "[{\"k\": 3}, {\"k\": 5}, {\"k\": 4611686018427387904},"
                    + " {\"k\": 10000000000000000000}]")); // flatc prints a key at its default too
  }

  @Test
  void verifyAgreesWithTheExportOnStrictStructsAndCodeThatIsNotUtf8(
      MongoServer server, MongoDatabase db) throws Exception {
    byte[] bad = {'x', (byte) 0xff};
    Exported e =
        export(
            server,
            db,
            """
            struct P { x: int; y: int; }
            table R { p: P; n: int; }
            table Root { rs: [R]; } root_type Root;
            """,
            List.of(
                raw(
                    int32("_id", 1),
                    document("p", doc(int32("x", 1), int32("y", 2), int32("z", 3)))),
                raw(int32("_id", 2), int32("n", 1), code(0x0D, "js", bad)),
                raw(int32("_id", 3), int32("n", 1), code(0x0E, "sym", bad)),
                raw(int32("_id", 4), int32("n", 1), dbPointer("ptr", bad)),
                raw(int32("_id", 5), int32("n", 1), codeWithScope("cws", bad, doc())),
                raw(
                    int32("_id", 6),
                    int32("n", 1),
                    codeWithScope(
                        "cws", "f()".getBytes(StandardCharsets.UTF_8), doc(string("s", bad)))),
                raw(int32("_id", 7), document("p", doc(int32("x", 1), int32("y", 2))))),
            "--strict");

    assertThat(e.rejectedFields()).containsExactly("p.z", "js", "sym", "ptr", "cws", "cws");
    assertThat(e.records()).isEqualTo(JSON.readTree("[{\"p\": {\"x\": 1, \"y\": 2}}]"));
  }

  @Test
  void anEmptyJobRepositoryVariableIsUnset(MongoServer server, MongoDatabase db) throws Exception {
    // one organization that fits: an export that rejects every document fails
    ExportCommandIT.generate(db, "empty-env", dev.flatdump.bench.samples.Profile.REALISTIC, 1, 1);
    Path out = dir.resolve("empty-env");
    String[] args = ExportCommandIT.exportArgs(server, db, "empty-env", out, "--compress", "none");

    CliRun run = CliRun.withEnv(Map.of("FLATDUMP_JOB_REPOSITORY", ""), args);

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(out.resolve(".flatdump")).isDirectory();
  }
}
