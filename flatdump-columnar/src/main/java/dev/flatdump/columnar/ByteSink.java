package dev.flatdump.columnar;

import java.util.Arrays;

/**
 * A growable byte array written with little-endian integers and LEB128 varints. Not thread-safe.
 */
final class ByteSink {

  private byte[] bytes;
  private int size;

  ByteSink() {
    this(64);
  }

  ByteSink(int capacity) {
    bytes = new byte[Math.max(16, capacity)];
  }

  int size() {
    return size;
  }

  byte[] array() {
    return bytes;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }

  void clear() {
    size = 0;
  }

  private void ensure(int more) {
    if (size + more > bytes.length) {
      long wanted = Math.max((long) bytes.length * 2, (long) size + more);
      if (wanted > Integer.MAX_VALUE - 16) {
        throw new ColumnarException("a stream of the columnar copy would pass 2 GiB");
      }
      bytes = Arrays.copyOf(bytes, (int) wanted);
    }
  }

  void write(int b) {
    ensure(1);
    bytes[size++] = (byte) b;
  }

  void write(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, bytes, size, len);
    size += len;
  }

  void write(byte[] b) {
    write(b, 0, b.length);
  }

  /** An unsigned LEB128 varint: 7 bits a byte, low bits first. */
  void varint(long v) {
    ensure(10);
    while ((v & ~0x7FL) != 0) {
      bytes[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    bytes[size++] = (byte) v;
  }

  /** A signed value as a zig-zag varint: 0, -1, 1, -2, ... as 0, 1, 2, 3, ... */
  void zigzag(long v) {
    varint((v << 1) ^ (v >> 63));
  }

  /** The low {@code width} bytes of {@code v}, little-endian. */
  void fixed(long v, int width) {
    ensure(width);
    for (int i = 0; i < width; i++) {
      bytes[size++] = (byte) (v >>> (8 * i));
    }
  }
}
