package dev.flatdump.artifact.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Compression} does, whatever its algorithm. Subclasses name the algorithm, its
 * level range, and decompress with an independent reader.
 */
abstract class CompressionContract {

  /** The name {@link Compression#create} takes and {@link Compression#name()} returns. */
  abstract String name();

  /** The short alias {@link Compression#create} also takes. */
  abstract String alias();

  abstract String extension();

  abstract int minLevel();

  abstract int maxLevel();

  abstract int defaultLevel();

  /** The compression at {@code level}, built through its own constructor. */
  abstract Compression withLevel(int level);

  /** Decompresses with a reader that is not ours. */
  abstract InputStream decompressing(InputStream in) throws IOException;

  byte[] compress(Compression compression, byte[] data) throws IOException {
    var out = new ByteArrayOutputStream();
    try (OutputStream z = compression.wrap(out)) {
      z.write(data);
    }
    return out.toByteArray();
  }

  byte[] decompress(byte[] compressed) throws IOException {
    try (InputStream in = decompressing(new ByteArrayInputStream(compressed))) {
      return in.readAllBytes();
    }
  }

  /** Text-like bytes with repeats, plus a stretch of noise: both paths of a compressor. */
  static byte[] sample() {
    var text = new StringBuilder();
    for (int i = 0; i < 5_000; i++) {
      text.append("{\"name\":\"Org ").append(i % 97).append("\",\"country\":\"ES\"}\n");
    }
    byte[] repetitive = text.toString().getBytes(StandardCharsets.UTF_8);
    byte[] noise = new byte[50_000];
    new Random(42).nextBytes(noise);
    byte[] data = new byte[repetitive.length + noise.length];
    System.arraycopy(repetitive, 0, data, 0, repetitive.length);
    System.arraycopy(noise, 0, data, repetitive.length, noise.length);
    return data;
  }

  @Nested
  class RoundTrip {

    @Test
    void decompressesToTheSameBytesAtEveryEndOfTheRange() throws IOException {
      byte[] data = sample();

      for (int level : new int[] {minLevel(), defaultLevel(), maxLevel()}) {
        assertThat(decompress(compress(withLevel(level), data)))
            .as("level %d", level)
            .isEqualTo(data);
      }
    }

    @Test
    void itsOwnUnwrapReadsWhatItWroteAndRefusesATruncatedStream() throws IOException {
      byte[] data = sample();
      Compression c = withLevel(defaultLevel());
      byte[] compressed = compress(c, data);
      try (InputStream in = c.unwrap(new ByteArrayInputStream(compressed))) {
        assertThat(in.readAllBytes()).isEqualTo(data);
      }
      byte[] truncated = java.util.Arrays.copyOf(compressed, compressed.length - 3);
      assertThatThrownBy(
              () -> {
                try (InputStream in = c.unwrap(new ByteArrayInputStream(truncated))) {
                  in.readAllBytes();
                }
              })
          .isInstanceOf(IOException.class);
      assertThat(Compression.create(name(), null).extension()).isEqualTo(extension());
      assertThat(Compression.NAMES).contains(name());
    }

    @Test
    void writtenByteByByteDecompressesToTheSameBytes() throws IOException {
      byte[] data = "a few bytes, one write() call each".getBytes(StandardCharsets.UTF_8);
      var out = new ByteArrayOutputStream();
      try (OutputStream z = withLevel(defaultLevel()).wrap(out)) {
        for (byte b : data) {
          z.write(b);
        }
      }

      assertThat(decompress(out.toByteArray())).isEqualTo(data);
    }

    @Test
    void emptyInputIsAValidFrameThatDecompressesToNothing() throws IOException {
      byte[] compressed = compress(withLevel(defaultLevel()), new byte[0]);

      assertThat(compressed).isNotEmpty();
      assertThat(decompress(compressed)).isEmpty();
    }

    @Test
    void shrinksRepetitiveData() throws IOException {
      byte[] data = "organization ".repeat(10_000).getBytes(StandardCharsets.UTF_8);

      assertThat(compress(withLevel(defaultLevel()), data).length).isLessThan(data.length / 10);
    }

    @Test
    void theLevelChangesTheOutput() throws IOException {
      byte[] data = sample();

      assertThat(compress(withLevel(minLevel()), data))
          .isNotEqualTo(compress(withLevel(maxLevel()), data));
    }

    @Test
    void closingTheCompressorClosesTheWrappedStream() throws IOException {
      class ClosedFlag extends ByteArrayOutputStream {
        boolean closed;

        @Override
        public void close() throws IOException {
          closed = true;
          super.close();
        }
      }
      var out = new ClosedFlag();

      withLevel(defaultLevel()).wrap(out).close();

      assertThat(out.closed).isTrue();
    }
  }

  @Nested
  class Threads {

    /** Several MiB (more than one gzip block, more than one zstd job): text, noise, zeros. */
    byte[] large() {
      byte[] one = sample();
      byte[] data = new byte[5 * (1 << 20) + 17];
      for (int i = 0; i < data.length; i += one.length) {
        System.arraycopy(one, 0, data, i, Math.min(one.length, data.length - i));
      }
      byte[] noise = new byte[300_000];
      new Random(7).nextBytes(noise);
      System.arraycopy(noise, 0, data, 1_000_000, noise.length);
      Arrays.fill(data, 3_000_000, 3_500_000, (byte) 0);
      return data;
    }

    byte[] compress(Compression compression, byte[] data, int threads, int chunk)
        throws IOException {
      var out = new ByteArrayOutputStream();
      try (OutputStream z = compression.withThreads(threads).wrap(out)) {
        for (int i = 0; i < data.length; i += chunk) {
          z.write(data, i, Math.min(chunk, data.length - i));
        }
      }
      return out.toByteArray();
    }

    @Test
    void writesTheSameBytesWhateverTheNumberOfThreads() throws IOException {
      byte[] data = large();
      Compression compression = withLevel(defaultLevel());

      byte[] one = compress(compression, data, 1, 65_536);
      byte[] two = compress(compression, data, 2, 7_919);
      byte[] four = compress(compression, data, 4, 1 << 20);

      assertThat(decompress(one)).isEqualTo(data);
      assertThat(two).isEqualTo(one);
      assertThat(four).isEqualTo(one);
    }

    @Test
    void theDefaultIsTheProcessorCountUpToFourAndWritesTheSameBytes() throws IOException {
      byte[] data = large();
      Compression compression = withLevel(minLevel());

      assertThat(compression.threads())
          .isEqualTo(Math.min(Runtime.getRuntime().availableProcessors(), 4));
      assertThat(Compression.create(name(), minLevel()).threads()).isEqualTo(compression.threads());
      assertThat(CompressionContract.this.compress(compression, data))
          .isEqualTo(compress(compression, data, 1, 65_536));
    }

    @Test
    void withThreadsKeepsTheAlgorithmAndLevel() {
      Compression three = withLevel(maxLevel()).withThreads(3);

      assertThat(three.threads()).isEqualTo(3);
      assertThat(three.level()).isEqualTo(maxLevel());
      assertThat(three.name()).isEqualTo(name());
    }

    @Test
    void rejectsFewerThanOneThreadNamingIt() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> withLevel(defaultLevel()).withThreads(0))
          .withMessageContaining("threads")
          .withMessageContaining("got 0");
    }
  }

  @Nested
  class Levels {

    @Test
    void acceptsTheWholeRange() {
      for (int level = minLevel(); level <= maxLevel(); level++) {
        assertThat(withLevel(level).level()).isEqualTo(level);
      }
    }

    @Test
    void rejectsALevelBelowTheRangeNamingIt() {
      int level = minLevel() - 1;

      assertThatIllegalArgumentException()
          .isThrownBy(() -> withLevel(level))
          .withMessageContaining(name())
          .withMessageContaining("got " + level);
    }

    @Test
    void rejectsALevelAboveTheRangeNamingIt() {
      int level = maxLevel() + 1;

      assertThatIllegalArgumentException()
          .isThrownBy(() -> withLevel(level))
          .withMessageContaining(name())
          .withMessageContaining("got " + level);
    }

    @Test
    void rejectsANegativeLevel() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> withLevel(-3))
          .withMessageContaining("got -3");
    }
  }

  @Nested
  class Create {

    @Test
    void createsByNameWithTheDefaultLevel() {
      Compression compression = Compression.create(name(), null);

      assertThat(compression).isEqualTo(withLevel(defaultLevel()));
      assertThat(compression.name()).isEqualTo(name());
    }

    @Test
    void createsByNameWithAGivenLevel() {
      assertThat(Compression.create(name(), minLevel())).isEqualTo(withLevel(minLevel()));
    }

    @Test
    void ignoresCaseAndSurroundingSpace() {
      assertThat(Compression.create("  " + name().toUpperCase(Locale.ROOT) + " ", null))
          .isEqualTo(withLevel(defaultLevel()));
    }

    @Test
    void acceptsTheShortAlias() {
      assertThat(Compression.create(alias(), null)).isEqualTo(withLevel(defaultLevel()));
    }

    @Test
    void rejectsALevelOutOfRangeNamingIt() {
      int level = maxLevel() + 1;

      assertThatIllegalArgumentException()
          .isThrownBy(() -> Compression.create(name(), level))
          .withMessageContaining("got " + level);
    }

    @Test
    void rejectsAnUnknownNameNamingIt() {
      String unknown = name() + "2";

      assertThatIllegalArgumentException()
          .isThrownBy(() -> Compression.create(unknown, null))
          .withMessageContaining("'" + unknown + "'")
          .withMessageContaining("gzip or zstd");
    }
  }

  @Test
  void extensionIsTheFileSuffixWithItsDot() {
    assertThat(withLevel(defaultLevel()).extension()).isEqualTo(extension());
  }
}
