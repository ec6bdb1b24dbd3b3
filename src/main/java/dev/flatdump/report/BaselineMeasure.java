package dev.flatdump.report;

import dev.flatdump.Org;
import dev.flatdump.artifact.Compression;
import dev.flatdump.encode.DedupOptions;
import dev.flatdump.encode.StreamFormat;
import java.io.Closeable;

/**
 * Measures one {@link Baseline} from orgs streamed through it: its raw bytes, and those bytes
 * compressed with gzip and with zstd, counted and never kept. Not thread-safe.
 */
interface BaselineMeasure extends Closeable {

  /** The measure for {@code baseline}; FlatBuffers ones cut a shard at {@code maxShardBytes}. */
  static BaselineMeasure create(
      Baseline baseline, Compression gzip, Compression zstd, long maxShardBytes) {
    return switch (baseline) {
      case PLAIN -> new FlatBuffersMeasure(baseline, DedupOptions.NONE, gzip, zstd, maxShardBytes);
      case STRINGS ->
          new FlatBuffersMeasure(baseline, DedupOptions.STRINGS_ONLY, gzip, zstd, maxShardBytes);
      case PROTOBUF -> new StreamMeasure(baseline, StreamFormat.PROTOBUF, gzip, zstd);
      case JSON -> new StreamMeasure(baseline, StreamFormat.JSON, gzip, zstd);
    };
  }

  /** Measures one more org. */
  void add(Org org);

  /** The real export starts a new shard here: sharded encodings start a new one too. */
  void shardBoundary();

  /** Ends the measurement and releases its resources; call once. */
  BaselineSize finish();

  /** Releases resources without a result; idempotent, and harmless after {@link #finish()}. */
  @Override
  void close();
}
