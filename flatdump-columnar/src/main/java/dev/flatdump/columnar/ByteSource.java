package dev.flatdump.columnar;

/**
 * Reads what a {@link ByteSink} wrote. Reading past the end, or a varint longer than 10 bytes, is a
 * {@link ColumnarException}: the copy is damaged.
 */
final class ByteSource {

  private final byte[] bytes;
  private int pos;
  private final int end;

  ByteSource(byte[] bytes) {
    this(bytes, 0, bytes.length);
  }

  ByteSource(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.pos = offset;
    this.end = offset + length;
  }

  int position() {
    return pos;
  }

  int remaining() {
    return end - pos;
  }

  byte[] array() {
    return bytes;
  }

  int read() {
    if (pos >= end) {
      throw truncated();
    }
    return bytes[pos++] & 0xff;
  }

  void skip(int n) {
    if (n < 0 || n > end - pos) {
      throw truncated();
    }
    pos += n;
  }

  long varint() {
    long v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (pos >= end) {
        throw truncated();
      }
      int b = bytes[pos++];
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
    throw new ColumnarException("damaged columnar copy: a varint longer than 10 bytes");
  }

  /** A varint that must fit a non-negative int. */
  int count() {
    long v = varint();
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new ColumnarException("damaged columnar copy: a count of " + Long.toUnsignedString(v));
    }
    return (int) v;
  }

  long zigzag() {
    long v = varint();
    return (v >>> 1) ^ -(v & 1);
  }

  long fixed(int width) {
    if (end - pos < width) {
      throw truncated();
    }
    long v = 0;
    for (int i = 0; i < width; i++) {
      v |= (bytes[pos++] & 0xffL) << (8 * i);
    }
    return v;
  }

  byte[] bytes(int n) {
    if (n < 0 || n > end - pos) {
      throw truncated();
    }
    byte[] out = java.util.Arrays.copyOfRange(bytes, pos, pos + n);
    pos += n;
    return out;
  }

  static ColumnarException truncated() {
    return new ColumnarException("damaged columnar copy: a stream ends early");
  }
}
