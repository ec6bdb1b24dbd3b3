package dev.flatdump.artifact.write;

import dev.flatdump.FlatdumpException;
import dev.flatdump.artifact.AtomicFiles;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.ShardFile;
import dev.flatdump.encode.Reject;
import dev.flatdump.encode.engine.RejectedRecord;
import dev.flatdump.encode.engine.ShardBuilder;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.source.RawDocument;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.bson.BsonValue;

/**
 * Streams BSON documents into FlatBuffers shards of any schema with the schema-driven engine: each
 * document becomes one element of the root table's records vector, in the order given. A shard is
 * finished (root table, file identifier, written atomically) once it would pass {@code
 * shardSizeBytes}; what it shares lives and dies with it. A document that does not fit is not
 * exported: {@link #add} returns its {@link Reject}, and whatever was written for it is rolled
 * back, so that a shard's bytes follow from its records alone.
 *
 * <p>Not thread-safe. Shard files are named {@code BASE-00000.fb}, {@code BASE-00001.fb}, ...
 */
public final class SchemaShardWriter {

  /** The largest shard size: FlatBufferBuilder cannot grow past 2 GiB and grows by doubling. */
  public static final long MAX_SHARD_SIZE = 1L << 30;

  /** The smallest shard size. */
  public static final long MIN_SHARD_SIZE = 1024;

  /**
   * Checks a shard size: {@value #MIN_SHARD_SIZE}..{@value #MAX_SHARD_SIZE} bytes.
   *
   * @throws IllegalArgumentException naming it, when out of range
   */
  public static void requireShardSize(long shardSizeBytes) {
    if (shardSizeBytes < MIN_SHARD_SIZE || shardSizeBytes > MAX_SHARD_SIZE) {
      throw new IllegalArgumentException(
          "shard size must be "
              + MIN_SHARD_SIZE
              + ".."
              + MAX_SHARD_SIZE
              + " bytes, got "
              + shardSizeBytes);
    }
  }

  /**
   * Where a shard's buffer stops doubling: the shard size + 1 MiB, so that a shard finished near
   * its size needs no buffer of twice that.
   */
  public static int bufferCap(long shardSizeBytes) {
    return (int) (shardSizeBytes + (1 << 20));
  }

  /**
   * The first buffer a shard gets for a wish of {@code initialCapacity}: a quarter of the cap at
   * most.
   */
  public static int firstBuffer(long shardSizeBytes, int initialCapacity) {
    return Math.max(1024, Math.min(initialCapacity, bufferCap(shardSizeBytes) / 4));
  }

  /**
   * A first buffer pre-sized from the collection's BSON size, which de-duplicated FlatBuffers come
   * to a small fraction of: a tenth of it, at least 1 MiB and at most one shard; the builder
   * doubles if that is not enough. An over-sized buffer is heap held for nothing, an under-sized
   * one costs a copy or two.
   */
  public static int firstBufferFor(long collectionBytes, long shardSizeBytes) {
    long guess = Math.max(1L << 20, collectionBytes / 10);
    return (int) Math.min(guess, shardSizeBytes);
  }

  /** What became of one document. */
  public sealed interface Outcome {
    /** Exported; {@code shardDone} when it completed a shard, which is now durable. */
    record Exported(boolean shardDone) implements Outcome {}

    /** Not exported, and why: the line for {@code rejects.jsonl}. */
    record Rejected(Reject reject) implements Outcome {}
  }

  private static final Outcome SAME_SHARD = new Outcome.Exported(false);
  private static final Outcome SHARD_DONE = new Outcome.Exported(true);

  private final Path dir;
  private final String baseName;
  private final ShardBuilder shard;
  private final long shardSizeBytes;
  private final List<ShardFile> shards;

  /**
   * @param dir where shards are written
   * @param baseName the shards' file name before {@code -00000.fb}
   * @param kinds what to share within each shard
   * @param strict whether a BSON field the schema does not name rejects its document
   * @param shardSizeBytes finish a shard once it would pass this size, 1 KiB..1 GiB
   * @param completed shards already written by an interrupted run
   * @param initialCapacity each shard's first buffer size in bytes (pre-size it from the
   *     collection's figures: a buffer that doubles copies itself each time); at most a quarter of
   *     the shard size + 1 MiB is taken
   */
  public SchemaShardWriter(
      Path dir,
      String baseName,
      SchemaPlan plan,
      Sharing.Kinds kinds,
      boolean strict,
      long shardSizeBytes,
      List<ShardFile> completed,
      int initialCapacity) {
    this.dir = Objects.requireNonNull(dir, "dir");
    this.baseName = Objects.requireNonNull(baseName, "baseName");
    Objects.requireNonNull(plan, "plan");
    requireShardSize(shardSizeBytes);
    this.shardSizeBytes = shardSizeBytes;
    this.shard =
        new ShardBuilder(
            plan,
            kinds,
            strict,
            firstBuffer(shardSizeBytes, initialCapacity),
            bufferCap(shardSizeBytes));
    this.shards = new ArrayList<>(completed);
  }

  /** Adds one document read from the collection; its bytes are not kept. */
  public Outcome add(RawDocument document) {
    if (document.id() == null) {
      String problem = document.idProblem();
      return new Outcome.Rejected(new Reject(null, "_id", problem == null ? "missing" : problem));
    }
    ByteBuffer b = document.bson().getByteBuffer().asNIO();
    return add(document.id(), b.array(), b.arrayOffset() + b.position(), b.remaining());
  }

  /**
   * Adds the document {@code doc[offset, offset + length)}, whose {@code _id} is {@code id} (null
   * when it has none).
   */
  public Outcome add(BsonValue id, byte[] doc, int offset, int length) {
    try {
      shard.add(doc, offset, length);
    } catch (RejectedRecord e) {
      return new Outcome.Rejected(new Reject(id, e.path(), e.reason()));
    } catch (AssertionError e) {
      // FlatBufferBuilder signals a buffer past 2 GiB with an AssertionError: never let it escape
      throw new FlatdumpException("FlatBuffers refused the shard: " + e.getMessage(), e);
    }
    if (shard.reached(shardSizeBytes)) {
      finishShard();
      return SHARD_DONE;
    }
    return SAME_SHARD;
  }

  /** Finishes the open shard; writes an empty one if there is no shard at all. */
  public void finish() {
    if (shard.open() || shards.isEmpty()) {
      finishShard();
    }
  }

  private void finishShard() {
    int count = shard.records();
    ByteBuffer data = shard.finish();
    String name = ShardFile.stagingName(baseName, shards.size());
    Path file = dir.resolve(name);
    AtomicFiles.write(file, data);
    shards.add(
        new ShardFile(
            shards.size(), name, count, data.remaining(), Checksums.sha256(data.duplicate())));
  }

  /** The shards completed so far, in order. */
  public List<ShardFile> shards() {
    return List.copyOf(shards);
  }

  /** What was shared, per kind and table type, over every shard of this writer. */
  public List<Sharing.Count> counts() {
    return shard.counts();
  }

  /** Unknown BSON fields, by path, with how many documents had each. */
  public Map<String, Long> unknownFields() {
    return shard.unknownFields();
  }
}
