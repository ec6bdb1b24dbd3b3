package dev.flatdump.report;

import dev.flatdump.artifact.compress.Compression;
import dev.flatdump.artifact.read.RecordJson;
import dev.flatdump.artifact.read.RecordProtobuf;
import dev.flatdump.encode.engine.RejectedRecord;
import dev.flatdump.encode.engine.ShardBuilder;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.encode.plan.SchemaPlan;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code --compare} baselines of an export: the same records as plain FlatBuffers (no de-dup),
 * with strings de-duplicated only, as protobuf and as JSON lines, each with its gzip and zstd
 * sizes. The FlatBuffers baselines encode the source documents again with the same engine and other
 * de-dup settings ({@link #addDocument}; documents the schema refuses are left out, as the export
 * left them out), cutting a shard at {@code maxShardBytes}. Protobuf and JSON lines are written
 * from the exported records ({@link #addShard}): protobuf onto the twin derived from the schema
 * ({@link RecordProtobuf}, {@link dev.flatdump.artifact.read.ProtobufTwin}), one message per
 * record, JSON lines as {@code inspect --json} prints them. Compressed bytes are counted, never
 * kept. Not thread-safe; holds native zstd memory until {@link #finish} or {@link #close}.
 */
public final class SchemaBaselines implements Closeable {

  private final List<Encoded> encoded = new ArrayList<>();
  private final SchemaPlan plan;
  private final Compression gzip;
  private final Compression zstd;
  private final List<Streamed> streamed = new ArrayList<>();
  private boolean done;

  /**
   * @throws IllegalArgumentException for {@code protobuf} when the schema cannot be written as
   *     protobuf ({@link #protobufTwin}: a table with field numbers protobuf reserves); the message
   *     says where
   */
  public SchemaBaselines(
      SchemaPlan plan,
      Set<Baseline> which,
      Compression gzip,
      Compression zstd,
      long maxShardBytes) {
    this.plan = Objects.requireNonNull(plan, "plan");
    this.gzip = Objects.requireNonNull(gzip, "gzip");
    this.zstd = Objects.requireNonNull(zstd, "zstd");
    RecordsWriter protobuf = null;
    if (which.contains(Baseline.PROTOBUF)) {
      protobuf = protobufTwin(plan)::write;
    }
    if (which.contains(Baseline.PLAIN)) {
      encoded.add(new Encoded(Baseline.PLAIN, Sharing.Kinds.NONE, maxShardBytes));
    }
    if (which.contains(Baseline.STRINGS)) {
      encoded.add(
          new Encoded(Baseline.STRINGS, new Sharing.Kinds(true, false, false), maxShardBytes));
    }
    try {
      if (protobuf != null) {
        streamed.add(new Streamed(Baseline.PROTOBUF, protobuf));
      }
      if (which.contains(Baseline.JSON)) {
        streamed.add(new Streamed(Baseline.JSON, jsonLines(plan)));
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * The protobuf writer of the schema's records, onto the twin derived from the schema ({@link
   * dev.flatdump.artifact.read.ProtobufTwin}).
   *
   * @throws IllegalArgumentException when the schema has no twin (a field protobuf cannot number),
   *     saying where
   */
  public static RecordProtobuf protobufTwin(SchemaPlan plan) {
    try {
      return RecordProtobuf.of(plan);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "the protobuf baseline cannot map the schema: " + e.getMessage(), e);
    }
  }

  /** Whether any baseline needs the source documents ({@link #addDocument}). */
  public boolean needsDocuments() {
    return !encoded.isEmpty();
  }

  /** One source document's BSON bytes {@code b[offset, offset + length)}, in export order. */
  public void addDocument(byte[] b, int offset, int length) {
    requireOpen();
    for (Encoded e : encoded) {
      e.add(b, offset, length);
    }
  }

  /** One exported shard, whose records the protobuf and JSON baselines write. */
  public void addShard(ByteBuffer shard) {
    requireOpen();
    for (Streamed s : streamed) {
      s.add(shard);
    }
  }

  /** Whether any baseline needs the exported shards ({@link #addShard}). */
  public boolean needsShards() {
    return !streamed.isEmpty();
  }

  /** The sizes, in {@link Baseline} order; releases everything. */
  public List<BaselineSize> finish() {
    requireOpen();
    done = true;
    try {
      List<BaselineSize> sizes = new ArrayList<>();
      for (Encoded e : encoded) {
        sizes.add(e.finish());
      }
      for (Streamed s : streamed) {
        sizes.add(s.finish());
      }
      sizes.sort((a, b) -> a.baseline().compareTo(b.baseline()));
      return List.copyOf(sizes);
    } finally {
      close();
    }
  }

  @Override
  public void close() {
    done = true;
    for (Streamed s : streamed) {
      s.close();
    }
  }

  private void requireOpen() {
    if (done) {
      throw new IllegalStateException("the baselines are already finished");
    }
  }

  private long compressedSize(Baseline b, Compression c, ByteBuffer shard) {
    try {
      return CompressedSize.of(c, shard);
    } catch (IOException e) {
      throw new ReportException(
          "cannot measure baseline " + b.id() + " with " + c.name() + ": " + e, null, e);
    }
  }

  /** A FlatBuffers baseline: the documents encoded again, shard by shard. */
  private final class Encoded {
    private final Baseline baseline;
    private final ShardBuilder shard;
    private final long maxShardBytes;
    private long bytes;
    private long gzipBytes;
    private long zstdBytes;

    Encoded(Baseline baseline, Sharing.Kinds kinds, long maxShardBytes) {
      this.baseline = baseline;
      this.shard = new ShardBuilder(plan, kinds, false, (int) Math.min(1 << 20, maxShardBytes));
      this.maxShardBytes = maxShardBytes;
    }

    void add(byte[] b, int offset, int length) {
      try {
        shard.add(b, offset, length);
      } catch (RejectedRecord e) {
        return; // not in the export either
      }
      if (shard.reached(maxShardBytes)) {
        cut();
      }
    }

    private void cut() {
      ByteBuffer data = shard.finish();
      bytes += data.remaining();
      gzipBytes += compressedSize(baseline, gzip, data);
      zstdBytes += compressedSize(baseline, zstd, data);
    }

    BaselineSize finish() {
      if (shard.open()) {
        cut();
      }
      return new BaselineSize(baseline, bytes, gzipBytes, zstdBytes);
    }
  }

  /** How a streamed baseline writes one shard's records. */
  private interface RecordsWriter {
    void write(ByteBuffer shard, OutputStream out) throws IOException;
  }

  /** A baseline written from the exported records, counted raw, gzipped and zstd-compressed. */
  private final class Streamed {
    private final Baseline baseline;
    private final RecordsWriter writer;
    private final CountingOutputStream raw = new CountingOutputStream();
    private final CountingOutputStream gzipped = new CountingOutputStream();
    private final CountingOutputStream zstded = new CountingOutputStream();
    private final OutputStream out;
    private boolean closed;

    Streamed(Baseline baseline, RecordsWriter writer) {
      this.baseline = baseline;
      this.writer = writer;
      OutputStream gzipOut = null;
      try {
        gzipOut = gzip.wrap(gzipped);
        out = new TeeOutputStream(raw, gzipOut, zstd.wrap(zstded));
      } catch (IOException e) {
        if (gzipOut != null) {
          try {
            gzipOut.close();
          } catch (IOException ignored) {
            // the failure to open is what the caller hears about
          }
        }
        throw new ReportException("cannot open baseline " + baseline.id() + ": " + e, null, e);
      }
    }

    void add(ByteBuffer shard) {
      try {
        writer.write(shard, out);
      } catch (IOException e) {
        throw new ReportException("cannot write baseline " + baseline.id() + ": " + e, null, e);
      }
    }

    BaselineSize finish() {
      try {
        closed = true;
        out.close(); // finishes both compressed frames
      } catch (IOException e) {
        throw new ReportException("cannot finish baseline " + baseline.id() + ": " + e, null, e);
      }
      return new BaselineSize(baseline, raw.count(), gzipped.count(), zstded.count());
    }

    void close() {
      if (closed) {
        return;
      }
      closed = true;
      try {
        out.close();
      } catch (IOException ignored) {
        // closing after a failure: nothing more to say
      }
    }
  }

  /**
   * JSON lines of the records, the fields each buffer holds ({@code inspect --json} also writes the
   * defaults).
   */
  private static RecordsWriter jsonLines(SchemaPlan plan) {
    RecordJson records = new RecordJson(plan);
    return (shard, out) -> {
      int n = records.count(shard);
      for (int i = 0; i < n; i++) {
        out.write(records.record(shard, i).getBytes(StandardCharsets.UTF_8));
        out.write('\n');
      }
    };
  }
}
