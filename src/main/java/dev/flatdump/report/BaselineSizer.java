package dev.flatdump.report;

import dev.flatdump.Org;
import dev.flatdump.artifact.Compression;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Measures the {@code --compare} baselines from the stream of orgs the export writes, without
 * holding them: for each requested {@link Baseline}, its raw bytes and those bytes compressed with
 * gzip and with zstd. Compressed bytes are counted, never stored.
 *
 * <p>Use: {@link #add} every exported org, call {@link #shardBoundary()} wherever the export starts
 * a new shard, then {@link #finish()} once. The FlatBuffers baselines ({@code plain}, {@code
 * strings}) follow the export's shards: each shard gets its own builder, which is finished,
 * measured and dropped at the boundary, and each shard is compressed on its own, as the artifacts
 * are. Since a baseline can be several times larger than the de-duplicated artifact, a FlatBuffers
 * baseline also cuts a shard by itself once its builder holds {@code maxShardBytes}; at most one
 * builder per FlatBuffers baseline is on the heap, with a buffer of up to twice {@code
 * maxShardBytes} while it grows. The stream baselines ({@code protobuf}, {@code json}) are one
 * stream each, compressed as a whole.
 *
 * <p>Not thread-safe. Holds native zstd memory: {@link #finish()} releases it, and {@link #close()}
 * releases it when the export fails before; use it in try-with-resources.
 */
public final class BaselineSizer implements Closeable {

  /** The default largest FlatBuffers baseline shard: 128 MiB. */
  public static final long DEFAULT_MAX_SHARD_BYTES = 128L << 20;

  /** FlatBuffers offsets are signed 32-bit, and a buffer may double while it grows: stay below. */
  private static final long LARGEST_MAX_SHARD_BYTES = 1L << 30;

  private final List<BaselineMeasure> measures = new ArrayList<>();
  private boolean finished;

  /**
   * A sizer for {@code which} baselines, cutting FlatBuffers baseline shards at {@link
   * #DEFAULT_MAX_SHARD_BYTES}.
   *
   * @param which the baselines to measure; may be empty, then {@link #finish()} returns no sizes
   * @param gzip the gzip compression to measure with (the artifacts' level, for a fair comparison)
   * @param zstd the zstd compression to measure with
   */
  public BaselineSizer(Set<Baseline> which, Compression gzip, Compression zstd) {
    this(which, gzip, zstd, DEFAULT_MAX_SHARD_BYTES);
  }

  /**
   * A sizer for {@code which} baselines.
   *
   * @param maxShardBytes the size at which a FlatBuffers baseline starts a new shard by itself;
   *     1..1 GiB
   * @throws IllegalArgumentException if a compression is not the kind its parameter names, or
   *     {@code maxShardBytes} is out of range
   */
  public BaselineSizer(
      Set<Baseline> which, Compression gzip, Compression zstd, long maxShardBytes) {
    Objects.requireNonNull(which, "which must not be null");
    Objects.requireNonNull(gzip, "gzip must not be null");
    Objects.requireNonNull(zstd, "zstd must not be null");
    if (!gzip.name().equals("gzip")) {
      throw new IllegalArgumentException("gzip must be a gzip compression, was " + gzip.name());
    }
    if (!zstd.name().equals("zstd")) {
      throw new IllegalArgumentException("zstd must be a zstd compression, was " + zstd.name());
    }
    if (maxShardBytes < 1 || maxShardBytes > LARGEST_MAX_SHARD_BYTES) {
      throw new IllegalArgumentException(
          "maxShardBytes must be 1.." + LARGEST_MAX_SHARD_BYTES + ", was " + maxShardBytes);
    }
    try {
      for (Baseline baseline : which.isEmpty() ? Set.<Baseline>of() : EnumSet.copyOf(which)) {
        measures.add(BaselineMeasure.create(baseline, gzip, zstd, maxShardBytes));
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * Measures one more org in every baseline.
   *
   * @throws IllegalStateException after {@link #finish()} or {@link #close()}
   * @throws ReportException if a compressor fails
   */
  public void add(Org org) {
    Objects.requireNonNull(org, "org must not be null");
    requireOpen();
    for (BaselineMeasure measure : measures) {
      measure.add(org);
    }
  }

  /**
   * Marks where the export starts a new shard: the FlatBuffers baselines finish, measure and drop
   * their current shard. Harmless when no org was added since the last boundary.
   *
   * @throws IllegalStateException after {@link #finish()} or {@link #close()}
   */
  public void shardBoundary() {
    requireOpen();
    for (BaselineMeasure measure : measures) {
      measure.shardBoundary();
    }
  }

  /**
   * Ends the last shard and the streams and returns the sizes, in {@link Baseline} order. Call
   * once; releases all resources, also when it fails.
   *
   * @throws IllegalStateException if already finished or closed
   * @throws ReportException if a compressor fails
   */
  public List<BaselineSize> finish() {
    requireOpen();
    finished = true;
    try {
      List<BaselineSize> sizes = new ArrayList<>(measures.size());
      for (BaselineMeasure measure : measures) {
        sizes.add(measure.finish());
      }
      return List.copyOf(sizes);
    } finally {
      close();
    }
  }

  /** Releases every baseline's resources; idempotent. The sizer cannot be used afterwards. */
  @Override
  public void close() {
    finished = true;
    for (BaselineMeasure measure : measures) {
      measure.close();
    }
  }

  private void requireOpen() {
    if (finished) {
      throw new IllegalStateException("BaselineSizer is finished or closed");
    }
  }
}
