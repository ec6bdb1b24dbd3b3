package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.testing.JavaReader;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import dev.flatdump.testing.PublicDatasets;
import dev.flatdump.testing.PythonReader;
import dev.flatdump.testing.SchemaFixtures;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code export --schema} on real data nobody here wrote: two public datasets, each with a
 * hand-written schema in {@code sample-data/}. Three independent readers decode each artifact back
 * to the source: {@code flatc --json}, a Python program built on flatc's generated Python code and
 * the {@code flatbuffers} package, which compares it with MongoDB through pymongo, and {@link
 * JavaReader}, through the Java flatc generates, which compares it through the Java driver.
 */
@ExtendWith(MongoDbExtension.class)
class PublicDatasetsIT {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final JsonWriterSettings RELAXED =
      JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();

  @Test
  void statesWithTheirCitiesDecodeToTheSource(
      MongoServer server, MongoDatabase db, @TempDir Path out) throws Exception {
    List<BsonDocument> states = inIdOrder(PublicDatasets.states());
    assertThat(states).hasSize(5084);
    load(db.getCollection("states", BsonDocument.class), states);

    CliRun run =
        exportWithSchema(
            server, db, "states", out, "sample-data/states.fbs", "--compare", "plain,strings,json");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    Path export = ExportCommandIT.exported(out);
    Manifest m = Manifest.read(export.resolve(Manifest.FILE_NAME));
    assertThat(m.counts().exported()).isEqualTo(5084);
    assertThat(m.counts().rejected()).isZero();
    assertThat(m.schema().file()).isEqualTo("states.fbs");
    assertThat(m.schema().binary()).isEqualTo("states.bfbs");
    assertThat(m.schema().fileIdentifier()).isEqualTo("STAT");
    assertThat(export.resolve("states.fbs"))
        .hasSameTextualContentAs(Path.of("sample-data/states.fbs"));
    for (var f : m.files()) {
      assertThat(Checksums.sha256(export.resolve(f.name()))).as(f.name()).isEqualTo(f.sha256());
    }
    assertThat(m.shards()).extracting(f -> f.name()).containsExactly("states.fb");
    JsonNode report = ExportCommandIT.report(out);
    assertThat(report.get("baselines").findValuesAsString("name"))
        .containsExactly("plain", "strings", "json");
    long artifact = m.shards().get(0).bytes();
    JsonNode plain = report.get("baselines").get(0);
    assertThat(plain.get("bytes").asLong()).isGreaterThan(artifact);
    assertThat(report.get("dedup").get("flatdump.samples.states.City").get("total").asLong())
        .isEqualTo(states.stream().mapToLong(s -> s.getArray("cities").size()).sum());

    List<Object> expected = new ArrayList<>();
    for (BsonDocument s : states) {
      expected.add(normalized(renamed(s, "id")));
    }
    assertSameRecords(flatcRecords(export, "states.fbs", "states.fb", "states"), expected);

    PythonReader.Result python = PythonReader.compare(out, server.uri(), db.getName(), "states");
    assertThat(python.exitCode()).as(python.output()).isZero();
    assertThat(python.output()).isEqualTo("5084 records agree with " + db.getName() + ".states");
    PythonReaderIT.assertJavaReaderAgrees(server, db, out, "states", 5084);
    assertEveryCommandReadsIt(server, db, "states", out, 5084);
    CliRun inspect = CliRun.of("inspect", out.toString(), "--json", "1");
    // with --json, stdout holds the JSON lines alone and the summary goes to stderr
    assertThat(inspect.err()).contains("5,084 records of flatdump.samples.states.State");
    assertThat(inspect.out().lines())
        .singleElement()
        .asString()
        .startsWith("{\"id\":" + states.get(0).getInt32("_id").getValue() + ",");

    // the Python reader can tell: one city renamed in MongoDB after the export
    db.getCollection("states")
        .updateOne(Filters.eq("_id", states.get(7).get("_id")), Updates.set("cities.0.name", "X"));
    PythonReader.Result changed = PythonReader.compare(out, server.uri(), db.getName(), "states");
    assertThat(changed.exitCode()).as(changed.output()).isEqualTo(1);
    assertThat(changed.output()).contains("record 7").contains("cities[0].name: 'X' in MongoDB");
    JavaReader.Result java = JavaReader.compare(out, server.uri(), db.getName(), "states");
    assertThat(java.difference())
        .startsWith("record 7 (_id " + states.get(7).get("_id").asInt32().getValue() + ") differs:")
        .contains(" cities[0].name: 'X' in MongoDB, '");
    assertThat(java.agreeing()).isEqualTo(java.read() - 1).isEqualTo(5083);
    CliRun verify = ExportCommandIT.verify(server, db, "states", out);
    assertThat(verify.exitCode()).as(verify.toString()).isEqualTo(1);
    assertThat(verify.out()).contains("(record 7): cities[0].name is ").contains(", X in MongoDB");
  }

  @Test
  void emojiExportTheCommonShapeAndRejectTheOthersWithTheirPath(
      MongoServer server, MongoDatabase db, @TempDir Path out) throws Exception {
    List<BsonDocument> emoji = inIdOrder(PublicDatasets.emoji());
    assertThat(emoji).hasSize(1949);
    load(db.getCollection("emoji", BsonDocument.class), emoji);

    // 33 of 1,949 rejected (1.7 %): above the default 1 %
    CliRun run =
        exportWithSchema(
            server, db, "emoji", out, "sample-data/emoji.fbs", "--max-rejects", "none");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Flatdump.EXIT_REJECTS);
    Path export = ExportCommandIT.exported(out);
    // the rejects, found independently: an array where the schema has one value
    Map<String, String> expectedRejects = new LinkedHashMap<>();
    List<Object> expected = new ArrayList<>();
    for (BsonDocument e : emoji) {
      String why = arrayWhereOneValue(e);
      if (why != null) {
        expectedRejects.put(e.getString("_id").getValue(), why);
      } else {
        expected.add(normalized(renamed(e, "hexcode")));
      }
    }
    assertThat(expectedRejects).hasSizeGreaterThan(10);
    Map<String, String> rejects = new LinkedHashMap<>();
    for (String line : Files.readAllLines(export.resolve("rejects.jsonl"))) {
      JsonNode r = JSON.readTree(line);
      rejects.put(r.get("_id").asString(), r.get("field").asString());
      assertThat(r.get("reason").asString()).as(line).matches("expected (string|ubyte), got array");
    }
    assertThat(rejects).isEqualTo(expectedRejects);
    Manifest m = Manifest.read(export.resolve(Manifest.FILE_NAME));
    assertThat(m.counts().exported()).isEqualTo(expected.size());
    assertThat(m.counts().rejected()).isEqualTo(expectedRejects.size());

    assertSameRecords(flatcRecords(export, "emoji.fbs", "emoji.fb", "emojis"), expected);
    // non-Latin text survives: every label and emoji string is compared above; and one for show
    assertThat(expected.toString()).contains("\uD83C\uDDF2\uD83C\uDDF6"); // flag: Martinique

    PythonReader.Result python = PythonReader.compare(out, server.uri(), db.getName(), "emoji");
    assertThat(python.exitCode()).as(python.output()).isZero();
    assertThat(python.output())
        .isEqualTo(expected.size() + " records agree with " + db.getName() + ".emoji");
    PythonReaderIT.assertJavaReaderAgrees(server, db, out, "emoji", expected.size());
    assertEveryCommandReadsIt(server, db, "emoji", out, expected.size());
  }

  /** {@code check} finds it sound and nothing held twice; {@code verify} finds it equal. */
  private static void assertEveryCommandReadsIt(
      MongoServer server, MongoDatabase db, String coll, Path out, int records) {
    CliRun check = CliRun.of("check", out.toString());
    assertThat(check.exitCode()).as(check.toString()).isZero();
    assertThat(check.out())
        .contains(String.format(java.util.Locale.ROOT, "%,d records, no problems", records));
    assertThat(check.out().lines().filter(l -> l.startsWith("de-dup audit: ")))
        .hasSizeGreaterThanOrEqualTo(3)
        .allMatch(l -> l.contains(": 0 held more than once"));
    CliRun verify = ExportCommandIT.verify(server, db, coll, out);
    assertThat(verify.exitCode()).as(verify.toString()).isZero();
  }

  /** Record by record, so that a failure shows the first that differs, not thousands. */
  private static void assertSameRecords(List<Object> actual, List<Object> expected) {
    for (int i = 0; i < Math.min(actual.size(), expected.size()); i++) {
      assertThat(actual.get(i)).as("record %d", i).isEqualTo(expected.get(i));
    }
    assertThat(actual).hasSameSizeAs(expected);
  }

  /**
   * The documents in the order of the {@code _id} index, as the export reads them: each dataset's
   * keys are all ints or all ASCII strings, which order in Java as in MongoDB.
   */
  private static List<BsonDocument> inIdOrder(List<BsonDocument> docs) {
    List<BsonDocument> sorted = new ArrayList<>(docs);
    sorted.sort(
        (a, b) -> {
          BsonValue x = a.get("_id");
          BsonValue y = b.get("_id");
          return x.isInt32()
              ? Integer.compare(x.asInt32().getValue(), y.asInt32().getValue())
              : x.asString().getValue().compareTo(y.asString().getValue());
        });
    return sorted;
  }

  private static void load(MongoCollection<BsonDocument> coll, List<BsonDocument> docs) {
    for (int i = 0; i < docs.size(); i += 1000) {
      coll.insertMany(docs.subList(i, Math.min(docs.size(), i + 1000)));
    }
  }

  private static CliRun exportWithSchema(
      MongoServer server, MongoDatabase db, String coll, Path out, String schema, String... more) {
    List<String> args = new ArrayList<>(List.of("--schema", schema, "--compress", "gzip"));
    args.addAll(List.of(more));
    return ExportCommandIT.export(server, db, coll, out, args.toArray(String[]::new));
  }

  /** The path of the first array where the emoji schema has one value, or null. */
  private static String arrayWhereOneValue(BsonDocument e) {
    if (e.containsKey("emoticon") && e.get("emoticon").isArray()) {
      return "emoticon";
    }
    if (e.containsKey("skins")) {
      var skins = e.getArray("skins");
      for (int i = 0; i < skins.size(); i++) {
        BsonValue tone = skins.get(i).asDocument().get("tone");
        if (tone != null && tone.isArray()) {
          return "skins[" + i + "].tone";
        }
      }
    }
    return null;
  }

  /** The document as its record holds it: {@code _id} under the field's own name. */
  private static BsonDocument renamed(BsonDocument doc, String idField) {
    BsonDocument r = new BsonDocument();
    doc.forEach((k, v) -> r.append(k.equals("_id") ? idField : k, v));
    return r;
  }

  private static Object normalized(BsonDocument doc) {
    return normalized(JSON.readTree(doc.toJson(RELAXED)));
  }

  /**
   * A JSON value compared by meaning under the mapping rules: null is absent, numbers by value (an
   * int32 read into a double is the same number), key order ignored.
   */
  private static Object normalized(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> m = new java.util.TreeMap<>();
      for (var e : node.properties()) {
        if (!e.getValue().isNull()) {
          m.put(e.getKey(), normalized(e.getValue()));
        }
      }
      return m;
    }
    if (node.isArray()) {
      List<Object> l = new ArrayList<>();
      node.forEach(n -> l.add(normalized(n)));
      return l;
    }
    if (node.isNumber()) {
      BigDecimal d = node.decimalValue().stripTrailingZeros();
      return d.signum() == 0 ? BigDecimal.ZERO : d;
    }
    return node.isString() ? node.asString() : node.toString();
  }

  /** The records of a shard as {@code flatc --json} reads them, with every default written out. */
  static List<Object> flatcRecords(Path export, String fbs, String shard, String records)
      throws Exception {
    JsonNode root =
        SchemaFixtures.flatcJson(export.resolve(fbs), export.resolve(shard), "--defaults-json");
    @SuppressWarnings("unchecked")
    List<Object> list = (List<Object>) normalized(root.get(records));
    return list;
  }
}
