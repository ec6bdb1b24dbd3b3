package dev.flatdump.source;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The BSON byte-level steps of {@link RawOrgDecoder}'s walk: lengths, C strings, skipping values.
 * Each checks what it reads against the end of the enclosing (sub)document and throws {@link
 * #NOT_PLAIN} when the bytes do not add up, so that the document goes to {@link OrgCodec}, which
 * words the reason. Static and stateless.
 */
final class BsonBytes {

  static final byte DOUBLE = 0x01;
  static final byte STRING = 0x02;
  static final byte DOCUMENT = 0x03;
  static final byte ARRAY = 0x04;
  static final byte OBJECT_ID = 0x07;
  static final byte BOOLEAN = 0x08;
  static final byte INT32 = 0x10;

  /** Not plainly good: let {@link OrgCodec} decide. Thrown without a stack trace. */
  static final class NotPlain extends RuntimeException {
    NotPlain() {
      super(null, null, false, false);
    }
  }

  static final NotPlain NOT_PLAIN = new NotPlain();

  // One load per little-endian number instead of one per byte; out of the array's bounds they
  // throw IndexOutOfBoundsException, as the byte reads did.
  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private BsonBytes() {}

  /** The string's length in bytes without its NUL, after checking the NUL is where it belongs. */
  static int stringLength(byte[] b, int p, int end) {
    int size = int32At(b, p);
    if (size < 1 || size > end - p - 4 || b[p + 4 + size - 1] != 0) {
      throw NOT_PLAIN;
    }
    return size - 1;
  }

  static int afterString(byte[] b, int p) {
    return p + 4 + int32At(b, p);
  }

  static int int32(byte[] b, byte bsonType, int p, int end, int min, int max) {
    if (bsonType != INT32 || p + 4 > end) {
      throw NOT_PLAIN;
    }
    int value = int32At(b, p);
    if (value < min || value > max) {
      throw NOT_PLAIN;
    }
    return value;
  }

  static long int64(byte[] b, int p, int end) {
    if (p + 8 > end) {
      throw NOT_PLAIN;
    }
    return (long) LONG_LE.get(b, p);
  }

  static boolean bool(byte[] b, byte bsonType, int p, int end) {
    if (bsonType != BOOLEAN || p >= end || (b[p] & ~1) != 0) {
      throw NOT_PLAIN;
    }
    return b[p] == 1;
  }

  /** Where the (sub)document or array starting at {@code p} ends, after checking its last byte. */
  static int documentEnd(byte[] b, int p, int end) {
    int size = int32At(b, p);
    if (size < 5 || size > end - p || b[p + size - 1] != 0) {
      throw NOT_PLAIN;
    }
    return p + size;
  }

  /** Just after the NUL that ends the C string at {@code p}. */
  static int cstringEnd(byte[] b, int p, int end) {
    while (b[p] != 0) {
      if (++p >= end) {
        throw NOT_PLAIN;
      }
    }
    return p + 1;
  }

  /** Just after a value of an unknown field; an unusual type goes to {@link OrgCodec}. */
  static int skip(byte[] b, byte bsonType, int p, int end) {
    int next =
        switch (bsonType) {
          case DOUBLE, 0x09, 0x11, 0x12 -> p + 8; // double, date, timestamp, int64
          case STRING, 0x0D, 0x0E -> afterString(b, p); // string, JavaScript, symbol
          case DOCUMENT, ARRAY -> documentEnd(b, p, end);
          case 0x05 -> p + 5 + int32At(b, p); // binary: size, subtype, bytes
          case OBJECT_ID -> p + 12;
          case BOOLEAN -> p + 1;
          case 0x0A, (byte) 0xFF, 0x7F -> p; // null, minKey, maxKey
          case INT32 -> p + 4;
          case 0x13 -> p + 16; // decimal128
          default -> throw NOT_PLAIN;
        };
    if (next < p || next > end) {
      throw NOT_PLAIN;
    }
    return next;
  }

  /** The byte at {@code p}, which must lie before {@code end}. */
  static byte next(byte[] b, int p, int end) {
    if (p >= end) {
      throw NOT_PLAIN;
    }
    return b[p];
  }

  static int int32At(byte[] b, int p) {
    return (int) INT_LE.get(b, p);
  }

  /** The little-endian long at {@code p}, with no check beyond the array's own. */
  static long int64At(byte[] b, int p) {
    return (long) LONG_LE.get(b, p);
  }

  /**
   * An element name of 1..8 ASCII bytes, recognised by one 8-byte load and compare at the name's
   * start instead of a scan for its NUL and a comparison.
   *
   * @param bytes the name without its NUL
   * @param size the name's bytes with its NUL: where the value starts, after the type byte
   */
  record FieldName(byte[] bytes, long word, long mask, int size) {

    static FieldName of(String name) {
      byte[] bytes = name.getBytes(StandardCharsets.ISO_8859_1);
      if (bytes.length < 1 || bytes.length > Long.BYTES) {
        throw new IllegalArgumentException("a name of 1..8 bytes, got " + name);
      }
      long word = 0;
      for (int i = 0; i < bytes.length; i++) {
        if (bytes[i] == 0) {
          throw new IllegalArgumentException("a name has no NUL: " + name);
        }
        word |= (bytes[i] & 0xFFL) << (8 * i);
      }
      // the NUL is the zero byte after the name; a name of 8 bytes has its NUL after the word
      long mask = lowBytes(bytes.length + 1);
      return new FieldName(bytes, word, mask, bytes.length + 1);
    }

    /**
     * Whether the C string at {@code p} is exactly this name. False also when it cannot tell
     * cheaply (fewer than 8 bytes left in the array); the caller then scans.
     */
    boolean at(byte[] b, int p, int end) {
      if (p + size > end || p + Long.BYTES > b.length) {
        return false;
      }
      long w = (long) LONG_LE.get(b, p);
      return size <= Long.BYTES ? (w & mask) == word : w == word && b[p + Long.BYTES] == 0;
    }
  }

  /** A mask of the low {@code n} bytes of a little-endian word: none for n <= 0, all for n >= 8. */
  static long lowBytes(int n) {
    if (n <= 0) {
      return 0;
    }
    return n >= Long.BYTES ? -1L : (1L << (n * Byte.SIZE)) - 1;
  }

  static boolean is(byte[] b, byte[] expected, int from, int length) {
    return length == expected.length && Arrays.equals(expected, 0, length, b, from, from + length);
  }

  /** Adds a field's bit to those seen, or {@link #NOT_PLAIN} if it was seen already. */
  static int once(int seen, int bit) {
    if ((seen & bit) != 0) {
      throw NOT_PLAIN;
    }
    return seen | bit;
  }
}
