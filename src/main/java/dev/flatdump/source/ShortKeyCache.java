package dev.flatdump.source;

/**
 * A small two-way set-associative cache from keys of up to {@value #MAX_BYTES} bytes to values, as
 * {@link ByteKeyedCache} but with each key held as two words instead of a byte range: the key's
 * bytes in little-endian order, the bytes after it zero, and its length in the top byte of the
 * second word ({@link #first}, {@link #second}). Two words say exactly which bytes the key is, so a
 * lookup is a multiply for the set and two word compares per way, in the 32 bytes of keys its set
 * has side by side: for the short attribute ids, categories and countries that repeat in every
 * document.
 *
 * <p>A new key takes the way of its set that was used less recently. Never grows. Not thread-safe:
 * one cache per decoding thread.
 */
final class ShortKeyCache<V> {

  /** The longest key: its last byte still leaves the second word's top byte for the length. */
  static final int MAX_BYTES = 15;

  private final int shift;

  /** Per slot (two per set, side by side): the key's first word, then its second. */
  private final long[] keys;

  private final Object[] values;

  /** Per set: the way (0 or 1) that was last found or filled. */
  private final byte[] lastUsed;

  /**
   * @param sets how many sets of two keys, a power of two of at least 2
   */
  ShortKeyCache(int sets) {
    if (sets < 2 || Integer.bitCount(sets) != 1) {
      throw new IllegalArgumentException("sets must be a power of two >= 2, was " + sets);
    }
    this.shift = Long.SIZE - Integer.numberOfTrailingZeros(sets);
    this.keys = new long[4 * sets];
    this.values = new Object[2 * sets];
    this.lastUsed = new byte[sets];
  }

  /**
   * Whether {@link #first} and {@link #second} can read the key {@code [from, from + length)} of
   * {@code bytes}: at most {@value #MAX_BYTES} bytes, and 16 bytes readable from its start (the
   * words read past its end).
   */
  static boolean fits(byte[] bytes, int from, int length) {
    return length <= MAX_BYTES && from >= 0 && bytes.length - from >= 2 * Long.BYTES;
  }

  /**
   * The key's first word: its first 8 bytes, those past its end zero. Only where it {@link #fits}.
   */
  static long first(byte[] bytes, int from, int length) {
    return BsonBytes.int64At(bytes, from) & BsonBytes.lowBytes(length);
  }

  /** The key's second word: its bytes 8..14, those past its end zero, and its length on top. */
  static long second(byte[] bytes, int from, int length) {
    return BsonBytes.int64At(bytes, from + Long.BYTES) & BsonBytes.lowBytes(length - Long.BYTES)
        | (long) length << 56;
  }

  /** The value stored for this key ({@link #first}, {@link #second}), or null. */
  @SuppressWarnings("unchecked")
  V get(long first, long second) {
    int set = set(first, second);
    int slot = 2 * set;
    if (keys[2 * slot] == first && keys[2 * slot + 1] == second) {
      lastUsed[set] = 0;
      return (V) values[slot];
    }
    if (keys[2 * slot + 2] == first && keys[2 * slot + 3] == second) {
      lastUsed[set] = 1;
      return (V) values[slot + 1];
    }
    return null;
  }

  /**
   * Stores the value for a key that {@link #get} did not find: in an empty way of its set, else
   * over the less recently used one.
   */
  void put(long first, long second, V value) {
    int set = set(first, second);
    int way;
    if (values[2 * set] == null) {
      way = 0;
    } else if (values[2 * set + 1] == null) {
      way = 1;
    } else {
      way = 1 - lastUsed[set];
    }
    int slot = 2 * set + way;
    keys[2 * slot] = first;
    keys[2 * slot + 1] = second;
    values[slot] = value;
    lastUsed[set] = (byte) way;
  }

  /** The set of a key; package-private for tests. */
  int set(long first, long second) {
    long h = (first * 0x9E3779B97F4A7C15L) ^ (second * 0xC2B2AE3D27D4EB4FL);
    return (int) ((h ^ (h >>> 29)) * 0x9E3779B97F4A7C15L >>> shift);
  }
}
