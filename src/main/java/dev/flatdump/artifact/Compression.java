package dev.flatdump.artifact;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;

/**
 * A stream compression that flatdump can write artifacts with. Implementations are stateless and
 * thread-safe; each {@link #wrap} returns a new stream that the caller closes, which also closes
 * the wrapped stream.
 */
public sealed interface Compression permits GzipCompression, ZstdCompression {

  /** The algorithm's name as users type it: {@code gzip} or {@code zstd}. */
  String name();

  /** The file-name suffix this compression adds, with its dot: {@code .gz} or {@code .zst}. */
  String extension();

  /** The level in use. */
  int level();

  /** Returns a stream that compresses into {@code out}; closing it finishes the frame. */
  OutputStream wrap(OutputStream out) throws IOException;

  /**
   * Creates a compression by name.
   *
   * @param name {@code gzip} or {@code zstd}, case-insensitive
   * @param level the level, or {@code null} for the algorithm's default (gzip 6, zstd 9)
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
