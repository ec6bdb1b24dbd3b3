package dev.flatdump.encode.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FieldKindTest {

  private static final EnumSet<FieldKind> UNSIGNED =
      EnumSet.of(FieldKind.UBYTE, FieldKind.USHORT, FieldKind.UINT, FieldKind.ULONG);

  @Test
  void integerRangesAreJavasOwn() {
    Map<FieldKind, long[]> expected =
        Map.of(
            FieldKind.BYTE, new long[] {Byte.MIN_VALUE, Byte.MAX_VALUE},
            FieldKind.UBYTE, new long[] {0, Byte.toUnsignedLong((byte) -1)},
            FieldKind.SHORT, new long[] {Short.MIN_VALUE, Short.MAX_VALUE},
            FieldKind.USHORT, new long[] {0, Short.toUnsignedLong((short) -1)},
            FieldKind.INT, new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE},
            FieldKind.UINT, new long[] {0, Integer.toUnsignedLong(-1)},
            FieldKind.LONG, new long[] {Long.MIN_VALUE, Long.MAX_VALUE},
            FieldKind.ULONG, new long[] {0, Long.MAX_VALUE});

    for (FieldKind kind : FieldKind.values()) {
      assertThat(expected.containsKey(kind)).as("%s", kind).isEqualTo(kind.isInteger());
    }
    expected.forEach(
        (kind, range) -> {
          assertThat(kind.min()).as("%s min", kind).isEqualTo(range[0]);
          assertThat(kind.max()).as("%s max", kind).isEqualTo(range[1]);
        });
  }

  @ParameterizedTest
  @EnumSource(
      value = FieldKind.class,
      names = {"BYTE", "UBYTE", "SHORT", "USHORT", "INT", "UINT", "LONG", "ULONG"})
  void fitsExactlyTheValuesOfItsWidth(FieldKind kind) {
    // a signed kind of n bits holds -2^(n-1) .. 2^(n-1) - 1, an unsigned one 0 .. 2^n - 1
    int bits = 8 * kind.inlineSize();
    boolean unsigned = UNSIGNED.contains(kind);
    BigInteger min = unsigned ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(bits - 1).negate();
    BigInteger max = BigInteger.ONE.shiftLeft(unsigned ? bits : bits - 1).subtract(BigInteger.ONE);

    assertThat(kind.fits(min)).isTrue();
    assertThat(kind.fits(max)).isTrue();
    assertThat(kind.fits(min.subtract(BigInteger.ONE))).isFalse();
    assertThat(kind.fits(max.add(BigInteger.ONE))).isFalse();
    for (BigInteger v :
        new BigInteger[] {min, max, min.subtract(BigInteger.ONE), max.add(BigInteger.ONE)}) {
      if (v.bitLength() < Long.SIZE) {
        assertThat(kind.fits(v.longValue())).as("%s fits %s", kind, v).isEqualTo(kind.fits(v));
      }
    }
    assertThat(kind.fits(kind.min())).isTrue();
    assertThat(kind.fits(kind.max())).isTrue();
    assertThat(kind.fits(0)).isTrue();
    assertThat(kind.fits(-1)).isEqualTo(!unsigned);
  }

  @Test
  void aUlongTakesNoNegativeLongButItsUpperHalfAsABigInteger() {
    BigInteger largest = new BigInteger(Long.toUnsignedString(-1));

    assertThat(FieldKind.ULONG.fits(-1L)).isFalse();
    assertThat(FieldKind.ULONG.fits(Long.MIN_VALUE)).isFalse();
    assertThat(FieldKind.ULONG.fits(largest)).isTrue();
    assertThat(FieldKind.ULONG.fits(BigInteger.ONE.shiftLeft(63))).isTrue();
    assertThat(FieldKind.ULONG.fits(largest.add(BigInteger.ONE))).isFalse();
    assertThat(FieldKind.LONG.fits(BigInteger.ONE.shiftLeft(63))).isFalse();
    assertThat(FieldKind.LONG.fits(BigInteger.ONE.shiftLeft(63).negate())).isTrue();
    assertThat(FieldKind.LONG.fits(BigInteger.ONE.shiftLeft(63).negate().subtract(BigInteger.ONE)))
        .isFalse();
  }

  @ParameterizedTest
  @EnumSource(
      value = FieldKind.class,
      names = {"BOOL", "FLOAT", "DOUBLE", "STRING", "STRUCT", "TABLE", "VECTOR"})
  void aKindThatIsNoIntegerHasNoRange(FieldKind kind) {
    assertThatThrownBy(kind::min)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not an integer kind: " + kind);
    assertThatThrownBy(kind::max).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> kind.fits(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> kind.fits(BigInteger.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
