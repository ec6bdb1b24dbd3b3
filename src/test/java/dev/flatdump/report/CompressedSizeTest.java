package dev.flatdump.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.compress.Compression;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CompressedSizeTest {

  @Test
  void countsWhatTheCompressionWritesForHeapAndDirectBuffers() throws IOException {
    byte[] bytes = new byte[300_000]; // several chunks; half random, half zeros
    new SplittableRandom(3).nextBytes(bytes);
    Arrays.fill(bytes, 150_000, bytes.length, (byte) 0);
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();

    for (String name : new String[] {"gzip", "zstd"}) {
      Compression compression = Compression.create(name, null);
      var written = new ByteArrayOutputStream();
      try (OutputStream out = compression.wrap(written)) {
        out.write(bytes, 10, bytes.length - 10);
      }
      ByteBuffer heap = ByteBuffer.wrap(bytes).position(10);

      assertThat(CompressedSize.of(compression, heap)).as(name).isEqualTo(written.size());
      assertThat(CompressedSize.of(compression, direct.position(10))).isEqualTo(written.size());
      assertThat(heap.position()).isEqualTo(10);
      assertThat(direct.position()).isEqualTo(10);
    }
  }
}
