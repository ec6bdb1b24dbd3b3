package dev.flatdump.source;

import java.util.Arrays;

/**
 * A small two-way set-associative cache from byte ranges to values: what a string or an attribute
 * decoded from these exact BSON bytes came out as last time. A key's hash picks a set of two slots
 * (a slot and its neighbour), each holding a copy of a key's bytes; a new key takes the slot of its
 * set that was used less recently. So the cache never grows ({@code slots × maxKeyBytes} bytes of
 * keys), stays small enough to live in the CPU's cache and keeps the keys that come back often. Two
 * ways rather than one because a few frequent keys always share a slot by their hashes (3 pairs of
 * the 400 ids {@code attr_000}..{@code attr_399} in 16K slots, when those were kept here; strings
 * of up to 15 bytes now have {@link ShortKeyCache}, while longer ids such as the articles' 24
 * characters still come here), and with one way each pair evicted the other on every other use.
 *
 * <p>Not thread-safe: one cache per decoding thread.
 */
final class ByteKeyedCache<V> {

  private static final long MIX = 0x9E3779B97F4A7C15L;

  private final int mask;
  private final int maxKeyBytes;
  private final byte[] keys;

  /** Per slot: the key's hash, then its length. */
  private final int[] meta;

  private final Object[] values;

  /** Per set: the slot of the two (0 or 1) that was last found or filled. */
  private final byte[] lastUsed;

  /**
   * @param slots how many keys it holds at most, a power of two
   * @param maxKeyBytes longer keys are never stored
   */
  ByteKeyedCache(int slots, int maxKeyBytes) {
    if (slots < 1 || Integer.bitCount(slots) != 1 || maxKeyBytes < 1) {
      throw new IllegalArgumentException(
          "slots must be a power of two and maxKeyBytes positive, were "
              + slots
              + ", "
              + maxKeyBytes);
    }
    this.mask = slots - 1;
    this.maxKeyBytes = maxKeyBytes;
    this.keys = new byte[Math.multiplyExact(slots, maxKeyBytes)];
    this.meta = new int[2 * slots];
    this.values = new Object[slots];
    this.lastUsed = new byte[Math.max(1, slots / 2)];
  }

  /** A hash of {@code bytes[from, from + length)}, for {@link #get} and {@link #put}. */
  static int hash(byte[] bytes, int from, int length) {
    // Two independent lanes of 16 bytes per step: the multiplications do not wait on each other.
    long a = length * MIX;
    long b = ~a;
    int i = from;
    int end = from + length;
    for (; i + 2 * Long.BYTES <= end; i += 2 * Long.BYTES) {
      a = Long.rotateLeft((a ^ BsonBytes.int64At(bytes, i)) * MIX, 29);
      b = Long.rotateLeft((b ^ BsonBytes.int64At(bytes, i + Long.BYTES)) * MIX, 29);
    }
    if (i + Long.BYTES <= end) {
      a = Long.rotateLeft((a ^ BsonBytes.int64At(bytes, i)) * MIX, 29);
      i += Long.BYTES;
    }
    if (i < end && length >= Long.BYTES) {
      // The last 1..7 bytes in one step: the 8 bytes that end the key, some of them hashed above.
      b = Long.rotateLeft((b ^ BsonBytes.int64At(bytes, end - Long.BYTES)) * MIX, 29);
    } else {
      for (; i < end; i++) {
        a = (a ^ bytes[i]) * MIX;
      }
    }
    long h = a ^ Long.rotateLeft(b, 17);
    h ^= h >>> 32;
    return (int) (h ^ (h >>> 16));
  }

  /** The value stored for exactly these bytes, or null. */
  @SuppressWarnings("unchecked")
  V get(byte[] bytes, int from, int length, int hash) {
    int slot = find(bytes, from, length, hash);
    if (slot < 0) {
      return null;
    }
    lastUsed[slot >> 1] = (byte) (slot & 1);
    return (V) values[slot];
  }

  /**
   * Stores the value for these bytes, unless the key is longer than allowed: over the key's earlier
   * value if it has one, else in an empty slot of its set, else over the set's less recently used
   * key.
   */
  void put(byte[] bytes, int from, int length, int hash, V value) {
    if (length > maxKeyBytes) {
      return;
    }
    int slot = find(bytes, from, length, hash);
    if (slot < 0) {
      int home = hash & mask;
      int other = home ^ 1;
      if (values[home] == null || mask == 0) {
        slot = home;
      } else if (values[other] == null) {
        slot = other;
      } else {
        slot = (home & ~1) | (1 - lastUsed[home >> 1]);
      }
      System.arraycopy(bytes, from, keys, slot * maxKeyBytes, length);
      meta[2 * slot] = hash;
      meta[2 * slot + 1] = length;
    }
    values[slot] = value;
    lastUsed[slot >> 1] = (byte) (slot & 1);
  }

  /** The slot holding exactly these bytes, or -1: the key's own slot first, then its neighbour. */
  private int find(byte[] bytes, int from, int length, int hash) {
    int home = hash & mask;
    if (holds(home, bytes, from, length, hash)) {
      return home;
    }
    int other = home ^ 1;
    return mask != 0 && holds(other, bytes, from, length, hash) ? other : -1;
  }

  private boolean holds(int slot, byte[] bytes, int from, int length, int hash) {
    if (values[slot] == null || meta[2 * slot] != hash || meta[2 * slot + 1] != length) {
      return false;
    }
    int key = slot * maxKeyBytes;
    return Arrays.equals(keys, key, key + length, bytes, from, from + length);
  }
}
