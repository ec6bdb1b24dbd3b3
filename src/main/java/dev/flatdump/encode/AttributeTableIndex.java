package dev.flatdump.encode;

/**
 * Finds an already written {@code Attribute} table by its content, keyed on primitives: a number
 * that stands for its id (the builder's choice: the offset of the shared id string, or a number per
 * distinct id), its four small scalars and the bits of its {@code percent}.
 *
 * <p>An open-addressing table with linear probing over parallel primitive arrays, so a lookup
 * neither hashes nor compares a String, nor allocates. About 27 bytes per table at most. Not
 * thread-safe; lives and dies with one builder.
 */
final class AttributeTableIndex {

  private static final int INITIAL_CAPACITY = 1 << 12;

  /** Two longs per slot: {@link #scalars} and the percent bits. */
  private long[] keys;

  /** The table offset per slot; 0 marks an empty slot, as no FlatBuffers offset is 0. */
  private int[] offsets;

  private int mask;
  private int size;

  AttributeTableIndex() {
    allocate(INITIAL_CAPACITY);
  }

  /**
   * Packs an attribute's id key and small scalars into one long: the key (non-negative, 31 bits) in
   * bits 33..63, active in bit 32, quantity, amount and size in the low 32 bits.
   */
  static long scalars(int idKey, byte quantity, byte amount, short size, boolean active) {
    return ((long) idKey << 33)
        | (active ? 1L << 32 : 0L)
        | (quantity & 0xFFL) << 24
        | (amount & 0xFFL) << 16
        | (size & 0xFFFFL);
  }

  /** The offset stored for this key, or 0 if there is none. */
  int get(long scalars, long percentBits) {
    int slot = slot(scalars, percentBits);
    while (offsets[slot] != 0) {
      if (keys[2 * slot] == scalars && keys[2 * slot + 1] == percentBits) {
        return offsets[slot];
      }
      slot = (slot + 1) & mask;
    }
    return 0;
  }

  /** Stores a key that {@link #get} did not find. */
  void put(long scalars, long percentBits, int offset) {
    if (offset <= 0) {
      throw new IllegalArgumentException("offset must be positive, was " + offset);
    }
    if (size + 1 > (mask + 1) / 4 * 3) {
      grow();
    }
    insert(scalars, percentBits, offset);
    size++;
  }

  int size() {
    return size;
  }

  private void insert(long scalars, long percentBits, int offset) {
    int slot = slot(scalars, percentBits);
    while (offsets[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    keys[2 * slot] = scalars;
    keys[2 * slot + 1] = percentBits;
    offsets[slot] = offset;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldOffsets = offsets;
    allocate(oldOffsets.length * 2);
    for (int i = 0; i < oldOffsets.length; i++) {
      if (oldOffsets[i] != 0) {
        insert(oldKeys[2 * i], oldKeys[2 * i + 1], oldOffsets[i]);
      }
    }
  }

  private void allocate(int capacity) {
    keys = new long[2 * capacity];
    offsets = new int[capacity];
    mask = capacity - 1;
  }

  private int slot(long scalars, long percentBits) {
    // Murmur3's 64-bit finalizer over both halves: ids and scalars are dense, small numbers.
    long h = scalars * 0x9E3779B97F4A7C15L + percentBits;
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    return (int) h & mask;
  }
}
