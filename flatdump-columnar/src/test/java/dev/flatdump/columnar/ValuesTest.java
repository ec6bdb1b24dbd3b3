package dev.flatdump.columnar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Every value encoding gives its values back, at every width, at the edges of each kind. */
class ValuesTest {

  private static final int[] ENCODINGS = {
    Values.RAW, Values.VARINT, Values.DELTA, Values.FOR, Values.SPLIT, Values.XOR_SPLIT
  };

  @Test
  void everyEncodingRoundTripsRandomAndExtremeValues() {
    Random random = new Random(7);
    for (int width : new int[] {1, 2, 4, 8}) {
      for (boolean signed : new boolean[] {false, true}) {
        for (int round = 0; round < 40; round++) {
          int n = random.nextInt(300);
          long[] v = new long[n];
          for (int i = 0; i < n; i++) {
            long x =
                switch (random.nextInt(5)) {
                  case 0 -> 0;
                  case 1 -> -1;
                  case 2 -> random.nextInt(100);
                  case 3 -> Long.MIN_VALUE;
                  default -> random.nextLong();
                };
            v[i] = Values.extend(x, width, signed);
          }
          for (int encoding : ENCODINGS) {
            ByteSink p = new ByteSink();
            Values.encode(p, encoding, v, n, width);
            long[] back = Values.read(p.toByteArray(), signed, n);
            assertThat(back)
                .as("encoding %d width %d signed %s", encoding, width, signed)
                .containsExactly(v);
          }
        }
      }
    }
  }

  @Test
  void bitsHoldZerosAndOnes() {
    long[] v = new long[77];
    for (int i = 0; i < v.length; i++) {
      v[i] = (i * 7 % 3) == 0 ? 1 : 0;
    }
    ByteSink p = new ByteSink();
    Values.encode(p, Values.BITS, v, v.length, 1);
    assertThat(p.size()).as("77 bits, the encoding, width and count").isEqualTo(10 + 3);
    assertThat(Values.read(p.toByteArray(), false, v.length)).containsExactly(v);
  }

  @Test
  void theWriterKeepsWhatRoundTrips() {
    Random random = new Random(11);
    long[] v = new long[5000];
    for (int i = 0; i < v.length; i++) {
      v[i] = 1_700_000_000_000L + i * 1000L + random.nextInt(10);
    }
    try (Streams.Writer w = new Streams.Writer(3)) {
      ByteSink chosen = Values.write(w, v, v.length, 8, false);
      assertThat(chosen.array()[0])
          .as("deltas or frame of reference win on timestamps")
          .isIn((byte) Values.DELTA, (byte) Values.FOR);
      assertThat(Values.read(chosen.toByteArray(), true, v.length)).containsExactly(v);
    }
  }

  @Test
  void aDamagedStreamIsAColumnarException() {
    long[] v = {1, 2, 3, 400, 5};
    ByteSink p = new ByteSink();
    Values.encode(p, Values.VARINT, v, v.length, 4);
    byte[] bytes = p.toByteArray();
    byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 1);
    assertThatThrownBy(() -> Values.read(cut, false, 100)).isInstanceOf(ColumnarException.class);
    bytes[0] = 42;
    assertThatThrownBy(() -> Values.read(bytes, false, 100)).isInstanceOf(ColumnarException.class);
  }
}
