package dev.flatdump.source;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A small direct-mapped cache from byte ranges to values: what a string or an attribute decoded
 * from these exact BSON bytes came out as last time. Each key has one slot, chosen by its hash,
 * holding a copy of its bytes; a new key overwrites whatever was there. So the cache never grows
 * ({@code slots × maxKeyBytes} bytes of keys), stays small enough to live in the CPU's cache, keeps
 * the keys that come back often, and needs no eviction policy.
 *
 * <p>Not thread-safe: one cache per decoding thread.
 */
final class ByteKeyedCache<V> {

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long MIX = 0x9E3779B97F4A7C15L;

  private final int mask;
  private final int maxKeyBytes;
  private final byte[] keys;

  /** Per slot: the key's hash, then its length. */
  private final int[] meta;

  private final Object[] values;

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
  }

  /** A hash of {@code bytes[from, from + length)}, for {@link #get} and {@link #put}. */
  static int hash(byte[] bytes, int from, int length) {
    // Two independent lanes of 16 bytes per step: the multiplications do not wait on each other.
    long a = length * MIX;
    long b = ~a;
    int i = from;
    int end = from + length;
    for (; i + 2 * Long.BYTES <= end; i += 2 * Long.BYTES) {
      a = Long.rotateLeft((a ^ (long) LONGS.get(bytes, i)) * MIX, 29);
      b = Long.rotateLeft((b ^ (long) LONGS.get(bytes, i + Long.BYTES)) * MIX, 29);
    }
    if (i + Long.BYTES <= end) {
      a = Long.rotateLeft((a ^ (long) LONGS.get(bytes, i)) * MIX, 29);
      i += Long.BYTES;
    }
    if (i < end && length >= Long.BYTES) {
      // The last 1..7 bytes in one step: the 8 bytes that end the key, some of them hashed above.
      b = Long.rotateLeft((b ^ (long) LONGS.get(bytes, end - Long.BYTES)) * MIX, 29);
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
    int slot = hash & mask;
    Object value = values[slot];
    if (value != null && meta[2 * slot] == hash && meta[2 * slot + 1] == length) {
      int key = slot * maxKeyBytes;
      if (Arrays.equals(keys, key, key + length, bytes, from, from + length)) {
        return (V) value;
      }
    }
    return null;
  }

  /** Stores the value for these bytes in their slot, unless the key is longer than allowed. */
  void put(byte[] bytes, int from, int length, int hash, V value) {
    if (length > maxKeyBytes) {
      return;
    }
    int slot = hash & mask;
    System.arraycopy(bytes, from, keys, slot * maxKeyBytes, length);
    meta[2 * slot] = hash;
    meta[2 * slot + 1] = length;
    values[slot] = value;
  }
}
