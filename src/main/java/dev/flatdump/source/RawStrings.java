package dev.flatdump.source;

import static dev.flatdump.source.BsonBytes.NOT_PLAIN;
import static dev.flatdump.source.BsonBytes.STRING;
import static dev.flatdump.source.BsonBytes.stringLength;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The string values of a {@link RawOrgDecoder}'s documents: decoded from their BSON bytes, and a
 * string of bytes seen before is the same {@code String} instance, found by its bytes without
 * decoding it again: a string of up to {@value ShortKeyCache#MAX_BYTES} bytes (categories,
 * countries, ids like {@code attr_123}) by two words ({@link ShortKeyCache}), a longer one (names,
 * the articles' 24-character ids) by its byte range ({@link ByteKeyedCache}). Throws {@link
 * BsonBytes#NOT_PLAIN} for anything that is not a plain string, so that {@link OrgCodec} decides
 * and words the reason.
 *
 * <p>Not thread-safe: one per decoder.
 */
final class RawStrings {

  // Sized to stay in a core's L2 cache (1 MiB of keys): a lookup that misses memory costs more
  // than decoding again. Longer strings are decoded every time.
  private final ByteKeyedCache<String> strings = new ByteKeyedCache<>(1 << 14, 64);

  // 2,048 short strings in 41 KiB: the ids and words that repeat in every document stay in the
  // core's L1 and L2 caches.
  private final ShortKeyCache<String> shortStrings = new ShortKeyCache<>(1 << 10);

  /** The string value at {@code p} (its length prefix), shared with earlier ones of its bytes. */
  String at(byte[] b, byte bsonType, int p, int end) {
    if (bsonType != STRING) {
      throw NOT_PLAIN;
    }
    int length = stringLength(b, p, end);
    int from = p + 4;
    if (ShortKeyCache.fits(b, from, length)) {
      long first = ShortKeyCache.first(b, from, length);
      long second = ShortKeyCache.second(b, from, length);
      String value = shortStrings.get(first, second);
      if (value == null) {
        value = decode(b, from, length);
        shortStrings.put(first, second, value);
      }
      return value;
    }
    int hash = ByteKeyedCache.hash(b, from, length);
    String value = strings.get(b, from, length, hash);
    if (value == null) {
      value = decode(b, from, length);
      strings.put(b, from, length, hash, value);
    }
    return value;
  }

  private static String decode(byte[] b, int from, int length) {
    // The JDK's UTF-8 decoding already takes a vectorized path for ASCII bytes.
    String value = new String(b, from, length, UTF_8);
    // A U+FFFD may stand for bytes that are not UTF-8: OrgCodec checks and words the reason.
    if (value.indexOf('\uFFFD') >= 0) {
      throw NOT_PLAIN;
    }
    return value;
  }
}
