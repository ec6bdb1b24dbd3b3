package dev.flatdump.artifact.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;

class ParallelGzipOutputStreamTest {

  static final int BLOCK = ParallelGzipOutputStream.BLOCK;

  static byte[] gzip(byte[] data, int level, int threads) throws IOException {
    var out = new ByteArrayOutputStream();
    try (var z = new ParallelGzipOutputStream(out, level, threads)) {
      z.write(data);
    }
    return out.toByteArray();
  }

  static byte[] gunzip(byte[] gz) throws IOException {
    try (var in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
      return in.readAllBytes();
    }
  }

  /** Lines that repeat with variations, as records do. */
  static byte[] records(int size) {
    var text = new StringBuilder();
    var random = new Random(3);
    while (text.length() < size) {
      text.append("{\"id\":\"attr_")
          .append(random.nextInt(400))
          .append("\",\"quantity\":")
          .append(random.nextInt(100))
          .append(",\"active\":")
          .append(random.nextBoolean())
          .append("}\n");
    }
    return Arrays.copyOf(text.toString().getBytes(StandardCharsets.US_ASCII), size);
  }

  @Test
  void roundTripsAtEveryBlockEdgeWithTheSameBytesOnOneOrThreeThreads() throws IOException {
    for (int size : new int[] {0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK, 3 * BLOCK + 5}) {
      byte[] data = records(size);

      byte[] one = gzip(data, 6, 1);

      assertThat(gunzip(one)).as("size %d", size).isEqualTo(data);
      assertThat(gzip(data, 6, 3)).as("size %d", size).isEqualTo(one);
    }
  }

  @Test
  void byteByByteWritesTheSameBytesAsOneArray() throws IOException {
    byte[] data = records(BLOCK + 4_000);
    var out = new ByteArrayOutputStream();
    try (var z = new ParallelGzipOutputStream(out, 6, 2)) {
      for (byte b : data) {
        z.write(b);
      }
    }

    assertThat(out.toByteArray()).isEqualTo(gzip(data, 6, 2));
  }

  @Test
  void isOneGzipMemberWhoseTrailerHoldsTheWholeInputsCrcAndSize()
      throws IOException, DataFormatException {
    byte[] data = records(2 * BLOCK + 12_345);

    byte[] gz = gzip(data, 6, 2);

    assertThat(gz).startsWith((byte) 0x1f, (byte) 0x8b, (byte) 8, (byte) 0);
    // One deflate stream from after the 10-byte header to just before the 8-byte trailer.
    var inflater = new Inflater(true);
    inflater.setInput(gz, 10, gz.length - 10);
    byte[] inflated = new byte[data.length + 1];
    int n = 0;
    while (!inflater.finished()) {
      n += inflater.inflate(inflated, n, inflated.length - n);
    }
    assertThat(Arrays.copyOf(inflated, n)).isEqualTo(data);
    assertThat(inflater.getRemaining()).isEqualTo(8);
    inflater.end();
    var trailer = ByteBuffer.wrap(gz, gz.length - 8, 8).order(ByteOrder.LITTLE_ENDIAN);
    var crc = new CRC32();
    crc.update(data);
    assertThat(trailer.getInt() & 0xffffffffL).isEqualTo(crc.getValue());
    assertThat(trailer.getInt()).isEqualTo(data.length);
  }

  @Test
  void matchesReachBackAcrossABlockCut() throws IOException {
    // A random block, then its last 30 KiB again: only the dictionary makes the repeat cheap.
    byte[] random = new byte[BLOCK];
    new Random(11).nextBytes(random);
    byte[] data = Arrays.copyOf(random, BLOCK + 30 * 1024);
    System.arraycopy(random, BLOCK - 30 * 1024, data, BLOCK, 30 * 1024);

    byte[] gz = gzip(data, 6, 2);

    assertThat(gunzip(gz)).isEqualTo(data);
    assertThat(gz.length).isLessThan(BLOCK + 1024);
  }

  @Test
  void reusesItsBlocksOnlyOnceNoDeflateStillReadsThem() throws IOException {
    // Each block opens with the last 30 KiB of the block before (deflate reaches back 32 KiB less
    // 262 bytes) and goes on with noise: every block's deflate reads the block before as its
    // dictionary, so one overwritten too early would decompress wrong, or cost 30 KiB more.
    int blocks = 24;
    int repeat = 30 * 1024;
    byte[] data = new byte[blocks * BLOCK];
    var random = new Random(17);
    for (int b = 0; b < blocks; b++) {
      int from = b * BLOCK;
      int start = from;
      if (b > 0) {
        System.arraycopy(data, from - repeat, data, from, repeat);
        start += repeat;
      }
      byte[] noise = new byte[from + BLOCK - start];
      random.nextBytes(noise);
      System.arraycopy(noise, 0, data, start, noise.length);
    }
    var out = new ByteArrayOutputStream();
    var z = new ParallelGzipOutputStream(out, 6, 2);
    for (int i = 0; i < data.length; i += 100_000) {
      z.write(data, i, Math.min(100_000, data.length - i));
    }
    z.close();

    assertThat(gunzip(out.toByteArray())).isEqualTo(data);
    assertThat(out.size()).isLessThan(blocks * (BLOCK - repeat) + repeat + blocks * 1024);
    assertThat(z.blocksAllocated()).isBetween(2, 2 + 5);
  }

  @Test
  void comesWithinATenthOfAPercentOfOneDeflateStream() throws IOException {
    byte[] data = records(4 * BLOCK);
    var jdk = new ByteArrayOutputStream();
    try (var z =
        new GZIPOutputStream(jdk) {
          {
            def.setLevel(6);
          }
        }) {
      z.write(data);
    }

    int ours = gzip(data, 6, 2).length;

    assertThat(Math.abs(ours - jdk.size())).isLessThan(jdk.size() / 1000);
  }

  @Test
  void aFailingTargetFailsTheStreamStopsItsThreadsAndClosesTheTarget() throws Exception {
    class FailingAfter extends OutputStream {
      long written;
      boolean closed;

      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        written += len;
        if (written > 100_000) {
          throw new IOException("disk full");
        }
      }

      @Override
      public void close() {
        closed = true;
      }
    }
    var target = new FailingAfter();
    byte[] data = new byte[8 * BLOCK];
    new Random(5).nextBytes(data);

    var z = new ParallelGzipOutputStream(target, 6, 2);
    assertThatIOException()
        .isThrownBy(
            () -> {
              try (z) {
                z.write(data);
              }
            })
        .withMessage("disk full");

    assertThat(target.closed).isTrue();
    z.close(); // idempotent
    assertThatIOException().isThrownBy(() -> z.write(1)).withMessageContaining("closed");
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (gzipThreadsAlive() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(gzipThreadsAlive()).isFalse();
  }

  @Test
  void rejectsALevelOrThreadCountOutOfRange() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new ParallelGzipOutputStream(new ByteArrayOutputStream(), 10, 1))
        .withMessageContaining("got 10");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new ParallelGzipOutputStream(new ByteArrayOutputStream(), 6, 0))
        .withMessageContaining("got 0");
  }

  private static boolean gzipThreadsAlive() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("flatdump-gzip") && t.isAlive());
  }
}
