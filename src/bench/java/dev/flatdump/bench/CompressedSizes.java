package dev.flatdump.bench;

import dev.flatdump.artifact.compress.Compression;
import dev.flatdump.report.CountingOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Measures a file's size once compressed, the way the artifacts are compressed, without writing the
 * compressed bytes anywhere.
 */
final class CompressedSizes {

  private CompressedSizes() {}

  /** The compressed size of {@code file} in bytes. */
  static long of(Path file, Compression compression) throws IOException {
    var counter = new CountingOutputStream();
    try (InputStream in = Files.newInputStream(file);
        OutputStream out = compression.wrap(counter)) {
      in.transferTo(out);
    }
    return counter.count();
  }
}
