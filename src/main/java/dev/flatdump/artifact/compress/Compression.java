package dev.flatdump.artifact.compress;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;

/**
 * A stream compression that flatdump can write artifacts with: an algorithm, its level and how many
 * threads may compress at once. Implementations are immutable values; each {@link #wrap} returns a
 * new stream that the caller closes, which also closes the wrapped stream.
 */
public sealed interface Compression permits GzipCompression, ZstdCompression {

  /** The most threads {@link #defaultThreads()} gives. */
  int MAX_DEFAULT_THREADS = 4;

  /** The algorithm's name as users type it: {@code gzip} or {@code zstd}. */
  String name();

  /** The file-name suffix this compression adds, with its dot: {@code .gz} or {@code .zst}. */
  String extension();

  /** The media type of a file it wrote, as object storage serves it: {@code application/gzip}. */
  String mediaType();

  /** The level in use. */
  int level();

  /** How many threads may compress at once; the bytes written do not depend on it. */
  int threads();

  /** The same compression with {@code threads} threads, at least 1. */
  Compression withThreads(int threads);

  /**
   * Returns a stream that compresses into {@code out} with up to {@link #threads()} threads working
   * at once; closing it finishes the frame, stops them and closes {@code out}.
   */
  OutputStream wrap(OutputStream out) throws IOException;

  /**
   * A stream that decompresses {@code in}, which the caller closes (closing {@code in} too). A
   * corrupt or truncated stream reads as an {@link IOException}.
   */
  InputStream unwrap(InputStream in) throws IOException;

  /** The names {@link #create} takes, as users type them and manifests list copies' formats. */
  java.util.List<String> NAMES = java.util.List.of("gzip", "zstd");

  /**
   * The default threads: the processors this JVM may use (a container's CPU limit included), at
   * most {@value #MAX_DEFAULT_THREADS}. Each thread costs memory (a zstd worker ~17 MiB of native
   * memory, a gzip thread ~2 MiB of blocks in flight), and a container without a CPU limit sees
   * every core of its node.
   */
  static int defaultThreads() {
    return Math.min(Runtime.getRuntime().availableProcessors(), MAX_DEFAULT_THREADS);
  }

  /** Checks a thread count, naming it if it is below 1. */
  static int requireThreads(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("compression threads must be >= 1, got " + threads);
    }
    return threads;
  }

  /**
   * Creates a compression by name.
   *
   * @param name {@code gzip} or {@code zstd}, case-insensitive
   * @param level the level, or {@code null} for the algorithm's default (gzip 6, zstd 3)
   * @return the compression with {@link #defaultThreads()} threads
   * @throws IllegalArgumentException for an unknown name or a level out of the algorithm's range
   */
  static Compression create(String name, Integer level) {
    return switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "gzip", "gz" ->
          new GzipCompression(level == null ? GzipCompression.DEFAULT_LEVEL : level);
      case "zstd", "zst" ->
          new ZstdCompression(level == null ? ZstdCompression.DEFAULT_LEVEL : level);
      default ->
          throw new IllegalArgumentException(
              "unknown compression '" + name + "' (expected gzip or zstd)");
    };
  }
}
