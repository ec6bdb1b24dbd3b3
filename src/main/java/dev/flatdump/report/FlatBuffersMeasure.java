package dev.flatdump.report;

import dev.flatdump.Org;
import dev.flatdump.artifact.Compression;
import dev.flatdump.encode.DedupOptions;
import dev.flatdump.encode.FlatBufferOrgsBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Measures a FlatBuffers baseline shard by shard, as the artifacts are written: one builder per
 * shard, finished at each boundary, its bytes compressed into counters and then dropped. So at most
 * one shard is on the heap, and each shard is compressed on its own, like the artifacts' files.
 */
final class FlatBuffersMeasure implements BaselineMeasure {

  private static final int INITIAL_CAPACITY = 1 << 20;

  private final Baseline baseline;
  private final DedupOptions dedup;
  private final Compression gzip;
  private final Compression zstd;
  private final long maxShardBytes;

  private FlatBufferOrgsBuilder builder;
  private long bytes;
  private long gzipBytes;
  private long zstdBytes;
  private boolean done;

  FlatBuffersMeasure(
      Baseline baseline,
      DedupOptions dedup,
      Compression gzip,
      Compression zstd,
      long maxShardBytes) {
    this.baseline = baseline;
    this.dedup = dedup;
    this.gzip = gzip;
    this.zstd = zstd;
    this.maxShardBytes = maxShardBytes;
  }

  @Override
  public void add(Org org) {
    requireOpen();
    if (builder == null) {
      builder = new FlatBufferOrgsBuilder(dedup, (int) Math.min(INITIAL_CAPACITY, maxShardBytes));
    }
    builder.add(org);
    // A baseline can be many times larger than the artifact: never let its shard near 2 GB.
    if (builder.sizeBytes() >= maxShardBytes) {
      shardBoundary();
    }
  }

  @Override
  public void shardBoundary() {
    requireOpen();
    if (builder == null) {
      return; // no org since the last boundary: no shard
    }
    ByteBuffer shard = builder.finish();
    builder = null;
    bytes += shard.remaining();
    gzipBytes += compressedSize(gzip, shard);
    zstdBytes += compressedSize(zstd, shard);
  }

  @Override
  public BaselineSize finish() {
    shardBoundary();
    done = true;
    return new BaselineSize(baseline, bytes, gzipBytes, zstdBytes);
  }

  @Override
  public void close() {
    done = true;
    builder = null;
  }

  private long compressedSize(Compression compression, ByteBuffer shard) {
    try {
      return CompressedSize.of(compression, shard);
    } catch (IOException e) {
      throw new ReportException(
          "cannot measure baseline " + baseline.id() + " with " + compression.name() + ": " + e,
          null,
          e);
    }
  }

  private void requireOpen() {
    if (done) {
      throw new IllegalStateException("baseline " + baseline.id() + " is already finished");
    }
  }
}
