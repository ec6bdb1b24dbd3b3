package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AttributeTableIndexTest {

  @Test
  void findsEveryStoredKeyAfterGrowing() {
    var index = new AttributeTableIndex();
    int keys = 50_000;
    for (int i = 0; i < keys; i++) {
      index.put(scalars(i), Double.doubleToLongBits(i * 0.5), i + 1);
    }

    assertThat(index.size()).isEqualTo(keys);
    for (int i = 0; i < keys; i++) {
      assertThat(index.get(scalars(i), Double.doubleToLongBits(i * 0.5))).isEqualTo(i + 1);
    }
  }

  @Test
  void returnsZeroForAbsentKeys() {
    var index = new AttributeTableIndex();
    index.put(scalars(1), Double.doubleToLongBits(0.0), 10);

    assertThat(index.get(scalars(1), Double.doubleToLongBits(-0.0))).isZero();
    assertThat(index.get(scalars(2), Double.doubleToLongBits(0.0))).isZero();
  }

  @Test
  void packsEveryScalarIntoItsOwnBits() {
    long base = AttributeTableIndex.scalars(7, (byte) 0, (byte) 0, (short) 0, false);

    assertThat(
            new long[] {
              AttributeTableIndex.scalars(Integer.MAX_VALUE, (byte) 0, (byte) 0, (short) 0, false),
              AttributeTableIndex.scalars(7, (byte) -1, (byte) 0, (short) 0, false),
              AttributeTableIndex.scalars(7, (byte) 0, (byte) -1, (short) 0, false),
              AttributeTableIndex.scalars(7, (byte) 0, (byte) 0, (short) -1, false),
              AttributeTableIndex.scalars(7, (byte) 0, (byte) 0, (short) 0, true),
              AttributeTableIndex.scalars(8, (byte) 0, (byte) 0, (short) 0, false),
              AttributeTableIndex.scalars(7, (byte) -1, (byte) -1, (short) -1, true)
            })
        .doesNotContain(base)
        .doesNotHaveDuplicates();
  }

  private static long scalars(int i) {
    return AttributeTableIndex.scalars(i / 7 + 1, (byte) i, (byte) (i >> 8), (short) i, i % 3 == 0);
  }
}
