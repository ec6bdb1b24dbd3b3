package dev.flatdump.source;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ByteKeyedCacheTest {

  private static final byte[] A = "aaa".getBytes(US_ASCII);
  private static final byte[] B = "bbb".getBytes(US_ASCII);
  private static final byte[] C = "ccc".getBytes(US_ASCII);

  private final ByteKeyedCache<String> cache = new ByteKeyedCache<>(8, 16);

  private static int hash(byte[] key) {
    return ByteKeyedCache.hash(key, 0, key.length);
  }

  @Test
  void findsAValueByItsBytesAnywhereInAnArray() {
    byte[] key = "xxattr_001yy".getBytes(US_ASCII);
    int hash = ByteKeyedCache.hash(key, 2, 8);
    cache.put(key, 2, 8, hash, "attr_001");

    byte[] other = "attr_001".getBytes(US_ASCII);
    assertThat(hash(other)).isEqualTo(hash);
    assertThat(cache.get(other, 0, other.length, hash(other))).isEqualTo("attr_001");
  }

  @Test
  void keepsACopyOfTheKey() {
    byte[] key = "abc".getBytes(US_ASCII);
    cache.put(key, 0, 3, hash(key), "abc");
    key[0] = 'z';

    assertThat(cache.get(key, 0, 3, hash("abc".getBytes(US_ASCII)))).isNull();
    byte[] original = "abc".getBytes(US_ASCII);
    assertThat(cache.get(original, 0, 3, hash(original))).isEqualTo("abc");
  }

  @Test
  void comparesTheBytesNotJustTheHash() {
    byte[] a = "aaa".getBytes(US_ASCII);
    byte[] b = "bbb".getBytes(US_ASCII);
    cache.put(a, 0, 3, 42, "a");

    assertThat(cache.get(b, 0, 3, 42)).isNull();
    assertThat(cache.get(a, 0, 2, 42)).isNull();
    assertThat(cache.get(a, 0, 3, 42)).isEqualTo("a");
  }

  /**
   * Short keys: the slot's bytes after the key (left from a longer key) and the probe's bytes after
   * it must not count, and every byte of the key must.
   */
  @Test
  void comparesEveryByteOfAShortKeyAndNothingAfterIt() {
    ByteKeyedCache<String> wide =
        new ByteKeyedCache<>(1, 24); // one slot: each key replaces the last
    byte[] stale = "ZZZZZZZZZZZZZZZZZZZZZZZZ".getBytes(US_ASCII);
    for (int length = 0; length <= 20; length++) {
      wide.put(stale, 0, stale.length, 7, "stale"); // fills the slot's 24 bytes
      byte[] source = new byte[40];
      for (int i = 0; i < source.length; i++) {
        source[i] = (byte) ('a' + i % 26);
      }
      int from = 3;
      wide.put(source, from, length, 7, "key");
      for (int at = 0; at < source.length; at++) {
        byte[] probe = source.clone();
        probe[at] ^= 0x20;
        boolean inKey = at >= from && at < from + length;
        assertThat(wide.get(probe, from, length, 7))
            .as("length %d, byte %d changed", length, at)
            .isEqualTo(inKey ? null : "key");
      }
      // the key as the last bytes of an array, where a word would reach past its end
      byte[] tail = Arrays.copyOfRange(source, 0, from + length);
      assertThat(wide.get(tail, from, length, 7))
          .as("length %d at the end", length)
          .isEqualTo("key");
      if (length > 0) {
        tail[tail.length - 1] ^= 0x20;
        assertThat(wide.get(tail, from, length, 7)).as("length %d, end changed", length).isNull();
      }
    }
  }

  @Test
  void keepsTwoKeysWhoseHashesPickTheSameSlot() {
    cache.put(A, 0, 3, 5, "a");
    cache.put(B, 0, 3, 5 + 8, "b"); // the same slot of 8: b takes its neighbour

    assertThat(cache.get(A, 0, 3, 5)).isEqualTo("a");
    assertThat(cache.get(B, 0, 3, 13)).isEqualTo("b");
  }

  @Test
  void aThirdKeyOfASetEvictsTheLessRecentlyUsed() {
    cache.put(A, 0, 3, 4, "a"); // slots 4 and 5 are one set
    cache.put(B, 0, 3, 5, "b");
    assertThat(cache.get(A, 0, 3, 4)).isEqualTo("a"); // now b is the less recently used

    cache.put(C, 0, 3, 13, "c");

    assertThat(cache.get(B, 0, 3, 5)).isNull();
    assertThat(cache.get(A, 0, 3, 4)).isEqualTo("a");
    assertThat(cache.get(C, 0, 3, 13)).isEqualTo("c");

    cache.put(B, 0, 3, 5, "b"); // c was used after a: a goes
    assertThat(cache.get(A, 0, 3, 4)).isNull();
    assertThat(cache.get(C, 0, 3, 13)).isEqualTo("c");
    assertThat(cache.get(B, 0, 3, 5)).isEqualTo("b");
  }

  @Test
  void keysOfOtherSetsAreNotDisturbed() {
    cache.put(A, 0, 3, 2, "a"); // set {2, 3}
    cache.put(B, 0, 3, 4, "b"); // set {4, 5}
    for (String other : new String[] {"ccc", "ddd", "eee", "fff"}) {
      byte[] key = other.getBytes(US_ASCII);
      cache.put(key, 0, 3, 6, other); // set {6, 7}, full after two
    }

    assertThat(cache.get(A, 0, 3, 2)).isEqualTo("a");
    assertThat(cache.get(B, 0, 3, 4)).isEqualTo("b");
  }

  @Test
  void storingAKeyAgainReplacesItsValueWithoutAStaleCopy() {
    cache.put(A, 0, 3, 5, "old");
    cache.put(B, 0, 3, 13, "b"); // fills the other slot of the set
    cache.put(A, 0, 3, 5, "new");

    assertThat(cache.get(A, 0, 3, 5)).isEqualTo("new");
    assertThat(cache.get(B, 0, 3, 13)).isEqualTo("b");
    for (String other : new String[] {"ccc", "ddd", "eee"}) {
      byte[] key = other.getBytes(US_ASCII);
      cache.put(key, 0, 3, 21, other);
      assertThat(cache.get(A, 0, 3, 5)).isIn("new", null);
    }
  }

  @Test
  void aOneSlotCacheHoldsOneKey() {
    ByteKeyedCache<String> one = new ByteKeyedCache<>(1, 4);
    one.put(A, 0, 3, 7, "a");
    assertThat(one.get(A, 0, 3, 7)).isEqualTo("a");

    one.put(B, 0, 3, 9, "b");

    assertThat(one.get(A, 0, 3, 7)).isNull();
    assertThat(one.get(B, 0, 3, 9)).isEqualTo("b");
  }

  @Test
  void neverStoresAKeyLongerThanItsSlot() {
    byte[] longKey = new byte[17];
    cache.put(longKey, 0, 17, hash(longKey), "long");

    assertThat(cache.get(longKey, 0, 17, hash(longKey))).isNull();
  }

  @Test
  void hashesEveryByte() {
    // every length up to past four 16-byte steps: each tail shape, short keys byte by byte
    for (int length = 1; length <= 72; length++) {
      byte[] key = new byte[length];
      int base = hash(key);
      for (int i = 0; i < length; i++) {
        for (int bit = 0; bit < 8; bit++) {
          key[i] = (byte) (1 << bit);
          assertThat(hash(key)).as("length %d, byte %d, bit %d", length, i, bit).isNotEqualTo(base);
        }
        key[i] = 0;
      }
    }
  }

  @Test
  void hashesTheRangeNotTheArray() {
    byte[] key = "attr_0012345678".getBytes(US_ASCII);
    byte[] padded = new byte[key.length + 9];
    System.arraycopy(key, 0, padded, 5, key.length);
    padded[4] = 'x';
    padded[padded.length - 1] = 'y';

    assertThat(ByteKeyedCache.hash(padded, 5, key.length)).isEqualTo(hash(key));
  }

  @Test
  void wantsAPowerOfTwoSlots() {
    assertThatThrownBy(() -> new ByteKeyedCache<String>(6, 16))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("power of two");
  }
}
