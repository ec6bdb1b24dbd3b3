package dev.flatdump.artifact.check;

import dev.flatdump.artifact.check.ExpectedRecords.NotFit;
import dev.flatdump.artifact.check.SchemaExportVerifier.Real;
import dev.flatdump.encode.plan.EnumPlan;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonValue;

/**
 * One BSON value mapped onto a scalar, enum or string field by the rows of {@code docs/mapping.md},
 * for {@link ExpectedRecords}: its value in the form a record holds it, or a {@link NotFit} with
 * the reason; and what a reader gets for a scalar left out, and how keys order. Stateless.
 */
final class ExpectedScalars {

  private ExpectedScalars() {}

  /** A bool field's value. */
  static Boolean bool(BsonValue v, String path) {
    if (!v.isBoolean()) {
      throw new NotFit(path, "expected bool");
    }
    return v.asBoolean().getValue();
  }

  /** What a reader gets for a field left out. */
  static Object absent(FieldPlan f) {
    if (!f.kind().isScalar() || f.optional()) {
      return null;
    }
    return switch (f.kind()) {
      case BOOL -> f.defaultInteger() != 0;
      case FLOAT -> new Real(Double.doubleToRawLongBits((float) f.defaultReal()));
      case DOUBLE -> new Real(Double.doubleToRawLongBits(f.defaultReal()));
      default -> f.defaultInteger();
    };
  }

  /**
   * The order of two keys as readers' binary searches expect it: strings by their UTF-8 bytes
   * unsigned, unsigned integers unsigned, floats by value with NaN last.
   */
  static int compareKeys(FieldPlan key, Object x, Object y) {
    if (x instanceof String a && y instanceof String b) {
      return Arrays.compareUnsigned(
          a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
    if (x instanceof Boolean a && y instanceof Boolean b) {
      return Boolean.compare(a, b);
    }
    if (x instanceof Real a && y instanceof Real b) {
      double p = Double.longBitsToDouble(a.bits());
      double q = Double.longBitsToDouble(b.bits());
      if (Double.isNaN(p) || Double.isNaN(q)) {
        return Boolean.compare(Double.isNaN(p), Double.isNaN(q));
      }
      return Double.compare(p == 0 ? 0.0 : p, q == 0 ? 0.0 : q);
    }
    long a = (Long) x;
    long b = (Long) y;
    return switch (key.kind()) {
      case UBYTE, USHORT, UINT, ULONG -> Long.compareUnsigned(a, b);
      default -> Long.compare(a, b);
    };
  }

  /** A string field's value: a string, or the text of an ObjectId, a decimal128 or a UUID. */
  static String string(BsonValue v, String path) {
    if (v.isString()) {
      return v.asString().getValue();
    }
    if (v.isObjectId()) {
      return v.asObjectId().getValue().toHexString();
    }
    if (v.isDecimal128()) {
      return v.asDecimal128().getValue().toString();
    }
    if (v.isBinary()) {
      BsonBinary b = v.asBinary();
      if (b.getType() == BsonBinarySubType.UUID_STANDARD.getValue() && b.getData().length == 16) {
        ByteBuffer bb = ByteBuffer.wrap(b.getData());
        return new UUID(bb.getLong(), bb.getLong()).toString();
      }
    }
    throw new NotFit(path, "expected a string");
  }

  /** A float or double field's value, when the number is exactly one. */
  static Real real(FieldKind kind, BsonValue v, String path) {
    double d;
    if (v.isDouble()) {
      d = v.asDouble().getValue();
    } else if (v.isInt32()) {
      d = v.asInt32().getValue();
    } else if (v.isInt64()) {
      long l = v.asInt64().getValue();
      d = l;
      if (new BigDecimal(d).compareTo(BigDecimal.valueOf(l)) != 0) {
        throw new NotFit(path, l + " is not exactly a double");
      }
    } else {
      throw new NotFit(path, "expected a number");
    }
    if (kind == FieldKind.DOUBLE) {
      return new Real(Double.doubleToRawLongBits(d));
    }
    float f = (float) d;
    if (Double.doubleToRawLongBits(f) != Double.doubleToRawLongBits(d)) {
      throw new NotFit(path, d + " is not exactly a float");
    }
    return new Real(Double.doubleToRawLongBits(f));
  }

  /**
   * An integer kind's value, its bits in a {@code long} ({@code ulong} as its bits).
   *
   * @param e the field's enum, or null
   */
  static Long integer(FieldKind kind, EnumPlan e, BsonValue v, String path) {
    BigInteger value;
    if (v.isString() && e != null) {
      Long named = e.byName().get(v.asString().getValue());
      if (named == null) {
        throw new NotFit(path, "'" + v.asString().getValue() + "' is not a value of " + e.name());
      }
      return named;
    }
    if (v.isInt32()) {
      value = BigInteger.valueOf(v.asInt32().getValue());
    } else if (v.isInt64()) {
      value = BigInteger.valueOf(v.asInt64().getValue());
    } else if (v.isDouble() && e == null) {
      double d = v.asDouble().getValue();
      if (Double.isNaN(d) || Double.isInfinite(d) || d != Math.rint(d)) {
        throw new NotFit(path, d + " is not an integer");
      }
      value = new BigDecimal(d).toBigIntegerExact();
    } else if (v.isDateTime() && kind == FieldKind.LONG && e == null) {
      return v.asDateTime().getValue();
    } else if (v.isTimestamp() && kind == FieldKind.ULONG && e == null) {
      return v.asTimestamp().getValue();
    } else {
      throw new NotFit(path, "expected an integer for " + kind.name().toLowerCase());
    }
    if (!kind.fits(value)) {
      throw new NotFit(path, value + " out of range for " + kind.name().toLowerCase());
    }
    long bits = value.longValue();
    if (e != null && !e.declares(bits)) {
      throw new NotFit(path, value + " is not a value of " + e.name());
    }
    return bits;
  }
}
