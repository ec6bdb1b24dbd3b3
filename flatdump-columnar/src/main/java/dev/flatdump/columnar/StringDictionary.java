package dev.flatdump.columnar;

import java.util.Arrays;

/**
 * One column's distinct strings, as positions in the shard, by their bytes: the index each was
 * first given. Open addressing over a hash of the bytes; equal hashes compare the bytes.
 */
final class StringDictionary {
  private final byte[] shard;
  private int[] slots = new int[64]; // literal index + 1, 0 for empty
  private int[] hashes = new int[64];
  private final IntList at = new IntList();
  private final IntList length = new IntList();

  StringDictionary(byte[] shard) {
    this.shard = shard;
  }

  int size() {
    return at.size;
  }

  /** Strings looked up before deciding whether the column repeats enough to keep looking. */
  private static final int TRIAL = 4096;

  private int lookups;
  private int hits;
  private boolean off;

  /**
   * The index of the string {@code shard[p, p + n)}, or {@code -1 - index} with the next index when
   * it is new. A column whose first {@value #TRIAL} strings hardly repeat (a shard that shares
   * equal strings holds each once) stops looking: each later string is new, its index the next.
   */
  int indexOf(int p, int n) {
    if (off) {
      at.add(p);
      length.add(n);
      return -at.size;
    }
    if (++lookups == TRIAL && hits * 50 < TRIAL) {
      off = true;
    }
    int h = hash(p, n);
    int mask = slots.length - 1;
    int i = h & mask;
    while (true) {
      int s = slots[i];
      if (s == 0) {
        int index = at.size;
        at.add(p);
        length.add(n);
        slots[i] = index + 1;
        hashes[i] = h;
        if (at.size * 2 > slots.length) {
          grow();
        }
        return -1 - index;
      }
      if (hashes[i] == h) {
        int k = s - 1;
        int q = at.values[k];
        if (length.values[k] == n && Arrays.equals(shard, p, p + n, shard, q, q + n)) {
          hits++;
          return k;
        }
      }
      i = (i + 1) & mask;
    }
  }

  private int hash(int p, int n) {
    int h = n * 0x9E3779B1;
    for (int i = p; i < p + n; i++) {
      h = (h ^ shard[i]) * 0x01000193;
    }
    return h ^ (h >>> 15);
  }

  private void grow() {
    int[] oldSlots = slots;
    int[] oldHashes = hashes;
    slots = new int[oldSlots.length * 2];
    hashes = new int[oldSlots.length * 2];
    int mask = slots.length - 1;
    for (int j = 0; j < oldSlots.length; j++) {
      if (oldSlots[j] != 0) {
        int i = oldHashes[j] & mask;
        while (slots[i] != 0) {
          i = (i + 1) & mask;
        }
        slots[i] = oldSlots[j];
        hashes[i] = oldHashes[j];
      }
    }
  }
}
