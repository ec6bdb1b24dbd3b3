package dev.flatdump.columnar;

import java.util.Arrays;

/** A growable list of longs. */
final class LongList {
  long[] values = new long[16];
  int size;

  void add(long v) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = v;
  }
}
