package dev.flatdump.bench;

import dev.flatdump.artifact.Compression;
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
    var counter = new Counter();
    try (InputStream in = Files.newInputStream(file);
        OutputStream out = compression.wrap(counter)) {
      in.transferTo(out);
    }
    return counter.count;
  }

  /** Counts and discards. */
  private static final class Counter extends OutputStream {
    private long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }
}
