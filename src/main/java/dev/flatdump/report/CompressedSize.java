package dev.flatdump.report;

import dev.flatdump.artifact.compress.Compression;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/** The size of some bytes once compressed, counted and never written anywhere. Stateless. */
public final class CompressedSize {

  private static final int CHUNK = 1 << 16;

  private CompressedSize() {}

  /**
   * The compressed size of {@code bytes}' remaining bytes (their position is kept). A buffer
   * without an array, such as a mapped file, is copied through a small chunk.
   */
  public static long of(Compression compression, ByteBuffer bytes) throws IOException {
    var counter = new CountingOutputStream();
    ByteBuffer source = bytes.duplicate();
    try (OutputStream out = compression.wrap(counter)) {
      if (source.hasArray()) {
        out.write(source.array(), source.arrayOffset() + source.position(), source.remaining());
      } else {
        byte[] chunk = new byte[(int) Math.min(CHUNK, Math.max(1, source.remaining()))];
        while (source.hasRemaining()) {
          int n = Math.min(chunk.length, source.remaining());
          source.get(chunk, 0, n);
          out.write(chunk, 0, n);
        }
      }
    }
    return counter.count();
  }
}
