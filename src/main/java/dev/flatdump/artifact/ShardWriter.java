package dev.flatdump.artifact;

import dev.flatdump.Org;
import dev.flatdump.encode.DedupOptions;
import dev.flatdump.encode.DedupStats;
import dev.flatdump.encode.FlatBufferOrgsBuilder;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Writes organizations into FlatBuffers shard files in a staging directory. Each shard is one
 * FlatBuffer built in memory; once the finished shard would be {@code shardSizeBytes} or more
 * (counting the org vector and root that finishing adds) it is finished and written through a
 * FileChannel under its final staging name ({@code organizations-00000.fb}, ...), its SHA-256 taken
 * from memory as it is written ({@link ShardFile#sha256()}). So a buffer of the shard size plus one
 * org's bytes never has to grow: the buffer grows up to the shard size + 1 MiB and not past it
 * (unless one org is larger than 1 MiB).
 *
 * <p>Shard boundaries depend only on the records and the settings, so the same input always gives
 * the same shard files byte for byte: a restart that re-adds the records after the last completed
 * shard reproduces the rest exactly. De-dup maps are per shard: offsets mean nothing outside their
 * buffer.
 *
 * <p>A shard after the first is built in the buffer of the one before, once that is written: a
 * multi-shard export allocates and grows one buffer, not one per shard.
 *
 * <p>Not thread-safe. Holds at most one shard in memory.
 */
public final class ShardWriter {

  /** The largest shard size: FlatBufferBuilder cannot grow past 2 GiB and grows by doubling. */
  public static final long MAX_SHARD_SIZE = 1L << 30;

  public static final String BASE_NAME = "organizations";
  public static final String EXTENSION = ".fb";

  /**
   * The names a shard or one of its compressed copies can have: {@code organizations.fb} or {@code
   * organizations-00000.fb}, plus {@code .gz} or {@code .zst}. Not {@code organizations.fbs}, the
   * schema.
   */
  public static final java.util.regex.Pattern SHARD_OR_COPY = shardOrCopy(BASE_NAME);

  /**
   * The names a shard of base name {@code base} or one of its copies can have: {@code BASE.fb},
   * {@code BASE-00000.fb}, plus {@code .gz} or {@code .zst}.
   */
  public static java.util.regex.Pattern shardOrCopy(String base) {
    return java.util.regex.Pattern.compile(
        java.util.regex.Pattern.quote(base)
            + "(-\\d{5})?"
            + java.util.regex.Pattern.quote(EXTENSION)
            + "(\\.gz|\\.zst)?");
  }

  private final Path dir;
  private final DedupOptions dedup;
  private final long shardSizeBytes;
  private final int initialCapacity;
  private final int capacityCap;
  private final long expectedOrgs;
  private final List<ShardFile> shards;
  private DedupStats stats;
  private FlatBufferOrgsBuilder builder;

  /** The last shard's buffer, written and hashed: the next shard is built in it. */
  private ByteBuffer spare;

  /**
   * @param dir the staging directory, which must exist
   * @param shardSizeBytes finish a shard once it would be this many bytes finished; 1 KiB .. 1 GiB
   * @param initialCapacity each shard's first buffer size in bytes (pre-size from the collection's
   *     figures); at most a quarter of the shard size + 1 MiB is taken
   * @param expectedOrgs how many orgs the whole export will probably write (completed shards
   *     included), from the collection's count; 0 if unknown. Each shard's buffer then grows
   *     straight to the size the orgs left forecast, up to the shard's cap, instead of doubling
   *     ({@link FlatBufferOrgsBuilder#expectOrgs}); the files are the same either way.
   * @param completed shards already written by an earlier, interrupted run (restart), else empty
   * @param statsSoFar de-dup statistics of {@code completed}, or null when there are none
   */
  public ShardWriter(
      Path dir,
      DedupOptions dedup,
      long shardSizeBytes,
      int initialCapacity,
      long expectedOrgs,
      List<ShardFile> completed,
      DedupStats statsSoFar) {
    this.dir = Objects.requireNonNull(dir, "dir");
    this.dedup = Objects.requireNonNull(dedup, "dedup");
    if (shardSizeBytes < 1024 || shardSizeBytes > MAX_SHARD_SIZE) {
      throw new IllegalArgumentException(
          "shard size must be 1024.." + MAX_SHARD_SIZE + " bytes, got " + shardSizeBytes);
    }
    this.shardSizeBytes = shardSizeBytes;
    // A shard finishes within its size plus one org (FlatBufferOrgsBuilder.finishedSizeBound):
    // the buffer grows to that and no further. The first shard starts at a quarter of it at most,
    // so that a small export does not hold a whole shard's buffer; later shards reuse the first's.
    this.capacityCap = (int) (shardSizeBytes + (1 << 20));
    this.initialCapacity = (int) Math.max(1024, Math.min(initialCapacity, capacityCap / 4));
    if (expectedOrgs < 0) {
      throw new IllegalArgumentException("expectedOrgs must be >= 0, got " + expectedOrgs);
    }
    this.expectedOrgs = expectedOrgs;
    this.shards = new ArrayList<>(completed);
    this.stats = statsSoFar == null ? DedupStats.EMPTY : statsSoFar;
  }

  /** The file name of shard {@code index}. */
  public static String shardName(int index) {
    return String.format("%s-%05d%s", BASE_NAME, index, EXTENSION);
  }

  /**
   * Adds one organization.
   *
   * @return true when this record completed a shard, which is now durable under its staging name
   */
  public boolean add(Org org) {
    if (builder == null) {
      builder =
          spare != null
              ? new FlatBufferOrgsBuilder(dedup, spare, capacityCap)
              : new FlatBufferOrgsBuilder(dedup, initialCapacity, capacityCap);
      spare = null;
      builder.expectOrgs(Math.max(0, expectedOrgs - written()));
    }
    builder.add(org);
    if (builder.finishedSizeBound() >= shardSizeBytes) {
      finishShard();
      return true;
    }
    return false;
  }

  /**
   * Finishes the open shard, if any. When no shard exists at all, writes one empty shard so that
   * every export has at least one file.
   */
  public void finish() {
    if (builder != null || shards.isEmpty()) {
      if (builder == null) {
        builder = new FlatBufferOrgsBuilder(dedup, 1024);
      }
      finishShard();
    }
    spare = null; // no shard follows: the job's later steps need the heap more than this buffer
  }

  private void finishShard() {
    int count = builder.count();
    ByteBuffer data = builder.finish();
    String name = shardName(shards.size());
    String sha256 = writeHashing(dir.resolve(name), data);
    shards.add(new ShardFile(shards.size(), name, count, data.remaining(), sha256));
    stats = stats.plus(builder.stats());
    ByteBuffer used = builder.recycle();
    // Past the cap only when one org was larger than it: let that buffer go.
    spare = used.capacity() <= capacityCap ? used : null;
    builder = null;
  }

  /**
   * Writes the shard atomically and returns its SHA-256, taken from memory on a thread of its own
   * while this one copies the bytes to the file and forces them to disk: the manifest's checksum
   * without reading the file back, and mostly in time the write spends waiting for the disk.
   */
  private static String writeHashing(Path file, ByteBuffer data) {
    FutureTask<String> sha256 = new FutureTask<>(() -> Checksums.sha256(data));
    Thread hashing = new Thread(sha256, "flatdump-shard-sha256");
    hashing.setDaemon(true);
    hashing.start();
    AtomicFiles.write(file, data);
    try {
      return sha256.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ArtifactException("interrupted while hashing " + file, e);
    } catch (ExecutionException e) {
      throw new ArtifactException("cannot hash " + file + ": " + e.getCause(), e.getCause());
    }
  }

  /** Orgs in the shards completed so far. */
  private long written() {
    long orgs = 0;
    for (ShardFile shard : shards) {
      orgs += shard.records();
    }
    return orgs;
  }

  /** The shards completed so far, in order. */
  public List<ShardFile> shards() {
    return List.copyOf(shards);
  }

  /** De-dup statistics of the completed shards. */
  public DedupStats stats() {
    return stats;
  }
}
