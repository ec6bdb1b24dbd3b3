package dev.flatdump.artifact.compress;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;

/**
 * gzip (RFC 1952) through the JDK's deflater, levels 1..9, deflated in blocks on several threads
 * ({@link ParallelGzipOutputStream}): one gzip member, as {@code gzip -d} expects.
 */
public record GzipCompression(int level, int threads) implements Compression {

  /** gzip's own default level, and the export's. */
  public static final int DEFAULT_LEVEL = 6;

  public GzipCompression {
    requireLevel(level);
    Compression.requireThreads(threads);
  }

  /** Checks a deflate level, naming it if it is not 1..9. */
  static int requireLevel(int level) {
    if (level < Deflater.BEST_SPEED || level > Deflater.BEST_COMPRESSION) {
      throw new IllegalArgumentException("gzip level must be 1..9, got " + level);
    }
    return level;
  }

  /** At {@code level}, on {@link Compression#defaultThreads()} threads. */
  public GzipCompression(int level) {
    this(level, Compression.defaultThreads());
  }

  @Override
  public GzipCompression withThreads(int threads) {
    return new GzipCompression(level, threads);
  }

  @Override
  public String name() {
    return "gzip";
  }

  @Override
  public String extension() {
    return ".gz";
  }

  @Override
  public String mediaType() {
    return "application/gzip";
  }

  @Override
  public OutputStream wrap(OutputStream out) throws IOException {
    return new ParallelGzipOutputStream(out, level, threads);
  }

  @Override
  public InputStream unwrap(InputStream in) throws IOException {
    return new GZIPInputStream(in, 1 << 16);
  }
}
