package dev.flatdump.encode.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.artifact.check.SchemaExportVerifier;
import dev.flatdump.artifact.check.SchemaVerifier;
import dev.flatdump.artifact.read.RecordJson;
import dev.flatdump.artifact.write.RejectsWriter;
import dev.flatdump.encode.Reject;
import dev.flatdump.encode.engine.MappingOracle.Verdict;
import dev.flatdump.encode.engine.RandomSchemas.Schema;
import dev.flatdump.encode.plan.SchemaException;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.reader.BinarySchema;
import dev.flatdump.reader.GenericRecords;
import dev.flatdump.reader.StructureCheck;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.bson.BsonDocument;
import org.bson.BsonNull;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A generative differential test of the schema engine: random schemas ({@link RandomSchemas}),
 * random documents for each ({@link RandomDocuments}), and three answers that must agree on every
 * document: the engine with every fast path and all sharing on, the engine with every fast path and
 * sharing off, and {@link MappingOracle}, written from {@code docs/mapping.md} alone. Accepted
 * records are read back by flatc ({@link FlatcJson}) and bit for bit ({@link BufferRecords}); the
 * shards pass {@link SchemaVerifier} and {@link SchemaExportVerifier}; with sharing off, the fast
 * and the slow paths write the same bytes. Strict and not.
 *
 * <p>CI size (200 schemas x 300 documents): {@code ./mvnw -B -ntp -o -q test
 * -Dtest=GenerativeEngineTest -Dsurefire.failIfNoSpecifiedTests=false}. A soak of random seeds
 * until the time is up: add {@code -Dgenerative.minutes=30} (the whole soak again: {@code
 * -Dgenerative.soakSeed=N}, as it prints). Replay one schema seed from a failure: {@code
 * -Dgenerative.seed=N}. Sizes: {@code -Dgenerative.schemas=}, {@code -Dgenerative.docs=}. The
 * oracle's verdicts by reason: {@code -Dgenerative.stats=true}.
 */
class GenerativeEngineTest {

  private static final long FIRST_SEED = 1_000;

  @TempDir Path dir;

  /** The binary schema of the schema being run, through which {@code verify} reads records. */
  private ByteBuffer binarySchema;

  /** One thing found wrong, with what replays it. */
  record Failure(String kind, long seed, boolean strict, int doc, String message) {
    @Override
    public String toString() {
      return "["
          + kind
          + "] seed="
          + seed
          + " strict="
          + strict
          + (doc >= 0 ? " doc#" + doc : "")
          + " (replay: -Dgenerative.seed="
          + seed
          + ")\n"
          + message;
    }
  }

  /** What one encoder made of the documents. */
  private record Run(
      List<String> verdicts, List<Integer> accepted, ByteBuffer buffer, String crash) {}

  private final List<Failure> failures = new ArrayList<>();
  private final Map<Long, String> schemaTexts = new TreeMap<>();

  /** With {@code -Dgenerative.stats=true}: the oracle's verdicts by reason, to see what runs. */
  private final Map<String, Integer> stats = new TreeMap<>();

  @Test
  void engineFollowsTheMappingRulesOnRandomSchemas() throws Exception {
    int docs = Integer.getInteger("generative.docs", 300);
    Long one = Long.getLong("generative.seed");
    int minutes = Integer.getInteger("generative.minutes", 0);
    int schemas = 0;
    if (one != null) {
      runSchema(one, docs);
      schemas = 1;
    } else if (minutes > 0) {
      long until = System.nanoTime() + minutes * 60_000_000_000L;
      long soak = Long.getLong("generative.soakSeed", System.nanoTime());
      System.out.println("soak -Dgenerative.soakSeed=" + soak + " (its schema seeds follow)");
      Random seeds = new Random(soak);
      while (System.nanoTime() < until) {
        runSchema(seeds.nextLong() & Long.MAX_VALUE, docs);
        schemas++;
      }
    } else {
      schemas = Integer.getInteger("generative.schemas", 200);
      for (long seed = FIRST_SEED; seed < FIRST_SEED + schemas; seed++) {
        runSchema(seed, docs);
      }
    }
    System.out.println(
        schemas
            + " schemas x "
            + docs
            + " documents, strict and not: "
            + failures.size()
            + " failures"
            + (stats.isEmpty()
                ? ""
                : "\n"
                    + String.join("\n", stats.entrySet().stream().map(Object::toString).toList())));
    String dump = System.getProperty("generative.dump");
    if (dump != null) {
      StringBuilder all = new StringBuilder();
      for (Failure f : failures) {
        all.append(f).append("\n\n");
      }
      for (Map.Entry<Long, String> e : schemaTexts.entrySet()) {
        all.append("=== schema seed=").append(e.getKey()).append("\n").append(e.getValue());
      }
      Files.writeString(Path.of(dump), all);
    }
    assertThat(failures).as(() -> report(failures)).isEmpty();
  }

  private static String report(List<Failure> failures) {
    Map<String, Integer> kinds = new TreeMap<>();
    for (Failure f : failures) {
      kinds.merge(f.kind(), 1, Integer::sum);
    }
    StringBuilder b = new StringBuilder(failures.size() + " failures by kind: " + kinds + "\n");
    Map<String, Integer> shown = new TreeMap<>();
    for (Failure f : failures) {
      if (shown.merge(f.kind(), 1, Integer::sum) <= 3) {
        b.append("\n").append(f).append("\n");
      }
    }
    return b.toString();
  }

  private void fail(String kind, long seed, boolean strict, int doc, String message) {
    schemaTexts.computeIfAbsent(seed, k -> RandomSchemas.generate(k).text);
    failures.add(new Failure(kind, seed, strict, doc, message));
  }

  private void runSchema(long seed, int count) throws Exception {
    Schema s = RandomSchemas.generate(seed);
    Path d = Files.createDirectories(dir.resolve("s" + seed));
    Path fbs = d.resolve("schema.fbs");
    Files.writeString(fbs, s.text);
    if (s.refusedText != null) {
      Path refused = d.resolve("refused.fbs");
      Files.writeString(refused, s.refusedText);
      try {
        SchemaPlan.load(refused);
        fail("refused default loaded", seed, false, -1, s.refusedText);
      } catch (SchemaException expected) {
        // flatc 2.0.8's binary schema loses it: flatdump refuses the schema
      }
    }
    SchemaPlan plan;
    try {
      plan = SchemaPlan.load(fbs);
      binarySchema = ByteBuffer.wrap(dev.flatdump.encode.plan.FlatcRunner.compile(fbs));
    } catch (RuntimeException e) {
      fail("schema not loaded", seed, false, -1, e + "\n" + s.text);
      return;
    }
    RandomDocuments generator = new RandomDocuments(s, seed * 7919);
    List<byte[]> docs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      docs.add(generator.next(i));
    }
    List<Path> shards = new ArrayList<>();
    List<List<Verdict>> expected = new ArrayList<>();
    List<Run> runs = new ArrayList<>();
    for (boolean strict : new boolean[] {false, true}) {
      MappingOracle oracle = new MappingOracle(s, strict);
      List<Verdict> verdicts = new ArrayList<>();
      for (byte[] doc : docs) {
        Verdict v = oracle.map(doc);
        verdicts.add(v);
        if (Boolean.getBoolean("generative.stats")) {
          String why = v.accepted() ? "accept" : v.why().replaceAll("[-0-9.]+|'.*'|\\(.*\\)", "#");
          stats.merge((s.shapes ? "shapes: " : "plain: ") + why, 1, Integer::sum);
        }
      }
      Run fast = encode(plan, docs, Sharing.Kinds.ALL, strict, true);
      Run slow = encode(plan, docs, Sharing.Kinds.NONE, strict, false);
      Run fastPlain = encode(plan, docs, Sharing.Kinds.NONE, strict, true);
      compareRuns(plan, s, seed, strict, docs, verdicts, fast, slow, fastPlain);
      if (fast.crash == null) {
        Path shard = d.resolve((strict ? "strict" : "lenient") + ".fb");
        write(shard, fast.buffer);
        shards.add(shard);
        expected.add(verdicts);
        runs.add(fast);
        verifyShard(plan, s, seed, strict, docs, fast, d);
      }
    }
    if (shards.isEmpty()) {
      return;
    }
    List<JsonNode> roots = FlatcJson.decode(fbs, d, shards);
    for (int m = 0; m < roots.size(); m++) {
      boolean strict = shards.get(m).getFileName().toString().startsWith("strict");
      List<JsonNode> records = FlatcJson.records(roots.get(m), s.records.name);
      Run run = runs.get(m);
      if (records.size() != run.accepted.size()) {
        fail("flatc record count", seed, strict, -1, records.size() + " != " + run.accepted.size());
        continue;
      }
      for (int j = 0; j < records.size(); j++) {
        int i = run.accepted.get(j);
        Verdict v = expected.get(m).get(i);
        if (!v.accepted()) {
          continue; // reported already
        }
        String diff = FlatcJson.diff(v.record(), records.get(j), "");
        if (diff != null) {
          JsonNode got = records.get(j);
          String rules =
              relaxedRules(s, strict, docs.get(i), o -> FlatcJson.diff(o, got, "") == null);
          fail("flatc value" + rules, seed, strict, i, diff + "\n" + describe(s, docs.get(i)));
        }
      }
    }
  }

  private Run encode(
      SchemaPlan plan, List<byte[]> docs, Sharing.Kinds kinds, boolean strict, boolean fast) {
    Sharing sharing = new Sharing(plan, kinds);
    RecordEncoder encoder = new RecordEncoder(plan, sharing, strict, fast, fast, fast);
    FlatBufferBuilder builder = new FlatBufferBuilder(1024);
    List<String> verdicts = new ArrayList<>();
    List<Integer> accepted = new ArrayList<>();
    int[] records = new int[docs.size()];
    for (int i = 0; i < docs.size(); i++) {
      byte[] doc = docs.get(i);
      try {
        records[accepted.size()] = encoder.encode(builder, doc, 0, doc.length);
        accepted.add(i);
        verdicts.add("accept");
      } catch (RejectedRecord r) {
        verdicts.add("reject " + r.path() + ": " + r.reason());
      } catch (RuntimeException | AssertionError e) {
        StackTraceElement[] trace = e.getStackTrace();
        String crash =
            "crash "
                + e
                + (trace.length > 0
                    ? " at " + trace[0]
                    : " (no stack trace: replay with -DargLine=-XX:-OmitStackTraceInFastThrow)");
        verdicts.add(crash);
        return new Run(verdicts, accepted, null, crash + " on doc#" + i);
      }
    }
    RecordsRoot.finish(builder, plan, records, accepted.size());
    return new Run(verdicts, accepted, builder.dataBuffer(), null);
  }

  private void compareRuns(
      SchemaPlan plan,
      Schema s,
      long seed,
      boolean strict,
      List<byte[]> docs,
      List<Verdict> verdicts,
      Run fast,
      Run slow,
      Run fastPlain) {
    for (Run r : List.of(fast, slow, fastPlain)) {
      if (r.crash != null) {
        int i = r.verdicts.size() - 1;
        fail(
            "engine crash"
                + (r == slow ? " (slow)" : " (fast)")
                + (r.crash.contains("ArrayIndexOutOfBoundsException")
                        && (r.crash.contains("RecordEncoder.leafTable")
                            || r.crash.contains("no stack trace"))
                    ? " / (f) leaf table at two depths"
                    : ""),
            seed,
            strict,
            i,
            r.crash + "\n" + describe(s, docs.get(i)) + "\nschema:\n" + s.text);
      }
    }
    int n =
        Math.min(fast.verdicts.size(), Math.min(slow.verdicts.size(), fastPlain.verdicts.size()));
    int shown = 0;
    for (int i = 0; i < n; i++) {
      String a = fast.verdicts.get(i);
      String b = slow.verdicts.get(i);
      String c = fastPlain.verdicts.get(i);
      if (!a.equals(b) || !c.equals(b)) {
        if ((a + c).contains("crash")) {
          continue; // reported as a crash
        }
        fail(
            "fast and slow verdicts differ",
            seed,
            strict,
            i,
            "fast+sharing: "
                + a
                + "\nslow: "
                + b
                + "\nfast: "
                + c
                + "\n"
                + describe(s, docs.get(i)));
        continue;
      }
      if (b.startsWith("crash")) {
        continue;
      }
      Verdict v = verdicts.get(i);
      if (v.accepted() != b.equals("accept")) {
        if (shown++ < 50) {
          fail(
              (v.accepted() ? "oracle accepts, engine rejects" : "oracle rejects, engine accepts")
                  + hint(s, v, b),
              seed,
              strict,
              i,
              "oracle: " + v + "\nengine: " + b + "\n" + describe(s, docs.get(i)));
        }
      } else if (!v.accepted()) {
        String path =
            b.substring(
                "reject ".length(),
                b.indexOf(": ", "reject ".length()) < 0
                    ? b.length()
                    : b.indexOf(": ", "reject ".length()));
        if (!path.equals(v.path()) && !path.equals(v.altPath())) {
          fail(
              "reject path differs" + hint(s, v, b),
              seed,
              strict,
              i,
              "oracle: " + v + "\nengine: " + b + "\n" + describe(s, docs.get(i)));
        }
      }
    }
    if (slow.crash == null
        && fastPlain.crash == null
        && !sameBytes(s, slow.buffer, fastPlain.buffer)) {
      // the shortest run of documents whose bytes differ: its last document makes the difference
      int lo = 1;
      int hi = docs.size();
      while (lo < hi) {
        int mid = (lo + hi) / 2;
        List<byte[]> prefix = docs.subList(0, mid);
        Run a = encode(plan, prefix, Sharing.Kinds.NONE, strict, false);
        Run b = encode(plan, prefix, Sharing.Kinds.NONE, strict, true);
        if (sameBytes(s, a.buffer, b.buffer)) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      fail(
          "fast and slow bytes differ",
          seed,
          strict,
          lo - 1,
          "sharing off in both; the first "
              + lo
              + " documents differ, the last: "
              + slow.verdicts.get(lo - 1)
              + "\n"
              + describe(s, docs.get(lo - 1)));
    }
    for (Run r : List.of(fast, slow)) {
      if (r.crash != null) {
        continue;
      }
      List<Map<String, Object>> read = new BufferRecords(s, r.buffer).records();
      if (read.size() != r.accepted.size()) {
        fail("buffer record count", seed, strict, -1, read.size() + " != " + r.accepted.size());
        continue;
      }
      for (int j = 0; j < read.size(); j++) {
        int i = r.accepted.get(j);
        Verdict v = verdicts.get(i);
        if (v.accepted() && !v.record().equals(read.get(j))) {
          Map<String, Object> got = read.get(j);
          String rules = relaxedRules(s, strict, docs.get(i), o -> o.equals(got));
          fail(
              "buffer value" + (r == fast ? " (fast+sharing)" : " (slow)") + rules,
              seed,
              strict,
              i,
              "oracle: "
                  + v.record()
                  + "\nbuffer: "
                  + read.get(j)
                  + "\n"
                  + describe(s, docs.get(i)));
        }
      }
    }
  }

  /**
   * Whether two shards hold the same bytes: all of them with {@code -Dgenerative.exactRoot=true};
   * else from the records vector to the end, for {@code TablePuts} (the fast path) keeps its
   * vtables apart from those {@code endTable} writes, so the root table may get a vtable of its own
   * where the slow path shares a record's (documented in {@code TablePuts}).
   */
  private static boolean sameBytes(Schema s, ByteBuffer a, ByteBuffer b) {
    if (Boolean.getBoolean("generative.exactRoot")) {
      return a.equals(b);
    }
    return recordsOn(s, a).equals(recordsOn(s, b));
  }

  /** The buffer from its records vector on. */
  private static ByteBuffer recordsOn(Schema s, ByteBuffer buffer) {
    ByteBuffer b = buffer.duplicate().order(java.nio.ByteOrder.LITTLE_ENDIAN);
    int base = b.position();
    int root = base + b.getInt(base);
    int vt = root - b.getInt(root);
    int slot = 4 + 2 * s.records.id;
    int o = slot < (b.getShort(vt) & 0xffff) ? b.getShort(vt + slot) & 0xffff : 0;
    if (o == 0) {
      return b;
    }
    int vector = root + o + b.getInt(root + o);
    b.position(vector);
    return b.slice();
  }

  private void verifyShard(
      SchemaPlan plan, Schema s, long seed, boolean strict, List<byte[]> docs, Run run, Path d)
      throws IOException {
    SchemaVerifier.Result checked = SchemaVerifier.verify(plan, run.buffer.duplicate());
    // the reader library's own check, from the binary schema alone, agrees
    String structure =
        new StructureCheck(BinarySchema.read(binarySchema)).check(run.buffer.duplicate());
    if (structure != null) {
      fail("the reader's StructureCheck", seed, strict, -1, structure + "\nschema:\n" + s.text);
    } else if (checked.valid()) {
      // and its generic records, from the binary schema alone, read what the app's plan reads
      GenericRecords generic = GenericRecords.withDefaults(BinarySchema.read(binarySchema));
      RecordJson app = RecordJson.withDefaults(plan);
      ByteBuffer shard = run.buffer.slice().order(java.nio.ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < app.count(shard); i++) {
        String ours = generic.json(shard, i);
        String expected = app.record(shard, i);
        if (!ours.equals(expected)) {
          fail(
              "the reader's GenericRecords",
              seed,
              strict,
              i,
              ours + "\nexpected " + expected + "\nschema:\n" + s.text);
          break;
        }
      }
    }
    if (!checked.valid()) {
      boolean othersFound =
          failures.stream().anyMatch(f -> f.seed() == seed && f.strict() == strict);
      fail(
          "SchemaVerifier"
              + (othersFound ? " (after engine failures)" : " (engine agreed with the oracle)"),
          seed,
          strict,
          -1,
          checked.error() + "\nschema:\n" + s.text);
    }
    Path rejectsDir = Files.createDirectories(d.resolve(strict ? "rejects-strict" : "rejects"));
    List<BsonDocument> source = new ArrayList<>();
    try (RejectsWriter rejects = new RejectsWriter(rejectsDir, 0, 0)) {
      for (int i = 0; i < docs.size(); i++) {
        RawBsonDocument raw = new RawBsonDocument(docs.get(i));
        BsonValue id;
        try {
          id = raw.get("_id");
        } catch (RuntimeException undecodable) {
          continue; // no source could hand this _id over
        }
        source.add(raw);
        String verdict = run.verdicts.get(i);
        if (!verdict.equals("accept")) {
          int colon = verdict.indexOf(": ", 7);
          rejects.write(
              new Reject(
                  id == null ? BsonNull.VALUE : id,
                  verdict.substring(7, colon),
                  verdict.substring(colon + 2)));
        }
      }
    }
    SchemaExportVerifier.Result verified;
    try {
      verified =
          new SchemaExportVerifier(plan, binarySchema, strict, 5)
              .verify(
                  source.iterator(),
                  List.of(run.buffer.duplicate()),
                  rejectsDir.resolve(RejectsWriter.FILE_NAME));
    } catch (RuntimeException e) {
      fail("SchemaExportVerifier crash", seed, strict, -1, e.toString());
      return;
    }
    if (!verified.clean()) {
      boolean othersFound =
          failures.stream().anyMatch(f -> f.seed() == seed && f.strict() == strict);
      fail(
          "SchemaExportVerifier"
              + (othersFound ? " (after engine failures)" : " (engine agreed with the oracle)"),
          seed,
          strict,
          -1,
          verified.totalDifferences() + " differences, e.g. " + verified.differences());
    }
  }

  /**
   * Which rules of this round, left out of the oracle, make it give what the engine wrote: {@code "
   * / (g)"}, or empty when none do.
   */
  private static String relaxedRules(
      Schema s,
      boolean strict,
      byte[] doc,
      java.util.function.Predicate<Map<String, Object>> fits) {
    List<Set<MappingOracle.Relaxation>> tries =
        List.of(
            Set.of(MappingOracle.Relaxation.G_UNSORTED_KEYS),
            Set.of(MappingOracle.Relaxation.C_OLD_BINARY_WITH_LENGTH),
            EnumSet.allOf(MappingOracle.Relaxation.class));
    for (Set<MappingOracle.Relaxation> t : tries) {
      Verdict v = new MappingOracle(s, strict, t).map(doc);
      if (v.accepted() && fits.test(v.record())) {
        return " / rules "
            + t.stream().map(x -> x.name().substring(0, 1).toLowerCase()).sorted().toList();
      }
    }
    return "";
  }

  /** Which of the rules decided for this round a disagreement looks like, if any. */
  private static String hint(Schema s, Verdict oracle, String engine) {
    if (oracle.accepted()) {
      return "";
    }
    String why = oracle.why();
    String p = oracle.path();
    if (why.contains("appears twice")) {
      return " / (a) field given twice";
    }
    if (p.equals("_id")) {
      return " / (d) _id malformed";
    }
    if (why.startsWith("expected an array, got BINARY")
        || why.startsWith("expected an array, got OBJECT_ID")) {
      return " / (b) binary or ObjectId into an enum vector";
    }
    if (why.contains("--strict") && engine.equals("accept")) {
      return " / (h) strict: unknown field in a struct";
    }
    if (why.equals("a double into an enum")) {
      return " / integral double into an enum";
    }
    return "";
  }

  private static void write(Path file, ByteBuffer buffer) throws IOException {
    ByteBuffer b = buffer.duplicate();
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    Files.write(file, bytes);
  }

  /** A document as relaxed JSON when the driver can print it, with its bytes. */
  static String describe(Schema s, byte[] doc) {
    String json;
    try {
      json = new RawBsonDocument(doc).toJson();
    } catch (RuntimeException e) {
      json = "(the driver cannot print it: " + e.getMessage() + ")";
    }
    return "document: " + json + "\nbytes: " + HexFormat.of().formatHex(doc);
  }
}
