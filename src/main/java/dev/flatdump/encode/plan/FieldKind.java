package dev.flatdump.encode.plan;

import java.math.BigInteger;

/**
 * What a field holds, as the FlatBuffers wire format sees it: each scalar width, a string, a struct
 * (inline), a table, a vector or a union (by offset). An enum field is its underlying integer kind,
 * with {@link FieldPlan#enumIndex()} set. An integer kind knows the values it holds ({@link
 * #min()}, {@link #max()}, {@link #fits(long)}): the one statement of those ranges.
 */
public enum FieldKind {
  BOOL(1),
  BYTE(1, Byte.MIN_VALUE, Byte.MAX_VALUE),
  UBYTE(1, 0, 0xFF),
  SHORT(2, Short.MIN_VALUE, Short.MAX_VALUE),
  USHORT(2, 0, 0xFFFF),
  INT(4, Integer.MIN_VALUE, Integer.MAX_VALUE),
  UINT(4, 0, 0xFFFF_FFFFL),
  LONG(8, Long.MIN_VALUE, Long.MAX_VALUE),
  /**
   * Holds 0 to 2^64 - 1; as a signed {@code long}, 0 to {@link Long#MAX_VALUE} ({@link #max()}).
   */
  ULONG(8, 0, Long.MAX_VALUE),
  FLOAT(4),
  DOUBLE(8),
  STRING(4),
  STRUCT(0),
  TABLE(4),
  VECTOR(4),
  /**
   * A union's value, by offset: one of its member tables, which {@link FieldPlan#enumIndex()}'s
   * {@link EnumPlan#members()} name; its type is the {@link FieldPlan#unionType()} field before it.
   */
  UNION(4);

  private final int size;
  private final long min;
  private final long max;

  /** A kind that is not an integer: it has no range. */
  FieldKind(int size) {
    this(size, 0, -1);
  }

  FieldKind(int size, long min, long max) {
    this.size = size;
    this.min = min;
    this.max = max;
  }

  /**
   * Bytes the field takes inline in its table: the scalar's width, 4 for an offset; 0 for a struct,
   * whose size is its own ({@link TablePlan#byteSize()}).
   */
  public int inlineSize() {
    return size;
  }

  /** Whether the value is a number or a bool stored inline. */
  public boolean isScalar() {
    return ordinal() <= DOUBLE.ordinal();
  }

  /** Whether the value is an integer (bool excluded). */
  public boolean isInteger() {
    return ordinal() >= BYTE.ordinal() && ordinal() <= ULONG.ordinal();
  }

  /**
   * The smallest value an integer kind holds: 0 for an unsigned one.
   *
   * @throws IllegalArgumentException for a kind that is not an integer
   */
  public long min() {
    requireInteger();
    return min;
  }

  /**
   * The largest value an integer kind holds that a signed {@code long} can be: {@code 2^(n-1) - 1}
   * for a signed kind of n bits, {@code 2^n - 1} for an unsigned one, but {@link Long#MAX_VALUE}
   * for {@link #ULONG}, whose values from 2^63 up are negative as a {@code long}.
   *
   * @throws IllegalArgumentException for a kind that is not an integer
   */
  public long max() {
    requireInteger();
    return max;
  }

  /**
   * Whether an integer kind holds {@code v}, read as signed: {@code min() <= v <= max()}. A {@code
   * ulong} takes no negative number.
   *
   * @throws IllegalArgumentException for a kind that is not an integer
   */
  public boolean fits(long v) {
    requireInteger();
    return v >= min && v <= max;
  }

  /**
   * Whether an integer kind holds {@code v}, of any size: {@link #fits(long)}, and for {@link
   * #ULONG} also 2^63 to 2^64 - 1.
   *
   * @throws IllegalArgumentException for a kind that is not an integer
   */
  public boolean fits(BigInteger v) {
    requireInteger();
    return v.bitLength() < Long.SIZE
        ? fits(v.longValue())
        : this == ULONG && v.signum() > 0 && v.bitLength() == Long.SIZE;
  }

  private void requireInteger() {
    if (!isInteger()) {
      throw new IllegalArgumentException("not an integer kind: " + this);
    }
  }

  /**
   * The kind of a binary schema's {@code BaseType} ({@code reflection.fbs}), or null for one that
   * has none here ({@code None}, {@code Array}). A union's type field ({@code UType}) is a {@code
   * ubyte}.
   */
  static FieldKind of(byte baseType, boolean struct) {
    return switch (baseType) {
      case 1 -> UBYTE;
      case 2 -> BOOL;
      case 3 -> BYTE;
      case 4 -> UBYTE;
      case 5 -> SHORT;
      case 6 -> USHORT;
      case 7 -> INT;
      case 8 -> UINT;
      case 9 -> LONG;
      case 10 -> ULONG;
      case 11 -> FLOAT;
      case 12 -> DOUBLE;
      case 13 -> STRING;
      case 14 -> VECTOR;
      case 15 -> struct ? STRUCT : TABLE;
      case 16 -> UNION;
      default -> null;
    };
  }
}
