package dev.flatdump.bench.samples;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.bson.BsonBinaryReader;
import org.bson.BsonReader;
import org.bson.BsonType;
import org.bson.ByteBuf;
import org.bson.ByteBufNIO;
import org.bson.io.ByteBufferBsonInput;
import org.bson.types.Decimal128;

/**
 * Reads one scalar field's value from a {@link BsonReader} positioned on it, converting only where
 * no information is lost, and throws {@link InvalidDocumentException} naming the field otherwise.
 *
 * <p>Every method reads (consumes) the value when it returns normally; after an exception the
 * reader's state is unspecified.
 */
final class BsonFields {

  private BsonFields() {}

  /**
   * A string. From a {@link #utf8CheckingReader}, a value whose bytes are not valid UTF-8 is
   * rejected: the driver would decode each bad sequence as U+FFFD, silently changing the text.
   */
  static String readString(BsonReader reader, String path) {
    BsonType type = reader.getCurrentBsonType();
    if (type != BsonType.STRING) {
      throw unexpected(path, "string", type);
    }
    String value = reader.readString();
    // Only a decoded U+FFFD can hide a bad sequence: the common case costs one scan.
    if (value.indexOf('\uFFFD') >= 0
        && reader instanceof BsonBinaryReader binary
        && binary.getBsonInput() instanceof Utf8CheckingInput input) {
      input.checkLastString(path);
    }
    return value;
  }

  /** A reader of these BSON bytes whose {@link #readString} rejects invalid UTF-8. */
  static BsonBinaryReader utf8CheckingReader(ByteBuffer bson) {
    return new BsonBinaryReader(new Utf8CheckingInput(new ByteBufNIO(bson)));
  }

  /** Remembers where the last string value started, so that its bytes can be checked. */
  private static final class Utf8CheckingInput extends ByteBufferBsonInput {

    private final ByteBuf buffer;
    private int lastStringStart = -1;

    Utf8CheckingInput(ByteBuf buffer) {
      super(buffer);
      this.buffer = buffer;
    }

    @Override
    public String readString() {
      lastStringStart = getPosition();
      return super.readString();
    }

    /** Rejects the string value just read unless its bytes are valid UTF-8. */
    void checkLastString(String path) {
      // int32 length (bytes + 1), the bytes, a NUL; the input is now just after the NUL.
      byte[] bytes = new byte[getPosition() - lastStringStart - Integer.BYTES - 1];
      buffer.get(lastStringStart + Integer.BYTES, bytes);
      ByteBuffer in = ByteBuffer.wrap(bytes);
      CoderResult result =
          StandardCharsets.UTF_8.newDecoder().decode(in, CharBuffer.allocate(bytes.length), true);
      if (result.isError()) {
        int offset = in.position();
        throw new InvalidDocumentException(
            path,
            String.format(
                Locale.ROOT,
                "invalid UTF-8: byte 0x%02X at offset %d",
                bytes[offset] & 0xFF,
                offset));
      }
    }
  }

  /**
   * The value in double quotes with quotes, backslashes and control characters escaped, so that a
   * reason shows exactly what the value was (a NUL or a newline included).
   */
  static String quote(String value) {
    var quoted = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        quoted.append('\\').append(c);
      } else if (Character.isISOControl(c)) {
        quoted.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        quoted.append(c);
      }
    }
    return quoted.append('"').toString();
  }

  static boolean readBoolean(BsonReader reader, String path) {
    BsonType type = reader.getCurrentBsonType();
    if (type != BsonType.BOOLEAN) {
      throw unexpected(path, "boolean", type);
    }
    return reader.readBoolean();
  }

  static byte readByte(BsonReader reader, String path) {
    return (byte) readInteger(reader, path, Byte.MIN_VALUE, Byte.MAX_VALUE, "byte");
  }

  static short readShort(BsonReader reader, String path) {
    return (short) readInteger(reader, path, Short.MIN_VALUE, Short.MAX_VALUE, "short");
  }

  /**
   * An integer in {@code min..max}: an int32, or (lossless widening) an int64 or a finite, integral
   * double. Never wraps or truncates.
   */
  private static int readInteger(BsonReader reader, String path, int min, int max, String target) {
    BsonType type = reader.getCurrentBsonType();
    switch (type) {
      case INT32 -> {
        int v = reader.readInt32();
        if (v < min || v > max) {
          throw outOfRange(path, Integer.toString(v), min, max, target);
        }
        return v;
      }
      case INT64 -> {
        long v = reader.readInt64();
        if (v < min || v > max) {
          throw outOfRange(path, Long.toString(v), min, max, target);
        }
        return (int) v;
      }
      case DOUBLE -> {
        double v = reader.readDouble();
        if (!Double.isFinite(v) || v != Math.rint(v)) {
          throw new InvalidDocumentException(path, v + " is not an integer");
        }
        if (v < min || v > max) {
          throw outOfRange(path, Double.toString(v), min, max, target);
        }
        return (int) v;
      }
      default -> throw unexpected(path, "int32", type);
    }
  }

  /**
   * A double; an int32 (always exact), an int64 or a decimal128 only when the double holds exactly
   * the same number. NaN and the infinities of decimal128 map to the double ones.
   */
  static double readDouble(BsonReader reader, String path) {
    BsonType type = reader.getCurrentBsonType();
    switch (type) {
      case DOUBLE -> {
        return reader.readDouble();
      }
      case INT32 -> {
        return reader.readInt32();
      }
      case INT64 -> {
        long v = reader.readInt64();
        double d = v;
        // (long) 0x1p63 saturates to Long.MAX_VALUE, which 2^63 is not.
        if (d == 0x1p63 || (long) d != v) {
          throw notExactDouble(path, Long.toString(v));
        }
        return d;
      }
      case DECIMAL128 -> {
        return exactDouble(reader.readDecimal128(), path);
      }
      default -> throw unexpected(path, "double", type);
    }
  }

  private static double exactDouble(Decimal128 v, String path) {
    if (v.isNaN()) {
      return Double.NaN;
    }
    if (v.isInfinite()) {
      return v.isNegative() ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    BigDecimal exact;
    try {
      exact = v.bigDecimalValue();
    } catch (ArithmeticException negativeZero) {
      // NaN and infinities are handled above: only a negative zero has no BigDecimal.
      return -0.0;
    }
    double d = exact.doubleValue();
    if (Double.isInfinite(d) || new BigDecimal(d).compareTo(exact) != 0) {
      throw notExactDouble(path, v.toString());
    }
    return d;
  }

  /** Rejects a value of the wrong BSON type; a null is reported as just {@code null}. */
  static InvalidDocumentException unexpected(String path, String expected, BsonType actual) {
    if (actual == BsonType.NULL) {
      return new InvalidDocumentException(path, "null");
    }
    return new InvalidDocumentException(path, "expected " + expected + ", got " + typeName(actual));
  }

  private static InvalidDocumentException outOfRange(
      String path, String value, int min, int max, String target) {
    return new InvalidDocumentException(
        path, value + " is out of range for " + target + " (" + min + ".." + max + ")");
  }

  private static InvalidDocumentException notExactDouble(String path, String value) {
    return new InvalidDocumentException(path, value + " is not exactly representable as a double");
  }

  /**
   * The BSON type's name as MongoDB's {@code $type} aliases spell it, but "document" for objects.
   */
  static String typeName(BsonType type) {
    return switch (type) {
      case DOUBLE -> "double";
      case STRING -> "string";
      case DOCUMENT -> "document";
      case ARRAY -> "array";
      case BINARY -> "binary";
      case UNDEFINED -> "undefined";
      case OBJECT_ID -> "objectId";
      case BOOLEAN -> "boolean";
      case DATE_TIME -> "date";
      case NULL -> "null";
      case REGULAR_EXPRESSION -> "regex";
      case DB_POINTER -> "dbPointer";
      case JAVASCRIPT -> "javascript";
      case SYMBOL -> "symbol";
      case JAVASCRIPT_WITH_SCOPE -> "javascriptWithScope";
      case INT32 -> "int32";
      case TIMESTAMP -> "timestamp";
      case INT64 -> "int64";
      case DECIMAL128 -> "decimal128";
      case MIN_KEY -> "minKey";
      case MAX_KEY -> "maxKey";
      case END_OF_DOCUMENT -> "end of document";
    };
  }
}
