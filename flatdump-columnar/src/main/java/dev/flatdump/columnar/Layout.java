package dev.flatdump.columnar;

/**
 * Where FlatBufferBuilder puts each object, measured from the buffer's end: the start it predicts
 * for an object written after the one starting at {@code o}. The copy stores only where a start
 * differs from this prediction.
 */
final class Layout {

  private Layout() {}

  /** A string of {@code length} bytes: its 0, padding to 4 after its bytes, its length. */
  static int string(int o, int length) {
    return ((o + 1 + length + 3) & ~3) + 4;
  }

  /** A vector of {@code n} elements of {@code width} bytes aligned to {@code alignment}. */
  static int vector(int o, int n, int width, int alignment) {
    int bytes = n * width;
    int o1 = o + ((-(o + bytes)) & 3);
    if (alignment > 4) {
      o1 += (-(o1 + bytes)) & (alignment - 1);
    }
    return o1 + bytes + 4;
  }

  /** A table (its padding inside it) or a vtable, right below the object before it. */
  static int object(int o, int size) {
    return o + size;
  }
}
