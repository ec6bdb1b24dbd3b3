package dev.flatdump.encode.engine;

import dev.flatdump.encode.plan.EnumPlan;
import dev.flatdump.encode.plan.FieldKind;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The scalar rows of the mapping table (docs/mapping.md): a BSON value becomes a scalar of a
 * FlatBuffers kind exactly or by a lossless conversion, or the document is rejected with the
 * reason. Never wrapped, truncated or rounded. Results are raw bits in a {@code long}: an integer
 * (a {@code ulong} as its unsigned bits), a {@code float}'s {@code floatToRawIntBits}, a {@code
 * double}'s {@code doubleToRawLongBits}, a bool as 0 or 1. Static and stateless.
 */
final class Scalars {

  private static final double TWO_63 = 0x1p63;
  private static final double TWO_64 = 0x1p64;

  private Scalars() {}

  /** The value at {@code p}, of BSON type {@code type}, as {@code kind} (of {@code e} if set). */
  static long convert(
      FieldKind kind, EnumPlan e, byte type, byte[] b, int p, int end, EncodePath path) {
    if (e != null) {
      return enumValue(kind, e, type, b, p, end, path);
    }
    return switch (kind) {
      case BOOL -> bool(type, b, p, end, path);
      case FLOAT -> toFloat(type, b, p, end, path);
      case DOUBLE -> toDouble(type, b, p, end, path);
      default -> integer(kind, type, b, p, end, path);
    };
  }

  private static long bool(byte type, byte[] b, int p, int end, EncodePath path) {
    if (type != Bson.BOOLEAN) {
      throw mismatch("bool", type, path);
    }
    Bson.need(p, 1, end, path);
    if (b[p] != 0 && b[p] != 1) {
      throw path.reject("malformed BSON: a bool holds " + b[p]);
    }
    return b[p];
  }

  private static long integer(
      FieldKind kind, byte type, byte[] b, int p, int end, EncodePath path) {
    switch (type) {
      case Bson.INT32:
        Bson.need(p, 4, end, path);
        return inRange(kind, Bson.int32(b, p), path);
      case Bson.INT64:
        Bson.need(p, 8, end, path);
        return inRange(kind, Bson.int64(b, p), path);
      case Bson.DOUBLE:
        {
          Bson.need(p, 8, end, path);
          double d = Double.longBitsToDouble(Bson.int64(b, p));
          if (Double.isNaN(d) || Double.isInfinite(d) || d != Math.rint(d)) {
            throw path.reject(d + " is not an integer, as " + name(kind) + " needs");
          }
          if (kind == FieldKind.ULONG) {
            if (d < 0 || d >= TWO_64) {
              throw path.reject(plain(d) + " out of range for " + name(kind));
            }
            return new BigDecimal(d).toBigInteger().longValue(); // the unsigned bits
          }
          if (d < -TWO_63 || d >= TWO_63) {
            throw path.reject(plain(d) + " out of range for " + name(kind));
          }
          return inRange(kind, (long) d, path);
        }
      case Bson.DATE_TIME:
        if (kind != FieldKind.LONG) {
          throw path.reject("a date maps to long (ms since the epoch), not " + name(kind));
        }
        Bson.need(p, 8, end, path);
        return Bson.int64(b, p);
      case Bson.TIMESTAMP:
        if (kind != FieldKind.ULONG) {
          throw path.reject("a timestamp maps to ulong, not " + name(kind));
        }
        Bson.need(p, 8, end, path);
        return Bson.int64(b, p);
      default:
        throw mismatch(name(kind), type, path);
    }
  }

  /**
   * {@code v} when {@code kind} holds it ({@link FieldKind#fits(long)}: a {@code ulong} takes no
   * negative number); else the document is rejected.
   */
  static long inRange(FieldKind kind, long v, EncodePath path) {
    if (!kind.fits(v)) {
      throw path.reject(v + " out of range for " + name(kind));
    }
    return v;
  }

  private static long toFloat(byte type, byte[] b, int p, int end, EncodePath path) {
    switch (type) {
      case Bson.DOUBLE:
        {
          Bson.need(p, 8, end, path);
          long bits = Bson.int64(b, p);
          double d = Double.longBitsToDouble(bits);
          float f = (float) d;
          if (Double.doubleToRawLongBits(f) != bits) {
            throw path.reject(d + " is not exactly a float");
          }
          return Float.floatToRawIntBits(f);
        }
      case Bson.INT32:
      case Bson.INT64:
        {
          long v =
              type == Bson.INT32
                  ? Bson.int32(b, Bson.need(p, 4, end, path) - 4)
                  : int64(b, p, end, path);
          float f = v;
          if (f >= TWO_63 || (long) f != v) {
            throw path.reject(v + " is not exactly a float");
          }
          return Float.floatToRawIntBits(f);
        }
      default:
        throw mismatch("float", type, path);
    }
  }

  private static long toDouble(byte type, byte[] b, int p, int end, EncodePath path) {
    switch (type) {
      case Bson.DOUBLE:
        Bson.need(p, 8, end, path);
        return Bson.int64(b, p);
      case Bson.INT32:
        Bson.need(p, 4, end, path);
        return Double.doubleToRawLongBits(Bson.int32(b, p));
      case Bson.INT64:
        {
          long v = int64(b, p, end, path);
          double d = v;
          if (d >= TWO_63 || (long) d != v) {
            throw path.reject(v + " is not exactly a double");
          }
          return Double.doubleToRawLongBits(d);
        }
      default:
        throw mismatch("double", type, path);
    }
  }

  private static long enumValue(
      FieldKind kind, EnumPlan e, byte type, byte[] b, int p, int end, EncodePath path) {
    if (type == Bson.STRING) {
      int after = Bson.stringEnd(b, p, end, path);
      String s = new String(b, p + 4, after - p - 5, StandardCharsets.UTF_8);
      Long v = e.byName().get(s);
      if (v == null) {
        if (!Utf8.valid(b, p + 4, after - 1)) {
          throw path.reject(Utf8.reason(b, p + 4, after - 1));
        }
        throw path.reject("'" + s + "' is not a value of " + simpleName(e.name()));
      }
      return v;
    }
    if (type == Bson.INT32 || type == Bson.INT64) {
      long v =
          type == Bson.INT32
              ? Bson.int32(b, Bson.need(p, 4, end, path) - 4)
              : int64(b, p, end, path);
      if (!e.declares(v)) {
        throw path.reject(v + " is not a value of " + simpleName(e.name()));
      }
      return inRange(kind, v, path);
    }
    throw mismatch(simpleName(e.name()) + " (a name or a number)", type, path);
  }

  private static long int64(byte[] b, int p, int end, EncodePath path) {
    Bson.need(p, 8, end, path);
    return Bson.int64(b, p);
  }

  static RejectedRecord mismatch(String expected, byte type, EncodePath path) {
    return path.reject("expected " + expected + ", got " + Bson.typeName(type));
  }

  /** The schema's name for a kind: {@code short}, {@code ulong}, ... */
  static String name(FieldKind kind) {
    return kind.name().toLowerCase(Locale.ROOT);
  }

  private static String simpleName(String qualified) {
    return qualified.substring(qualified.lastIndexOf('.') + 1);
  }

  private static String plain(double d) {
    return new BigDecimal(d).toPlainString();
  }
}
