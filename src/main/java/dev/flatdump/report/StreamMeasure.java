package dev.flatdump.report;

import dev.flatdump.Org;
import dev.flatdump.artifact.Compression;
import dev.flatdump.encode.OrgStreamEncoder;
import dev.flatdump.encode.StreamFormat;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Measures a stream baseline (protobuf, JSON lines): the encoder writes into a tee that counts the
 * raw bytes and feeds a gzip and a zstd compressor, whose output is only counted. The stream is one
 * file, not sharded, so shard boundaries change nothing. Holds native zstd memory until closed.
 */
final class StreamMeasure implements BaselineMeasure {

  private final Baseline baseline;
  private final CountingOutputStream raw = new CountingOutputStream();
  private final CountingOutputStream gzipped = new CountingOutputStream();
  private final CountingOutputStream zstded = new CountingOutputStream();
  private final OrgStreamEncoder encoder;
  private boolean done;

  StreamMeasure(Baseline baseline, StreamFormat format, Compression gzip, Compression zstd) {
    this.baseline = baseline;
    OutputStream gzipOut = null;
    try {
      gzipOut = gzip.wrap(gzipped);
      OutputStream zstdOut = zstd.wrap(zstded);
      this.encoder = OrgStreamEncoder.create(format, new TeeOutputStream(raw, gzipOut, zstdOut));
    } catch (IOException e) {
      closeQuietly(gzipOut);
      throw failure("open", e);
    }
  }

  @Override
  public void add(Org org) {
    if (done) {
      throw new IllegalStateException("baseline " + baseline.id() + " is already finished");
    }
    try {
      encoder.write(org);
    } catch (IOException e) {
      throw failure("write", e);
    }
  }

  @Override
  public void shardBoundary() {
    if (done) {
      throw new IllegalStateException("baseline " + baseline.id() + " is already finished");
    }
  }

  @Override
  public BaselineSize finish() {
    if (done) {
      throw new IllegalStateException("baseline " + baseline.id() + " is already finished");
    }
    done = true;
    try {
      encoder.close(); // flushes the encoder and finishes both compressed frames
    } catch (IOException e) {
      throw failure("finish", e);
    }
    return new BaselineSize(baseline, raw.count(), gzipped.count(), zstded.count());
  }

  @Override
  public void close() {
    done = true;
    closeQuietly(encoder);
  }

  private ReportException failure(String action, IOException e) {
    return new ReportException(
        "cannot " + action + " baseline " + baseline.id() + ": " + e, null, e);
  }

  private static void closeQuietly(java.io.Closeable closeable) {
    if (closeable == null) {
      return;
    }
    try {
      closeable.close();
    } catch (IOException ignored) {
      // Only counters sit below: nothing is lost, and the caller is already failing or done.
    }
  }
}
