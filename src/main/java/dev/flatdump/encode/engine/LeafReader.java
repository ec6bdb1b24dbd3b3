package dev.flatdump.encode.engine;

/**
 * Checks that a sub-document is laid out as one {@link LeafShape}, as {@link LeafShape#match} does,
 * and reads its scalars, each from its place, checked as the mapping rules say, into the scratch's
 * bits. Generated per layout by {@link LeafReaders}; the values that convert are not its business.
 */
interface LeafReader {

  /**
   * What {@link #read} returns when the sub-document is not laid out as the shape, or a value does
   * not fit its field.
   */
  long NO = Long.MIN_VALUE;

  /**
   * The fields to write, from the layout's fields always written and each scalar read away from its
   * default; or {@link #NO} if the sub-document is not in the layout, a value is out of its field's
   * range, or a bool is neither 0 nor 1.
   *
   * @param b the document's bytes
   * @param start where the sub-document starts (its size was checked)
   * @param end where it ends
   * @param segmentAt where each of the layout's segments starts, as {@link LeafShape#match} finds
   * @param bits by field index, where each value read goes
   */
  long read(byte[] b, int start, int end, int[] segmentAt, long[] bits);
}
