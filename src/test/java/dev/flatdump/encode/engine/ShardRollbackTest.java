package dev.flatdump.encode.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.artifact.check.DedupAudit;
import dev.flatdump.encode.engine.RandomSchemas.Schema;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rejected document leaves nothing in its shard ({@link ShardBuilder#add}): the shards built from
 * a stream with rejects among its documents are, byte for byte, those built from its accepted
 * documents alone, and so are the de-dup counts; with a kind shared, the report's unique objects of
 * that kind are the objects {@code check}'s audit finds.
 *
 * <p>The generated test runs {@link RandomSchemas} and {@link RandomDocuments} (the generators of
 * {@link GenerativeEngineTest}), strict and not, under every {@link Sharing.Kinds}. Before some
 * documents it puts the same document with its fields given twice: rejected once all of its objects
 * are written, each of which the next document repeats. Sizes: {@code -Drollback.schemas=}, {@code
 * -Drollback.docs=}; one schema seed: {@code -Drollback.seed=N}.
 */
class ShardRollbackTest {

  private static final long FIRST_SEED = 5_000;

  /** Accepted documents per shard: a stream spans several, so state crosses shards too. */
  private static final int SHARD_RECORDS = 40;

  @TempDir Path dir;

  private static List<Sharing.Kinds> everyKinds() {
    List<Sharing.Kinds> all = new ArrayList<>();
    for (int k = 0; k < 8; k++) {
      all.add(new Sharing.Kinds((k & 1) != 0, (k & 2) != 0, (k & 4) != 0));
    }
    return all;
  }

  /** What one builder made of a stream. */
  private record Run(
      List<byte[]> shards, List<Sharing.Count> counts, List<byte[]> accepted, int rejected) {}

  /** The documents through one builder, a shard cut every {@value #SHARD_RECORDS} records. */
  private static Run run(SchemaPlan plan, Sharing.Kinds kinds, boolean strict, List<byte[]> docs) {
    // a small first buffer and a cap, so that shards grow, and each is built in the one before
    ShardBuilder builder = new ShardBuilder(plan, kinds, strict, 256, 1 << 16);
    List<byte[]> shards = new ArrayList<>();
    List<byte[]> accepted = new ArrayList<>();
    int rejected = 0;
    for (byte[] d : docs) {
      int before = builder.bytes();
      try {
        builder.add(d, 0, d.length);
      } catch (RejectedRecord r) {
        rejected++;
        assertThat(builder.bytes()).as("bytes after a reject").isEqualTo(before);
        continue;
      }
      accepted.add(d);
      if (accepted.size() % SHARD_RECORDS == 0) {
        shards.add(bytes(builder.finish()));
      }
    }
    shards.add(bytes(builder.finish()));
    return new Run(shards, builder.counts(), accepted, rejected);
  }

  private static byte[] bytes(ByteBuffer finished) {
    byte[] b = new byte[finished.remaining()];
    finished.duplicate().get(b);
    return b;
  }

  /** The document with its fields given twice: {@code {a, b, a, b}}. */
  private static byte[] twice(byte[] doc) {
    int body = doc.length - 5;
    byte[] out = new byte[4 + 2 * body + 1];
    ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(0, out.length);
    System.arraycopy(doc, 4, out, 4, body);
    System.arraycopy(doc, 4, out, 4 + body, body);
    return out;
  }

  @Test
  void rejectedDocumentsLeaveNothingInShardsOfRandomSchemas() throws Exception {
    int schemas = Integer.getInteger("rollback.schemas", 60);
    int count = Integer.getInteger("rollback.docs", 150);
    Long one = Long.getLong("rollback.seed");
    long first = one != null ? one : FIRST_SEED;
    long last = one != null ? one + 1 : FIRST_SEED + schemas;
    List<String> failures = new ArrayList<>();
    long rejects = 0;
    long midway = 0;
    for (long seed = first; seed < last; seed++) {
      Schema s = RandomSchemas.generate(seed);
      Path fbs = Files.createDirectories(dir.resolve("s" + seed)).resolve("schema.fbs");
      Files.writeString(fbs, s.text);
      SchemaPlan plan;
      try {
        plan = SchemaPlan.load(fbs);
      } catch (RuntimeException notLoaded) {
        continue; // GenerativeEngineTest reports it
      }
      RandomDocuments generator = new RandomDocuments(s, seed * 7919);
      Random pick = new Random(seed);
      List<byte[]> docs = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        byte[] d = generator.next(i);
        if (pick.nextInt(4) == 0) {
          docs.add(twice(d));
        }
        docs.add(d);
      }
      for (boolean strict : new boolean[] {false, true}) {
        for (Sharing.Kinds kinds : everyKinds()) {
          String at = "seed=" + seed + " strict=" + strict + " " + kinds + ": ";
          Run all = run(plan, kinds, strict, docs);
          Run alone = run(plan, kinds, strict, all.accepted);
          if (alone.rejected != 0) {
            failures.add(at + alone.rejected + " accepted documents rejected on their own");
            continue;
          }
          String diff = firstDifference(all.shards, alone.shards);
          if (diff != null) {
            failures.add(at + "shards differ from those of the accepted documents: " + diff);
            continue; // they may not even be readable
          }
          if (!all.counts.equals(alone.counts)) {
            failures.add(at + "counts " + all.counts + " != " + alone.counts);
          }
          String audit = auditDifference(plan, kinds, all);
          if (audit != null) {
            failures.add(at + audit);
          }
          if (!strict && kinds.equals(Sharing.Kinds.NONE)) {
            rejects += all.rejected;
            midway += midwayRejects(plan, docs);
          }
        }
      }
    }
    System.out.println(
        "rollback: " + rejects + " rejects, " + midway + " of them after bytes were written");
    assertThat(failures).as(() -> failures.size() + " failures:\n" + join(failures)).isEmpty();
    if (one == null) {
      assertThat(midway).as("rejects after bytes were written").isGreaterThan(schemas * 10L);
    }
  }

  private static String join(List<String> failures) {
    return String.join("\n", failures.subList(0, Math.min(20, failures.size())));
  }

  private static String firstDifference(List<byte[]> a, List<byte[]> b) {
    if (a.size() != b.size()) {
      return a.size() + " shards, not " + b.size();
    }
    for (int i = 0; i < a.size(); i++) {
      int at = Arrays.mismatch(a.get(i), b.get(i));
      if (at >= 0) {
        return "shard "
            + i
            + " ("
            + a.get(i).length
            + " bytes, not "
            + b.get(i).length
            + ") at byte "
            + at;
      }
    }
    return null;
  }

  /**
   * Where a shared kind's unique objects in the report are not the objects the audit finds in the
   * shards, or the audit finds one twice; null when they agree.
   */
  private static String auditDifference(SchemaPlan plan, Sharing.Kinds kinds, Run run) {
    List<DedupAudit.Count> audit = List.of();
    for (byte[] shard : run.shards) {
      audit = DedupAudit.plus(audit, DedupAudit.audit(plan, ByteBuffer.wrap(shard)));
    }
    Map<String, DedupAudit.Count> found = new LinkedHashMap<>();
    audit.forEach(c -> found.put(c.kind(), c));
    for (Sharing.Count c : run.counts) {
      boolean shared =
          c.kind().equals("strings")
              ? kinds.strings()
              : c.kind().equals("vectors") ? kinds.vectors() : kinds.tables();
      if (!shared) {
        continue;
      }
      DedupAudit.Count a = found.getOrDefault(c.kind(), new DedupAudit.Count(c.kind(), 0, 0));
      if (a.objects() != c.unique() || a.duplicates() != 0) {
        return "report " + c + " but the audit finds " + a;
      }
    }
    return null;
  }

  /** How many of the documents an encoder rejects after it wrote bytes for them. */
  private static long midwayRejects(SchemaPlan plan, List<byte[]> docs) {
    long n = 0;
    for (byte[] d : docs) {
      FlatBufferBuilder b = new FlatBufferBuilder(256);
      try {
        new RecordEncoder(plan, false).encode(b, d, 0, d.length);
      } catch (RejectedRecord r) {
        n += b.offset() > 0 ? 1 : 0;
      }
    }
    return n;
  }

  /** The shard of the documents through one builder, and that of its accepted ones alone. */
  private static byte[][] withAndWithout(SchemaPlan plan, Sharing.Kinds kinds, byte[]... docs) {
    Run all = run(plan, kinds, false, List.of(docs));
    Run alone = run(plan, kinds, false, all.accepted);
    assertThat(all.rejected).as("rejected").isPositive();
    assertThat(all.shards).hasSize(1);
    assertThat(all.counts).isEqualTo(alone.counts);
    return new byte[][] {all.shards.get(0), alone.shards.get(0)};
  }

  @Test
  void aRejectedEightByteFieldLeavesAFourAlignedShardAsItWas() throws Exception {
    SchemaFixtures fx =
        new SchemaFixtures(
            dir.resolve("align"),
            """
            table Big { n: long; }
            table R { big: Big; name: string (required); }
            table Root { rs: [R]; }
            root_type Root;
            """);
    boolean unaligned = false;
    for (Sharing.Kinds kinds : List.of(Sharing.Kinds.ALL, Sharing.Kinds.NONE)) {
      for (int n = 1; n <= 8; n++) { // one of the names leaves the shard 4 bytes past 8
        String name = "x".repeat(n);
        byte[][] shards =
            withAndWithout(
                fx.plan,
                kinds,
                SchemaFixtures.bson("{\"name\": \"ab\"}"),
                // Big, and its long, are written before the name rejects the document
                SchemaFixtures.bson("{\"big\": {\"n\": {\"$numberLong\": \"5\"}}, \"name\": 7}"),
                SchemaFixtures.bson("{\"name\": \"" + name + "\"}"));
        unaligned |= shards[1].length % 8 == 4;
        assertThat(shards[0]).as(kinds + " " + name).isEqualTo(shards[1]);
      }
    }
    assertThat(unaligned).as("a shard without the reject not 8-aligned").isTrue();
  }

  @Test
  void aStringOfARejectedDocumentIsWrittenAgainByTheNextThatRepeatsIt() throws Exception {
    SchemaFixtures fx =
        new SchemaFixtures(
            dir.resolve("string"),
            """
            table Child { label: string; }
            table R { name: string; child: Child; n: short; }
            table Root { rs: [R]; }
            root_type Root;
            """);
    byte[] rejected =
        SchemaFixtures.bson(
            "{\"name\": \"repeated\", \"child\": {\"label\": \"inner\"}, \"n\": 70000}");
    byte[] accepted =
        SchemaFixtures.bson(
            "{\"name\": \"repeated\", \"child\": {\"label\": \"inner\"}, \"n\": 1}");
    for (Sharing.Kinds kinds : everyKinds()) {
      byte[][] shards = withAndWithout(fx.plan, kinds, rejected, accepted, accepted);
      assertThat(shards[0]).as(kinds.toString()).isEqualTo(shards[1]);
    }
    ShardBuilder builder = new ShardBuilder(fx.plan, Sharing.Kinds.ALL, false, 1024);
    assertThatThrownBy(() -> builder.add(rejected, 0, rejected.length))
        .isInstanceOf(RejectedRecord.class);
    assertThat(builder.bytes()).isZero();
    builder.add(accepted, 0, accepted.length);
    builder.add(accepted, 0, accepted.length);
    // made once each by the first accepted document; the second finds its name and its Child
    // (by its bytes, so the label inside is not looked up again): the reject counts for nothing
    assertThat(builder.counts())
        .filteredOn(c -> c.kind().equals("strings") || c.kind().equals("Child"))
        .extracting(Sharing.Count::kind, Sharing.Count::total, Sharing.Count::unique)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("strings", 3L, 2L),
            org.assertj.core.groups.Tuple.tuple("Child", 2L, 1L));
  }

  /** Keeps the string {@code text} as written at {@code offset}, or returns where it was found. */
  private static int string(Sharing sharing, String text, int offset) {
    byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Sharing.ContentKey key = sharing.key();
    key.room(b.length);
    key.put(b, 0, b.length);
    int found = sharing.findString();
    if (found == 0) {
      sharing.keepString(offset, 8 + b.length);
    }
    return found;
  }

  @Test
  void sharingForgetsWhatWasKeptSinceTheMarkThroughAGrowthOfItsIndex() {
    Sharing sharing =
        new Sharing(dev.flatdump.artifact.SchemaFiles.bundled().plan(), Sharing.Kinds.ALL);
    for (int i = 0; i < 500; i++) {
      string(sharing, "before-" + i, 4 + i);
    }
    List<Sharing.Count> before = sharing.counts();
    sharing.mark();
    for (int i = 0; i < 3000; i++) { // past the index's first size: it grows and rehashes
      string(sharing, "since-" + i, 10_000 + i);
    }
    assertThat(string(sharing, "before-7", 0)).isEqualTo(11);
    sharing.rollback();

    assertThat(sharing.counts()).isEqualTo(before);
    for (int i = 0; i < 500; i++) {
      assertThat(sharing.peekString(bytes("before-" + i), 0, bytes("before-" + i).length))
          .isEqualTo(4 + i);
    }
    for (int i = 0; i < 3000; i++) {
      assertThat(sharing.peekString(bytes("since-" + i), 0, bytes("since-" + i).length)).isZero();
    }
    assertThat(string(sharing, "since-5", 20_000)).isZero(); // written again, and kept again
    assertThat(string(sharing, "since-5", 0)).isEqualTo(20_000);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void theMemoTakesBackItsKeysAndTheKeysTheyPushedOut() {
    BsonMemo memo = new BsonMemo(4, 16); // two sets of two slots
    byte[] a = bytes("aaaa");
    byte[] b = bytes("bbbb");
    byte[] c = bytes("cccc");
    byte[] d = bytes("dddd");
    memo.keep(a, 0, 4, 0, 100, 8); // one set, by the hash given
    memo.keep(b, 0, 4, 0, 200, 8); // b used last
    memo.save();
    assertThat(memo.find(a, 0, 4, 0)).isEqualTo(100); // a used last
    memo.keep(c, 0, 4, 0, 300, 8); // pushes b out
    memo.keep(a, 0, 4, 0, 400, 8);
    assertThat(memo.find(b, 0, 4, 0)).isZero();
    memo.restore();

    assertThat(memo.find(c, 0, 4, 0)).isZero();
    // b used last again, as at the save: d pushes out a, the slot used less recently then
    memo.keep(d, 0, 4, 0, 500, 8);
    assertThat(memo.find(a, 0, 4, 0)).isZero();
    assertThat(memo.find(b, 0, 4, 0)).isEqualTo(200);
    assertThat(memo.find(d, 0, 4, 0)).isEqualTo(500);
  }
}
