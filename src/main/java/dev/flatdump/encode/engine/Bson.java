package dev.flatdump.encode.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * BSON at the byte level: element types, little-endian numbers, C strings, and the end of each
 * value, every length checked against the end of the enclosing document. What does not add up
 * throws a {@link RejectedRecord} via {@link EncodePath#reject}. Static and stateless.
 */
final class Bson {

  static final byte DOUBLE = 0x01;
  static final byte STRING = 0x02;
  static final byte DOCUMENT = 0x03;
  static final byte ARRAY = 0x04;
  static final byte BINARY = 0x05;
  static final byte UNDEFINED = 0x06;
  static final byte OBJECT_ID = 0x07;
  static final byte BOOLEAN = 0x08;
  static final byte DATE_TIME = 0x09;
  static final byte NULL = 0x0A;
  static final byte REGEX = 0x0B;
  static final byte DB_POINTER = 0x0C;
  static final byte JAVASCRIPT = 0x0D;
  static final byte SYMBOL = 0x0E;
  static final byte JAVASCRIPT_WITH_SCOPE = 0x0F;
  static final byte INT32 = 0x10;
  static final byte TIMESTAMP = 0x11;
  static final byte INT64 = 0x12;
  static final byte DECIMAL128 = 0x13;
  static final byte MIN_KEY = (byte) 0xFF;
  static final byte MAX_KEY = 0x7F;

  static final byte BINARY_OLD = 0x02;
  static final byte BINARY_UUID = 0x04;

  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private Bson() {}

  static int int32(byte[] b, int p) {
    return (int) INT_LE.get(b, p);
  }

  static long int64(byte[] b, int p) {
    return (long) LONG_LE.get(b, p);
  }

  /** The name of a BSON type, as reasons say it. */
  static String typeName(byte type) {
    return switch (type) {
      case DOUBLE -> "double";
      case STRING -> "string";
      case DOCUMENT -> "document";
      case ARRAY -> "array";
      case BINARY -> "binary";
      case UNDEFINED -> "undefined";
      case OBJECT_ID -> "objectId";
      case BOOLEAN -> "bool";
      case DATE_TIME -> "date";
      case NULL -> "null";
      case REGEX -> "regex";
      case DB_POINTER -> "dbPointer";
      case JAVASCRIPT -> "javascript";
      case SYMBOL -> "symbol";
      case JAVASCRIPT_WITH_SCOPE -> "javascriptWithScope";
      case INT32 -> "int";
      case TIMESTAMP -> "timestamp";
      case INT64 -> "long";
      case DECIMAL128 -> "decimal";
      case MIN_KEY -> "minKey";
      case MAX_KEY -> "maxKey";
      default -> String.format("unknown type 0x%02x", type & 0xff);
    };
  }

  /** The end of the document (or array) starting at {@code p}, checked against {@code end}. */
  static int documentEnd(byte[] b, int p, int end, EncodePath path) {
    need(p, 5, end, path);
    int size = int32(b, p);
    if (size < 5 || size > end - p || b[p + size - 1] != 0) {
      throw path.reject("malformed BSON: a document's size (" + size + ") does not fit");
    }
    return p + size;
  }

  /** The position of the NUL ending the C string at {@code p}. */
  /**
   * The size of a value of this type when it has one size and {@link Scalars} read all of it,
   * checked; -1 for any other type.
   */
  static int scalarSize(byte type) {
    return switch (type) {
      case DOUBLE, INT64, DATE_TIME, TIMESTAMP -> 8;
      case INT32 -> 4;
      case BOOLEAN -> 1;
      default -> -1;
    };
  }

  /**
   * The end of array element {@code index}'s name at {@code p} (the position of its NUL): the
   * index's decimal digits, as a writer puts them, recognised without a scan; any other name by
   * {@link #cstringEnd}.
   */
  static int elementNameEnd(byte[] b, int p, int end, int index, EncodePath path) {
    if (index < 10) {
      if (p + 1 < end && b[p] == '0' + index && b[p + 1] == 0) {
        return p + 1;
      }
    } else if (index < 100) {
      if (p + 2 < end
          && b[p] == '0' + index / 10
          && b[p + 1] == '0' + index % 10
          && b[p + 2] == 0) {
        return p + 2;
      }
    }
    return cstringEnd(b, p, end, path);
  }

  static int cstringEnd(byte[] b, int p, int end, EncodePath path) {
    for (int i = p; i < end; i++) {
      if (b[i] == 0) {
        return i;
      }
    }
    throw path.reject("malformed BSON: a field name runs past its document");
  }

  /**
   * The string at {@code p}: checks its length and NUL, and returns the position after it; its
   * bytes are {@code [p + 4, result - 1)}.
   */
  static int stringEnd(byte[] b, int p, int end, EncodePath path) {
    need(p, 5, end, path);
    int length = int32(b, p);
    if (length < 1 || length > end - p - 4 || b[p + 4 + length - 1] != 0) {
      throw path.reject("malformed BSON: a string's length (" + length + ") does not fit");
    }
    return p + 4 + length;
  }

  /**
   * The position after the value of type {@code type} at {@code p}, checked as the driver's decoder
   * checks it: a document or array element by element, however deep, so that a document the driver
   * cannot decode is rejected even where its damage lies in a field the schema skips.
   */
  static int skip(byte[] b, byte type, int p, int end, EncodePath path) {
    return skip(b, type, p, end, path, 0);
  }

  private static int skip(byte[] b, byte type, int p, int end, EncodePath path, int depth) {
    return switch (type) {
      case DOUBLE, DATE_TIME, INT64, TIMESTAMP -> need(p, 8, end, path);
      case INT32 -> need(p, 4, end, path);
      case BOOLEAN -> {
        need(p, 1, end, path);
        if (b[p] != 0 && b[p] != 1) {
          throw path.reject("malformed BSON: a bool holds " + b[p]);
        }
        yield p + 1;
      }
      case OBJECT_ID -> need(p, 12, end, path);
      case DECIMAL128 -> need(p, 16, end, path);
      case NULL, UNDEFINED, MIN_KEY, MAX_KEY -> p;
      case STRING, JAVASCRIPT, SYMBOL -> utf8StringEnd(b, p, end, path);
      case DOCUMENT, ARRAY -> elements(b, p, end, path, depth);
      case JAVASCRIPT_WITH_SCOPE -> {
        need(p, 4, end, path);
        int total = int32(b, p);
        if (total < 14 || total > end - p) {
          throw path.reject(
              "malformed BSON: a code with scope's size (" + total + ") does not fit");
        }
        int scope = utf8StringEnd(b, p + 4, p + total, path);
        if (elements(b, scope, p + total, path, depth) != p + total) {
          throw path.reject("malformed BSON: a code with scope's size does not add up");
        }
        yield p + total;
      }
      case BINARY -> {
        need(p, 5, end, path);
        int length = int32(b, p);
        if (length < 0 || length > end - p - 5) {
          throw path.reject("malformed BSON: a binary's length (" + length + ") does not fit");
        }
        if (b[p + 4] == BINARY_OLD && (length < 4 || int32(b, p + 5) != length - 4)) {
          throw path.reject("malformed BSON: an old binary's inner length does not add up");
        }
        yield p + 5 + length;
      }
      case REGEX -> cstringEnd(b, cstringEnd(b, p, end, path) + 1, end, path) + 1;
      case DB_POINTER -> need(utf8StringEnd(b, p, end, path), 12, end, path);
      default -> throw path.reject("malformed BSON: " + typeName(type));
    };
  }

  /**
   * The position after the value at {@code p}: for a document or an array only its size and closing
   * NUL checked, for a caller that walks its elements itself; any other value as {@link #skip}
   * checks it.
   */
  static int valueEnd(byte[] b, byte type, int p, int end, EncodePath path) {
    return type == DOCUMENT || type == ARRAY
        ? documentEnd(b, p, end, path)
        : skip(b, type, p, end, path);
  }

  /** {@link #stringEnd}, and the string must be valid UTF-8, as BSON says it is. */
  static int utf8StringEnd(byte[] b, int p, int end, EncodePath path) {
    int after = stringEnd(b, p, end, path);
    if (!Utf8.valid(b, p + 4, after - 1)) {
      throw path.reject(Utf8.reason(b, p + 4, after - 1));
    }
    return after;
  }

  /** The end of the document at {@code p}, every element of it checked. */
  private static int elements(byte[] b, int p, int end, EncodePath path, int depth) {
    if (depth >= RecordEncoder.MAX_DEPTH) {
      throw path.reject("nested deeper than " + RecordEncoder.MAX_DEPTH + " levels");
    }
    int docEnd = documentEnd(b, p, end, path);
    int last = docEnd - 1;
    int q = p + 4;
    while (q < last) {
      byte type = b[q];
      int value = cstringEnd(b, q + 1, last, path) + 1;
      q = skip(b, type, value, last, path, depth + 1);
    }
    if (q != last) {
      throw path.reject("malformed BSON: a value runs past its document");
    }
    return docEnd;
  }

  /** {@code p + n}, when {@code n} bytes are there before {@code end}. */
  static int need(int p, int n, int end, EncodePath path) {
    if (end - p < n) {
      throw path.reject("malformed BSON: a value runs past its document");
    }
    return p + n;
  }
}
