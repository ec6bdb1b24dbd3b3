package dev.flatdump.encode.engine;

import dev.flatdump.encode.plan.FieldKind;
import java.nio.charset.StandardCharsets;
import org.bson.types.Decimal128;

/**
 * The string and byte rows of the mapping table: which BSON values become a {@code string} (a
 * string of valid UTF-8; an ObjectId as 24 hex digits; a decimal128 as its canonical text; a UUID
 * as its canonical form) and which a {@code [ubyte]} (binary data; an ObjectId's 12 bytes). Static
 * and stateless.
 */
final class Strings {

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private Strings() {}

  /**
   * The text that a BSON value other than a string becomes as a {@code string}: an ObjectId, a
   * decimal128 or a UUID; anything else rejects the document.
   */
  static String converted(byte type, byte[] b, int p, int end, EncodePath path) {
    switch (type) {
      case Bson.OBJECT_ID:
        {
          Bson.need(p, 12, end, path);
          byte[] hex = new byte[24];
          for (int i = 0; i < 12; i++) {
            hex[2 * i] = HEX[(b[p + i] >> 4) & 0xf];
            hex[2 * i + 1] = HEX[b[p + i] & 0xf];
          }
          return new String(hex, StandardCharsets.US_ASCII);
        }
      case Bson.DECIMAL128:
        Bson.need(p, 16, end, path);
        return Decimal128.fromIEEE754BIDEncoding(Bson.int64(b, p + 8), Bson.int64(b, p)).toString();
      case Bson.BINARY:
        {
          int after = Bson.skip(b, type, p, end, path);
          int length = Bson.int32(b, p);
          if (b[p + 4] != Bson.BINARY_UUID || length != 16) {
            throw path.reject("binary data maps to [ubyte], not string (only a UUID does)");
          }
          return uuid(b, p + 5, after);
        }
      default:
        throw Scalars.mismatch("string", type, path);
    }
  }

  /** Checks the BSON string at {@code p} is valid UTF-8; returns the position after it. */
  static int checkedString(byte[] b, int p, int end, EncodePath path) {
    int after = Bson.stringEnd(b, p, end, path);
    if (!Utf8.valid(b, p + 4, after - 1)) {
      throw path.reject(Utf8.reason(b, p + 4, after - 1));
    }
    return after;
  }

  /**
   * Whether a value of this BSON type is made into a {@code [ubyte]} whole, not element-wise:
   * binary data or an ObjectId, into a plain {@code [ubyte]}; an enum vector takes an array only.
   */
  static boolean isByteSource(FieldKind element, boolean enumElements, byte type) {
    return element == FieldKind.UBYTE
        && !enumElements
        && (type == Bson.BINARY || type == Bson.OBJECT_ID);
  }

  /**
   * The bytes of a binary value or an ObjectId, as {@code [start, end)} of {@code b}: a binary's
   * payload as the driver decodes it, so for the old binary subtype (2) without the inner length
   * that repeats the payload's size.
   */
  static int[] byteRange(byte type, byte[] b, int p, int end, EncodePath path) {
    if (type == Bson.OBJECT_ID) {
      return new int[] {p, Bson.need(p, 12, end, path)};
    }
    int after = Bson.skip(b, type, p, end, path); // checks the old binary's inner length
    return new int[] {p + (b[p + 4] == Bson.BINARY_OLD ? 9 : 5), after};
  }

  private static String uuid(byte[] b, int p, int after) {
    StringBuilder sb = new StringBuilder(36);
    for (int i = p; i < after; i++) {
      int k = i - p;
      if (k == 4 || k == 6 || k == 8 || k == 10) {
        sb.append('-');
      }
      sb.append((char) HEX[(b[i] >> 4) & 0xf]).append((char) HEX[b[i] & 0xf]);
    }
    return sb.toString();
  }
}
