package dev.flatdump.columnar;

import java.util.Arrays;

/** A growable list of ints. */
final class IntList {
  int[] values = new int[8];
  int size;

  void add(int v) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = v;
  }

  int get(int i) {
    return values[i];
  }
}
