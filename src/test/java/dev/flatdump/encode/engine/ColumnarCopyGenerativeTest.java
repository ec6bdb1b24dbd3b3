package dev.flatdump.encode.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.columnar.ColumnarCopy;
import dev.flatdump.encode.engine.RandomSchemas.Schema;
import dev.flatdump.encode.plan.FlatcRunner;
import dev.flatdump.encode.plan.SchemaPlan;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every shard the engine writes for random schemas and documents, rejects among them, comes back
 * byte for byte from its columnar copy: with and without de-dup, strict and not, shards cut small
 * and built in the buffer of the shard before (as an export builds them).
 */
class ColumnarCopyGenerativeTest {

  private static final long FIRST_SEED = 5_000;

  @TempDir Path dir;

  @Test
  void everyShardOfRandomSchemasRebuildsFromItsColumnarCopy() throws Exception {
    int schemas = Integer.getInteger("columnar.schemas", 120);
    int docs = Integer.getInteger("columnar.docs", 200);
    Long one = Long.getLong("columnar.seed");
    List<String> failures = new ArrayList<>();
    int shards = 0;
    long rejected = 0;
    long from = one == null ? FIRST_SEED : one;
    long to = one == null ? FIRST_SEED + schemas : one + 1;
    for (long seed = from; seed < to; seed++) {
      Schema s = RandomSchemas.generate(seed);
      Path fbs = Files.createDirectories(dir.resolve("s" + seed)).resolve("schema.fbs");
      Files.writeString(fbs, s.text);
      SchemaPlan plan;
      byte[] bfbs;
      try {
        plan = SchemaPlan.load(fbs);
        bfbs = FlatcRunner.compile(fbs);
      } catch (RuntimeException e) {
        continue; // GenerativeEngineTest reports schemas that do not load
      }
      RandomDocuments generator = new RandomDocuments(s, seed * 7919);
      List<byte[]> documents = new ArrayList<>();
      for (int i = 0; i < docs; i++) {
        documents.add(generator.next(i));
      }
      for (Sharing.Kinds kinds : List.of(Sharing.Kinds.ALL, Sharing.Kinds.NONE)) {
        for (boolean strict : new boolean[] {false, true}) {
          ShardBuilder builder = new ShardBuilder(plan, kinds, strict, 1024, 4096);
          int perShard = 1 + (int) (seed % 70);
          for (int i = 0; i < documents.size(); i++) {
            byte[] doc = documents.get(i);
            try {
              builder.add(doc, 0, doc.length);
            } catch (RejectedRecord r) {
              rejected++;
            }
            if ((i + 1) % perShard == 0 || i == documents.size() - 1) {
              ByteBuffer finished = builder.finish();
              byte[] shard = new byte[finished.remaining()];
              finished.duplicate().get(shard);
              shards++;
              String where =
                  "seed=" + seed + " " + kinds + " strict=" + strict + " shard ending doc#" + i;
              try {
                byte[] copy = ColumnarCopy.write(shard, bfbs, 3);
                byte[] back = ColumnarCopy.rebuild(copy, bfbs);
                if (!Arrays.equals(back, shard)) {
                  failures.add(where + ": rebuilt other bytes");
                }
                damage(copy, bfbs, shard, new java.util.Random(seed * 31 + i), where, failures);
              } catch (RuntimeException e) {
                failures.add(where + ": " + e);
              }
            }
          }
        }
      }
    }
    System.out.println(
        shards
            + " shards of "
            + (to - from)
            + " schemas, "
            + rejected
            + " rejects: "
            + failures.size()
            + " failures");
    assertThat(rejected).as("the documents include rejects").isGreaterThan(0);
    assertThat(damaged).as("damaged copies tried").isGreaterThan(0);
    assertThat(failures)
        .as(() -> String.join("\n", failures.subList(0, Math.min(20, failures.size()))))
        .isEmpty();
  }

  private long damaged;

  /**
   * A copy with a byte changed either rebuilds the very shard (a byte that did not matter) or is
   * refused with a {@link dev.flatdump.columnar.ColumnarException}: never other bytes, never
   * another exception.
   */
  private void damage(
      byte[] copy,
      byte[] bfbs,
      byte[] shard,
      java.util.Random random,
      String where,
      List<String> failures) {
    for (int k = 0; k < 4; k++) {
      byte[] bad = copy.clone();
      int at = random.nextInt(bad.length);
      bad[at] ^= (byte) (1 + random.nextInt(255));
      damaged++;
      try {
        byte[] back = ColumnarCopy.rebuild(bad, bfbs);
        if (!Arrays.equals(back, shard)) {
          failures.add(where + ": a copy damaged at byte " + at + " rebuilt other bytes");
        }
      } catch (dev.flatdump.columnar.ColumnarException expected) {
        // refused
      } catch (RuntimeException | OutOfMemoryError e) {
        failures.add(where + ": a copy damaged at byte " + at + " threw " + e);
      }
    }
  }
}
