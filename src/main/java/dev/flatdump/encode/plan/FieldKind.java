package dev.flatdump.encode.plan;

/**
 * What a field holds, as the FlatBuffers wire format sees it: each scalar width, a string, a struct
 * (inline), a table or a vector (both by offset). An enum field is its underlying integer kind,
 * with {@link FieldPlan#enumIndex()} set.
 */
public enum FieldKind {
  BOOL(1),
  BYTE(1),
  UBYTE(1),
  SHORT(2),
  USHORT(2),
  INT(4),
  UINT(4),
  LONG(8),
  ULONG(8),
  FLOAT(4),
  DOUBLE(8),
  STRING(4),
  STRUCT(0),
  TABLE(4),
  VECTOR(4);

  private final int size;

  FieldKind(int size) {
    this.size = size;
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
   * The kind of a binary schema's {@code BaseType} ({@code reflection.fbs}), or null for one that
   * has none here ({@code None}, {@code UType}, {@code Union}, {@code Array}).
   */
  static FieldKind of(byte baseType, boolean struct) {
    return switch (baseType) {
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
      default -> null;
    };
  }
}
