package dev.flatdump.encode.engine;

import java.util.Arrays;

/**
 * What the walk of one table (or of one vector) keeps until the table is built: each field's scalar
 * bits, child offset or struct bytes, and whether it was present; and a vector's elements. One per
 * nesting depth, reused from one document to the next.
 */
final class Scratch {

  long[] bits = new long[8];
  int[] offsets = new int[8];
  byte[][] structs = new byte[8][];
  boolean[] present = new boolean[8];

  /** Whether the field was given at all, null included: a field given twice rejects. */
  boolean[] given = new boolean[8];

  long[] elementBits = new long[16];
  int[] elementOffsets = new int[16];
  byte[][] elementStructs = new byte[16][];

  /** Clears the fields for a table of {@code n} fields. */
  void reset(int n) {
    if (present.length < n) {
      room(n);
    } else {
      Arrays.fill(present, 0, n, false);
      Arrays.fill(given, 0, n, false);
    }
  }

  /**
   * Makes room for a table of {@code n} fields, keeping nothing: one depth's scratch serves tables
   * of every type that stands at that depth.
   */
  void room(int n) {
    if (present.length < n) {
      bits = new long[n];
      offsets = new int[n];
      structs = new byte[n][];
      present = new boolean[n];
      given = new boolean[n];
    }
  }

  /** Makes room for element {@code i} of a vector. */
  void elementRoom(int i) {
    if (i >= elementBits.length) {
      int n = Math.max(i + 1, elementBits.length * 2);
      elementBits = Arrays.copyOf(elementBits, n);
      elementOffsets = Arrays.copyOf(elementOffsets, n);
      elementStructs = Arrays.copyOf(elementStructs, n);
    }
  }
}
