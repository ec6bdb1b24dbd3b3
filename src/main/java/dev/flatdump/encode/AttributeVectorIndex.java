package dev.flatdump.encode;

import java.nio.ByteBuffer;
import java.util.function.Supplier;

/**
 * Finds an already written attribute vector with the same table offsets, by comparing against the
 * vector in the builder's buffer itself: the index keeps only a hash and the vector's offset per
 * vector (about 11 bytes each), not a copy of its elements.
 *
 * <p>A FlatBuffers vector of tables holds, per element, the distance from that element to its table
 * ({@code uoffset}); this class turns those back into table offsets (counted from the end of the
 * buffer, like every builder offset) to compare. Not thread-safe; lives and dies with one builder.
 */
final class AttributeVectorIndex {

  private static final int INITIAL_CAPACITY = 1 << 12;

  private final Supplier<ByteBuffer> buffer;

  /** Per slot: the hash, then the vector's offset; an offset of 0 marks an empty slot. */
  private int[] slots;

  private int mask;
  private int size;

  /**
   * @param buffer the builder's current backing buffer (little-endian; it changes when the builder
   *     grows, and the data keeps its distance from the buffer's end)
   */
  AttributeVectorIndex(Supplier<ByteBuffer> buffer) {
    this.buffer = buffer;
    allocate(INITIAL_CAPACITY);
  }

  static int hash(int[] tables, int count) {
    long h = count;
    for (int i = 0; i < count; i++) {
      h = (h + tables[i]) * 0x9E3779B97F4A7C15L;
      h ^= h >>> 29;
    }
    return (int) (h ^ (h >>> 32));
  }

  /** The offset of a vector holding exactly these tables in this order, or 0 if there is none. */
  int get(int[] tables, int count, int hash) {
    ByteBuffer bb = buffer.get();
    for (int slot = hash & mask; slots[2 * slot + 1] != 0; slot = (slot + 1) & mask) {
      int vector = slots[2 * slot + 1];
      if (slots[2 * slot] == hash && holds(bb, vector, tables, count)) {
        return vector;
      }
    }
    return 0;
  }

  /** Stores a vector that {@link #get} did not find. */
  void put(int hash, int vector) {
    if (vector <= 0) {
      throw new IllegalArgumentException("vector offset must be positive, was " + vector);
    }
    if (size + 1 > (mask + 1) / 4 * 3) {
      grow();
    }
    insert(hash, vector);
    size++;
  }

  int size() {
    return size;
  }

  private static boolean holds(ByteBuffer bb, int vector, int[] tables, int count) {
    int start = bb.capacity() - vector; // the length, then the elements
    if (bb.getInt(start) != count) {
      return false;
    }
    for (int i = 0; i < count; i++) {
      int element = start + Integer.BYTES * (i + 1);
      // The element at `element` points `uoffset` bytes further: to capacity - table.
      int table = bb.capacity() - (element + bb.getInt(element));
      if (table != tables[i]) {
        return false;
      }
    }
    return true;
  }

  private void insert(int hash, int vector) {
    int slot = hash & mask;
    while (slots[2 * slot + 1] != 0) {
      slot = (slot + 1) & mask;
    }
    slots[2 * slot] = hash;
    slots[2 * slot + 1] = vector;
  }

  private void grow() {
    int[] old = slots;
    allocate(old.length);
    for (int i = 0; i < old.length; i += 2) {
      if (old[i + 1] != 0) {
        insert(old[i], old[i + 1]);
      }
    }
  }

  private void allocate(int capacity) {
    slots = new int[2 * capacity];
    mask = capacity - 1;
  }
}
