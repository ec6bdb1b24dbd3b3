package dev.flatdump.encode.engine;

import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.nio.ByteBuffer;

/**
 * The order of a vector whose tables (or structs) have a {@code (key)} field, as flatc and the
 * FlatBuffers builders sort it for the generated binary-search lookups ({@code ...ByKey}): by the
 * key, a string by its UTF-8 bytes compared unsigned (as {@code memcmp}, shorter first on a common
 * prefix), an integer by its value (unsigned kinds unsigned), a float by its value ({@code -0.0}
 * equal to {@code 0.0}, NaN after every number). A table without the key holds its default. Equal
 * keys keep their order. The export writes such vectors in this order and {@code check} verifies
 * it. Buffers are little-endian FlatBuffers; positions are absolute. Static and stateless.
 */
public final class KeyOrder {

  private KeyOrder() {}

  /** The bits a table without its key holds for it, for {@link #compareTables}. */
  public static long absentKey(TablePlan t, FieldPlan key) {
    return TableLayout.defaultBits(t)[key.id()];
  }

  /**
   * Compares the keys of the tables at {@code a} and {@code b}; a table without its scalar key
   * holds {@code absent} ({@link #absentKey}).
   */
  public static int compareTables(ByteBuffer bb, int a, int b, FieldPlan key, long absent) {
    int pa = RecordsBuffer.fieldPosition(bb, a, key.slot());
    int pb = RecordsBuffer.fieldPosition(bb, b, key.slot());
    if (key.kind() == FieldKind.STRING) {
      return compareStrings(
          bb, pa == 0 ? -1 : pa + bb.getInt(pa), pb == 0 ? -1 : pb + bb.getInt(pb));
    }
    long x = pa == 0 ? absent : scalar(bb, pa, key.kind());
    long y = pb == 0 ? absent : scalar(bb, pb, key.kind());
    return compareScalars(key.kind(), x, y);
  }

  /** Compares the keys of the structs at {@code a} and {@code b}. */
  public static int compareStructs(ByteBuffer bb, int a, int b, FieldPlan key) {
    return compareScalars(
        key.kind(), scalar(bb, a + key.slot(), key.kind()), scalar(bb, b + key.slot(), key.kind()));
  }

  /** Compares the keys of two structs given as their bytes. */
  static int compareStructs(byte[] a, byte[] b, FieldPlan key) {
    ByteBuffer x = ByteBuffer.wrap(a).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    ByteBuffer y = ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    return compareScalars(
        key.kind(), scalar(x, key.slot(), key.kind()), scalar(y, key.slot(), key.kind()));
  }

  /** Compares two scalars of {@code kind}, given as raw bits ({@link Scalars}' form). */
  private static int compareScalars(FieldKind kind, long x, long y) {
    return switch (kind) {
      case UBYTE, USHORT, UINT, ULONG, BOOL -> Long.compareUnsigned(x, y);
      case FLOAT -> compareReals(Float.intBitsToFloat((int) x), Float.intBitsToFloat((int) y));
      case DOUBLE -> compareReals(Double.longBitsToDouble(x), Double.longBitsToDouble(y));
      default -> Long.compare(x, y);
    };
  }

  /** Compares two numbers by value: {@code -0.0} equals {@code 0.0}, NaN comes after all. */
  private static int compareReals(double x, double y) {
    if (Double.isNaN(x) || Double.isNaN(y)) {
      return Boolean.compare(Double.isNaN(x), Double.isNaN(y));
    }
    return x < y ? -1 : x > y ? 1 : 0;
  }

  /** Compares the strings at {@code a} and {@code b} (at their lengths; -1 for none, first). */
  static int compareStrings(ByteBuffer bb, int a, int b) {
    if (a < 0 || b < 0) {
      return Boolean.compare(a >= 0, b >= 0);
    }
    int la = bb.getInt(a);
    int lb = bb.getInt(b);
    int n = Math.min(la, lb);
    for (int i = 0; i < n; i++) {
      int c = Integer.compare(bb.get(a + 4 + i) & 0xff, bb.get(b + 4 + i) & 0xff);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(la, lb);
  }

  /** The scalar of {@code kind} at {@code p}, as raw bits: unsigned kinds zero-extended. */
  private static long scalar(ByteBuffer bb, int p, FieldKind kind) {
    return switch (kind) {
      case FLOAT -> bb.getInt(p) & 0xffff_ffffL;
      case DOUBLE -> bb.getLong(p);
      default -> RecordsBuffer.integer(bb, kind, p);
    };
  }
}
