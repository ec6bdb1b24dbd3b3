package dev.flatdump.encode.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * What a sub-document with exactly these BSON bytes became in this shard: the offset of its table
 * and the table's size. A small two-way set-associative cache that never grows ({@code slots ×
 * maxKeyBytes} bytes of keys): a key's hash picks a set of two slots, a new key takes the one used
 * less recently. So it stays small enough to live in the CPU's caches and keeps the sub-documents
 * that come back often; a miss only costs a decoding, and the table's de-dup still finds the table.
 *
 * <p>Between {@link #save} and {@link #restore}, every change (a key kept, a slot used) is logged,
 * so that a rejected document's keys, and the keys they pushed out, can be taken back exactly.
 *
 * <p>Not thread-safe. {@link #clear} at each new shard: offsets mean nothing in another buffer.
 */
final class BsonMemo {

  private static final long MIX = 0x9E3779B97F4A7C15L;
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final int mask;
  private final int maxKeyBytes;
  private final byte[] keys;

  /** Per slot: the key's hash, its length (-1 when empty), the offset, the table's size. */
  private final int[] meta;

  /** Per set: the slot of the two (0 or 1) that was last found or filled. */
  private final byte[] lastUsed;

  private int lastSize;

  /** Whether changes are logged: from the first {@link #save}. */
  private boolean logging;

  /**
   * Since the last {@link #save}, one entry of {@value #ENTRY} ints per change: {@link #USED}, the
   * set and its old {@link #lastUsed}; or {@link #SLOT}, the slot, its four old {@link #meta} and
   * where its old key's bytes are in {@link #oldKeys} (-1 when the key stays or was none).
   */
  private int[] log = new int[16 * ENTRY];

  private int logLength;
  private byte[] oldKeys = new byte[0];
  private int oldKeysLength;

  private static final int ENTRY = 7;
  private static final int USED = 0;
  private static final int SLOT = 1;

  /**
   * @param slots how many keys it holds at most, a power of two, at least 2
   * @param maxKeyBytes longer sub-documents are never kept
   */
  BsonMemo(int slots, int maxKeyBytes) {
    if (slots < 2 || Integer.bitCount(slots) != 1 || maxKeyBytes < 1) {
      throw new IllegalArgumentException(
          "slots must be a power of two >= 2 and maxKeyBytes positive, were "
              + slots
              + ", "
              + maxKeyBytes);
    }
    this.mask = slots - 1;
    this.maxKeyBytes = maxKeyBytes;
    this.keys = new byte[Math.multiplyExact(slots, maxKeyBytes)];
    this.meta = new int[4 * slots];
    this.lastUsed = new byte[slots / 2];
    clear();
  }

  /** Forgets every key. */
  void clear() {
    for (int s = 0; s <= mask; s++) {
      meta[4 * s + 1] = -1;
    }
    logLength = 0;
    oldKeysLength = 0;
  }

  /** Keeps the memo's state, for {@link #restore}: logs every change from now on. */
  void save() {
    logging = true;
    logLength = 0;
    oldKeysLength = 0;
  }

  /**
   * Takes the memo back to its state at the last {@link #save}, undoing the changes logged since,
   * last first: keys kept since are gone, those they replaced are back, and so is which slot of
   * each set was used last.
   */
  void restore() {
    for (int e = logLength - ENTRY; e >= 0; e -= ENTRY) {
      if (log[e] == USED) {
        lastUsed[log[e + 1]] = (byte) log[e + 2];
        continue;
      }
      int slot = log[e + 1];
      System.arraycopy(log, e + 2, meta, 4 * slot, 4);
      int at = log[e + 6];
      if (at >= 0) {
        System.arraycopy(oldKeys, at, keys, slot * maxKeyBytes, meta[4 * slot + 1]);
      }
    }
    logLength = 0;
    oldKeysLength = 0;
  }

  private int[] entry() {
    if (logLength + ENTRY > log.length) {
      log = Arrays.copyOf(log, 2 * log.length);
    }
    return log;
  }

  private void used(int set, int slot) {
    byte v = (byte) (slot & 1);
    if (lastUsed[set] == v) {
      return;
    }
    if (logging) {
      int[] l = entry();
      l[logLength] = USED;
      l[logLength + 1] = set;
      l[logLength + 2] = lastUsed[set];
      logLength += ENTRY;
    }
    lastUsed[set] = v;
  }

  /**
   * Logs the slot's state before it changes; with its key's bytes if {@code newKey} replaces it.
   */
  private void logSlot(int slot, boolean newKey) {
    int[] l = entry();
    l[logLength] = SLOT;
    l[logLength + 1] = slot;
    System.arraycopy(meta, 4 * slot, l, logLength + 2, 4);
    int length = meta[4 * slot + 1];
    int at = -1;
    if (newKey && length > 0) {
      if (oldKeysLength + length > oldKeys.length) {
        oldKeys = Arrays.copyOf(oldKeys, Math.max(oldKeysLength + length, 2 * oldKeys.length));
      }
      at = oldKeysLength;
      System.arraycopy(keys, slot * maxKeyBytes, oldKeys, at, length);
      oldKeysLength += length;
    }
    l[logLength + 6] = at;
    logLength += ENTRY;
  }

  /**
   * A hash of {@code b[from, to)}: four lanes of 8 bytes per step, whose multiplications do not
   * wait on each other, then the last bytes in one load.
   */
  static int hash(byte[] b, int from, int to) {
    int length = to - from;
    long x = length * MIX;
    long y = ~x;
    long z = x ^ 0x5555555555555555L;
    long w = y ^ 0x3333333333333333L;
    int i = from;
    for (; i + 32 <= to; i += 32) {
      x = Long.rotateLeft((x ^ (long) LONG_LE.get(b, i)) * MIX, 29);
      y = Long.rotateLeft((y ^ (long) LONG_LE.get(b, i + 8)) * MIX, 29);
      z = Long.rotateLeft((z ^ (long) LONG_LE.get(b, i + 16)) * MIX, 29);
      w = Long.rotateLeft((w ^ (long) LONG_LE.get(b, i + 24)) * MIX, 29);
    }
    x ^= Long.rotateLeft(z, 11);
    y ^= Long.rotateLeft(w, 43);
    for (; i + 16 <= to; i += 16) {
      x = Long.rotateLeft((x ^ (long) LONG_LE.get(b, i)) * MIX, 29);
      y = Long.rotateLeft((y ^ (long) LONG_LE.get(b, i + 8)) * MIX, 29);
    }
    if (i + 8 <= to) {
      x = Long.rotateLeft((x ^ (long) LONG_LE.get(b, i)) * MIX, 29);
      i += 8;
    }
    if (i < to && length >= 8) {
      y = Long.rotateLeft((y ^ (long) LONG_LE.get(b, to - 8)) * MIX, 29);
    } else {
      for (; i < to; i++) {
        x = (x ^ b[i]) * MIX;
      }
    }
    long h = x ^ Long.rotateLeft(y, 17);
    h ^= h >>> 32;
    return (int) (h ^ (h >>> 16));
  }

  /** The offset kept for exactly the bytes {@code b[from, to)} of hash {@code h}, or 0. */
  int find(byte[] b, int from, int to, int h) {
    int slot = slot(b, from, to, h);
    if (slot < 0) {
      return 0;
    }
    used(slot >> 1, slot);
    lastSize = meta[4 * slot + 3];
    return meta[4 * slot + 2];
  }

  /** The size of the table the last {@link #find} hit found. */
  int lastSize() {
    return lastSize;
  }

  /** Keeps the bytes {@code b[from, to)} of hash {@code h} as the table at {@code offset}. */
  void keep(byte[] b, int from, int to, int h, int offset, int size) {
    int length = to - from;
    if (length > maxKeyBytes) {
      return;
    }
    int slot = slot(b, from, to, h);
    if (slot < 0) {
      int home = h & mask;
      int other = home ^ 1;
      if (meta[4 * home + 1] < 0) {
        slot = home;
      } else if (meta[4 * other + 1] < 0) {
        slot = other;
      } else {
        slot = (home & ~1) | (1 - lastUsed[home >> 1]);
      }
      if (logging) {
        logSlot(slot, true);
      }
      System.arraycopy(b, from, keys, slot * maxKeyBytes, length);
      meta[4 * slot] = h;
      meta[4 * slot + 1] = length;
    } else if (logging) {
      logSlot(slot, false);
    }
    meta[4 * slot + 2] = offset;
    meta[4 * slot + 3] = size;
    used(slot >> 1, slot);
  }

  private int slot(byte[] b, int from, int to, int h) {
    int home = h & mask;
    if (holds(home, b, from, to, h)) {
      return home;
    }
    int other = home ^ 1;
    return holds(other, b, from, to, h) ? other : -1;
  }

  private boolean holds(int slot, byte[] b, int from, int to, int h) {
    int length = to - from;
    if (meta[4 * slot] != h || meta[4 * slot + 1] != length) {
      return false;
    }
    int key = slot * maxKeyBytes;
    return Arrays.equals(keys, key, key + length, b, from, to);
  }
}
