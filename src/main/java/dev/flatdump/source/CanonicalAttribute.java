package dev.flatdump.source;

import static dev.flatdump.source.BsonBytes.BOOLEAN;
import static dev.flatdump.source.BsonBytes.DOUBLE;
import static dev.flatdump.source.BsonBytes.INT32;
import static dev.flatdump.source.BsonBytes.int32At;
import static dev.flatdump.source.BsonBytes.int64;
import static java.nio.charset.StandardCharsets.ISO_8859_1;

/**
 * The layout in which {@link OrgCodec} writes an attribute sub-document, and so every document that
 * {@code flatdump generate} inserts, and any other writer that keeps this order: {@code id} (a
 * string), {@code quantity}, {@code amount} (int32), {@code active} (a boolean), {@code percent} (a
 * double), {@code size} (int32), in this order, nothing else. Then only the id's length and the
 * values vary, and everything after the id sits at fixed offsets from the id's end: {@link
 * RawAttributeDecoder} recognises the layout with one int compare before the id and eight masked
 * long compares after it, instead of walking the six field names. Whether the values are in range
 * is for the caller to check. Static and stateless.
 */
final class CanonicalAttribute {

  /** Bytes after the id string: five fields' types and names around their values, and the end. */
  static final int TAIL = 63;

  /** Where each value starts, counted from the id string's end. */
  static final int QUANTITY = 10;

  static final int AMOUNT = 22;
  static final int ACTIVE = 34;
  static final int PERCENT = 44;
  static final int SIZE = 58;

  /** From the document's start to its id string's int32 length: the length and "\x02id\0". */
  static final int ID_LENGTH = 8;

  // The document's length (4), the id's type, name and NUL (4), its length (4), then the id's
  // bytes and NUL, then the tail.
  private static final int FIXED_BYTES = 12 + TAIL;
  private static final int ID_HEAD = BsonBytes.STRING | 'i' << 8 | 'd' << 16;

  // The tail is compared 8 bytes at a time (the last word overlaps the one before it); value bytes
  // are masked out.
  private static final int[] WORDS = {0, 8, 16, 24, 32, 40, 48, TAIL - 8};
  private static final long[] EXPECTED = new long[WORDS.length];
  private static final long[] MASK = new long[WORDS.length];

  static {
    byte[] expected = new byte[TAIL];
    byte[] mask = new byte[TAIL];
    int p = field(expected, mask, 0, INT32, "quantity", 4);
    p = field(expected, mask, p, INT32, "amount", 4);
    p = field(expected, mask, p, BOOLEAN, "active", 1);
    p = field(expected, mask, p, DOUBLE, "percent", 8);
    p = field(expected, mask, p, INT32, "size", 4);
    mask[p] = (byte) 0xFF; // the document's terminating NUL
    if (p + 1 != TAIL) {
      throw new IllegalStateException("the attribute tail is " + (p + 1) + " bytes, not " + TAIL);
    }
    for (int i = 0; i < WORDS.length; i++) {
      EXPECTED[i] = int64(expected, WORDS[i], TAIL);
      MASK[i] = int64(mask, WORDS[i], TAIL);
    }
  }

  private CanonicalAttribute() {}

  /**
   * Whether the attribute document {@code [p, end)} (its length checked, {@code end} its end) has
   * the canonical layout; the id string's NUL and UTF-8 are the caller's to check.
   */
  static boolean matches(byte[] b, int p, int end) {
    if (end - p <= FIXED_BYTES || int32At(b, p + 4) != ID_HEAD) {
      return false;
    }
    if (int32At(b, p + ID_LENGTH) != end - p - FIXED_BYTES) {
      return false;
    }
    int idEnd = end - TAIL;
    for (int i = 0; i < WORDS.length; i++) {
      if (((int64(b, idEnd + WORDS[i], end) ^ EXPECTED[i]) & MASK[i]) != 0) {
        return false;
      }
    }
    return true;
  }

  private static int field(byte[] expected, byte[] mask, int p, byte type, String name, int size) {
    byte[] nameBytes = name.getBytes(ISO_8859_1);
    expected[p] = type;
    System.arraycopy(nameBytes, 0, expected, p + 1, nameBytes.length);
    int valueAt = p + 1 + nameBytes.length + 1; // after the name's NUL
    for (int i = p; i < valueAt; i++) {
      mask[i] = (byte) 0xFF;
    }
    return valueAt + size;
  }
}
