package dev.flatdump.encode.engine;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How values are laid out in the buffer: the order a table's fields are written in, scalars and
 * structs as bytes, and vectors. Tables are written children first ({@link RecordEncoder}), their
 * fields in the order of flatc's generated {@code createX} ({@link #writeOrder}), so that a table's
 * bytes equal those of flatc's generated Java for the same values ({@code RecordEncoderTest}
 * compares them with {@code Attribute.createAttribute}). Static and stateless.
 */
final class TableLayout {

  private TableLayout() {}

  /**
   * The order flatc's generated {@code createX} writes a table's fields in: largest inline size
   * first (a struct counts its own size, an offset 4), and among equal sizes the highest id first.
   * Deprecated fields are never written.
   */
  static int[] writeOrder(TablePlan t, SchemaPlan plan) {
    List<FieldPlan> fields = new ArrayList<>();
    for (FieldPlan f : t.fields()) {
      if (!f.deprecated()) {
        fields.add(f);
      }
    }
    fields.sort(
        Comparator.comparingInt((FieldPlan f) -> -plan.inlineSize(f, f.kind()))
            .thenComparingInt(f -> -f.id()));
    return fields.stream().mapToInt(FieldPlan::id).toArray();
  }

  /**
   * Whether a field present with its default is left out of its table, as the generated code's
   * {@code addX(..., default)} does: a scalar, unless it is optional ({@code = null}) or the key,
   * which the generated {@code addX} writes whatever its value.
   */
  static boolean leftOutAtDefault(FieldPlan f) {
    return f.kind().isScalar() && !f.optional() && !f.key();
  }

  /** Each field's default as raw bits, comparable with the bits {@link Scalars} gives. */
  static long[] defaultBits(TablePlan t) {
    long[] bits = new long[t.fields().size()];
    for (FieldPlan f : t.fields()) {
      bits[f.id()] =
          switch (f.kind()) {
            case FLOAT -> Float.floatToRawIntBits((float) f.defaultReal());
            case DOUBLE -> Double.doubleToRawLongBits(f.defaultReal());
            default -> f.defaultInteger();
          };
    }
    return bits;
  }

  /** Writes one scalar at the builder's front (aligned), as {@code addX(value)} does. */
  static void addScalar(FlatBufferBuilder builder, FieldKind kind, long bits) {
    switch (kind) {
      case BOOL -> builder.addBoolean(bits != 0);
      case BYTE, UBYTE -> builder.addByte((byte) bits);
      case SHORT, USHORT -> builder.addShort((short) bits);
      case INT, UINT -> builder.addInt((int) bits);
      case LONG, ULONG -> builder.addLong(bits);
      case FLOAT -> builder.addFloat(Float.intBitsToFloat((int) bits));
      case DOUBLE -> builder.addDouble(Double.longBitsToDouble(bits));
      default -> throw new IllegalArgumentException("not a scalar: " + kind);
    }
  }

  /** Writes one scalar without alignment, as a vector's element. */
  private static void putScalar(FlatBufferBuilder builder, FieldKind kind, long bits) {
    switch (kind) {
      case BOOL -> builder.putBoolean(bits != 0);
      case BYTE, UBYTE -> builder.putByte((byte) bits);
      case SHORT, USHORT -> builder.putShort((short) bits);
      case INT, UINT -> builder.putInt((int) bits);
      case LONG, ULONG -> builder.putLong(bits);
      case FLOAT -> builder.putFloat(Float.intBitsToFloat((int) bits));
      case DOUBLE -> builder.putDouble(Double.longBitsToDouble(bits));
      default -> throw new IllegalArgumentException("not a scalar: " + kind);
    }
  }

  /** Writes {@code size} little-endian bytes of {@code bits} into {@code out} at {@code at}. */
  static void putLittleEndian(byte[] out, int at, long bits, int size) {
    for (int i = 0; i < size; i++) {
      out[at + i] = (byte) (bits >>> (8 * i));
    }
  }

  /** Writes a struct's bytes aligned as the struct needs; the builder's offset is then its own. */
  static void putStruct(FlatBufferBuilder builder, TablePlan st, byte[] bytes) {
    builder.prep(st.minAlign(), st.byteSize());
    for (int i = bytes.length - 1; i >= 0; i--) {
      builder.putByte(bytes[i]);
    }
  }

  /** Writes the {@code n} elements the scratch holds as a vector of {@code element}. */
  static int writeVector(
      FlatBufferBuilder builder,
      FieldKind element,
      SchemaPlan plan,
      FieldPlan f,
      Scratch s,
      int n) {
    switch (element) {
      case STRING, TABLE -> {
        builder.startVector(4, n, 4);
        // the room is made and aligned: addOffset's bytes without its prep per element
        for (int i = n - 1; i >= 0; i--) {
          builder.putInt(builder.offset() + 4 - s.elementOffsets[i]);
        }
      }
      case STRUCT -> {
        TablePlan st = plan.tables().get(f.typeIndex());
        builder.startVector(st.byteSize(), n, st.minAlign());
        for (int i = n - 1; i >= 0; i--) {
          byte[] bytes = s.elementStructs[i];
          for (int k = bytes.length - 1; k >= 0; k--) {
            builder.putByte(bytes[k]);
          }
        }
      }
      default -> {
        int size = element.inlineSize();
        builder.startVector(size, n, size);
        for (int i = n - 1; i >= 0; i--) {
          putScalar(builder, element, s.elementBits[i]);
        }
      }
    }
    return builder.endVector();
  }
}
