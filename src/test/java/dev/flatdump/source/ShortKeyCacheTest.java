package dev.flatdump.source;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShortKeyCacheTest {

  /** A key's two words, read from {@code source} at {@code from}. */
  private record Key(long first, long second) {
    static Key of(byte[] source, int from, int length) {
      assertThat(ShortKeyCache.fits(source, from, length)).isTrue();
      return new Key(
          ShortKeyCache.first(source, from, length), ShortKeyCache.second(source, from, length));
    }

    /** The key alone, followed by bytes that must not count. */
    static Key of(String key) {
      byte[] source = (key + "#################").getBytes(US_ASCII);
      return of(source, 0, key.length());
    }
  }

  private static String get(ShortKeyCache<String> cache, Key key) {
    return cache.get(key.first(), key.second());
  }

  private static void put(ShortKeyCache<String> cache, Key key) {
    cache.put(key.first(), key.second(), "value of " + key);
  }

  @Test
  void findsAValueByItsBytesAnywhereInAnArray() {
    var cache = new ShortKeyCache<String>(16);
    byte[] source = "xxattr_001yy......................".getBytes(US_ASCII);
    Key inside = Key.of(source, 2, 8);
    cache.put(inside.first(), inside.second(), "attr_001");

    assertThat(Key.of("attr_001")).isEqualTo(inside);
    assertThat(get(cache, Key.of("attr_001"))).isEqualTo("attr_001");
    assertThat(get(cache, Key.of("attr_002"))).isNull();
  }

  /**
   * For every length up to the longest, changing any byte of the key changes its words, changing a
   * byte after it does not, and the same bytes with one byte more or less are another key.
   */
  @Test
  void theWordsAreEveryByteOfTheKeyItsLengthAndNothingElse() {
    for (int length = 0; length <= ShortKeyCache.MAX_BYTES; length++) {
      byte[] source = new byte[40];
      for (int i = 0; i < source.length; i++) {
        source[i] = (byte) ('a' + i % 26);
      }
      Key key = Key.of(source, 3, length);
      for (int i = 3; i < 3 + 16; i++) {
        byte[] changed = source.clone();
        changed[i] ^= 0x20;
        assertThat(Key.of(changed, 3, length).equals(key))
            .as("length %d, byte %d", length, i - 3)
            .isEqualTo(i >= 3 + length);
      }
      if (length > 0) {
        assertThat(Key.of(source, 3, length - 1)).isNotEqualTo(key);
      }
      if (length < ShortKeyCache.MAX_BYTES) {
        assertThat(Key.of(source, 3, length + 1)).isNotEqualTo(key);
      }
    }
    // a NUL is a byte like any other: "ab" and "ab\0" differ by their lengths
    byte[] withNul = {'a', 'b', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assertThat(Key.of(withNul, 0, 2)).isNotEqualTo(Key.of(withNul, 0, 3));
  }

  @Test
  void fitsKeysOfUpTo15BytesWith16BytesToRead() {
    byte[] source = new byte[32];
    assertThat(ShortKeyCache.fits(source, 0, 15)).isTrue();
    assertThat(ShortKeyCache.fits(source, 0, 16)).isFalse();
    assertThat(ShortKeyCache.fits(source, 16, 0)).isTrue();
    assertThat(ShortKeyCache.fits(source, 17, 0)).isFalse(); // fewer than 16 bytes to read
    assertThat(ShortKeyCache.fits(source, -1, 0)).isFalse();
  }

  @Test
  void anEmptyKeyIsFoundOnlyOnceStored() {
    var cache = new ShortKeyCache<String>(2);
    Key empty = Key.of("");
    assertThat(empty).isEqualTo(new Key(0, 0)); // the words of an empty slot

    assertThat(get(cache, empty)).isNull();
    put(cache, empty);
    assertThat(get(cache, empty)).isEqualTo("value of " + empty);
  }

  @Test
  void keepsTheTwoKeysOfASetAndEvictsTheLessRecentlyUsed() {
    var cache = new ShortKeyCache<String>(4);
    List<Key> sameSet = keysOfOneSet(cache, 3);
    Key a = sameSet.get(0);
    Key b = sameSet.get(1);
    Key c = sameSet.get(2);
    put(cache, a);
    put(cache, b);
    assertThat(get(cache, a)).isNotNull(); // b is now the less recently used

    put(cache, c);

    assertThat(get(cache, b)).isNull();
    assertThat(get(cache, a)).isEqualTo("value of " + a);
    assertThat(get(cache, c)).isEqualTo("value of " + c);
  }

  @Test
  void rejectsASetCountThatIsNotAPowerOfTwo() {
    assertThatThrownBy(() -> new ShortKeyCache<String>(3))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ShortKeyCache<String>(1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static List<Key> keysOfOneSet(ShortKeyCache<String> cache, int count) {
    List<Key> keys = new ArrayList<>();
    Key first = Key.of("key_0");
    keys.add(first);
    for (int i = 1; keys.size() < count; i++) {
      Key key = Key.of("key_" + i);
      if (cache.set(key.first(), key.second()) == cache.set(first.first(), first.second())) {
        keys.add(key);
      }
    }
    return keys;
  }
}
