package dev.flatdump.reader;

import dev.flatdump.reader.BinarySchema.EnumType;
import dev.flatdump.reader.BinarySchema.Field;
import dev.flatdump.reader.BinarySchema.ObjectType;
import dev.flatdump.reader.BinarySchema.Type;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Records of any export read through its binary schema alone, for tools that have no generated
 * classes: each record as JSON text, as flatc's {@code --json} writes it. A table as an object of
 * the fields its buffer holds, in id order; a struct with every field; an enum by its name when it
 * declares the value; a {@code ulong} unsigned; a non-finite float as the string {@code "NaN"},
 * {@code "Infinity"} or {@code "-Infinity"}; a union as its type field ({@code x_type}, by the
 * member's name) then its value as the member table; a {@code (map)} as the array of its entry
 * tables. {@link #withDefaults} also writes each scalar field the buffer leaves out, as {@code
 * --defaults-json} does: its default, or {@code null} for an optional scalar. The buffer must have
 * passed {@link StructureCheck} (as every shard of an {@link ExportReader} opened with {@link
 * ExportReader.Verify#FULL} has). Stateless; thread-safe.
 */
public final class GenericRecords {

  private final BinarySchema schema;
  private final boolean defaults;
  private final int recordsVoffset;
  private final int recordType;

  private GenericRecords(BinarySchema schema, boolean defaults) {
    this.schema = schema;
    this.defaults = defaults;
    ObjectType root = schema.objects().get(schema.root());
    Field records =
        root.fields().stream()
            .filter(
                f ->
                    !f.deprecated()
                        && f.type().base() == BinarySchema.VECTOR
                        && f.type().element() == BinarySchema.OBJ
                        && !schema.objects().get(f.type().index()).struct())
            .findFirst()
            .orElseThrow(
                () ->
                    new ReaderException(
                        "the root table " + root.name() + " has no vector of tables: no records"));
    this.recordsVoffset = records.offset();
    this.recordType = records.type().index();
  }

  /** Writes the fields each buffer holds, and no others. */
  public static GenericRecords of(BinarySchema schema) {
    return new GenericRecords(schema, false);
  }

  /** Writes every non-deprecated scalar field too, its default where the buffer leaves it out. */
  public static GenericRecords withDefaults(BinarySchema schema) {
    return new GenericRecords(schema, true);
  }

  /** How many records the shard holds. */
  public int count(ByteBuffer shard) {
    ByteBuffer bb = le(shard);
    int vector = recordsVector(bb);
    return vector == 0 ? 0 : bb.getInt(vector);
  }

  /** Record {@code index} of the shard, as one line of JSON. */
  public String json(ByteBuffer shard, int index) {
    ByteBuffer bb = le(shard);
    int vector = recordsVector(bb);
    int n = vector == 0 ? 0 : bb.getInt(vector);
    if (index < 0 || index >= n) {
      throw new IndexOutOfBoundsException("record " + index + " of " + n);
    }
    int element = vector + 4 + 4 * index;
    return jsonAt(bb, element + bb.getInt(element));
  }

  /**
   * The record whose table lies at {@code table} of {@code shard} (a {@link Snapshot#locate}
   * result's {@link Snapshot#tableOf}), as one line of JSON.
   */
  public String jsonAt(ByteBuffer shard, int table) {
    StringBuilder out = new StringBuilder();
    table(le(shard), schema.objects().get(recordType), table, out);
    return out.toString();
  }

  private static ByteBuffer le(ByteBuffer shard) {
    return shard.duplicate().order(ByteOrder.LITTLE_ENDIAN);
  }

  private int recordsVector(ByteBuffer bb) {
    int root = bb.getInt(0);
    int f = BinarySchema.field(bb, root, recordsVoffset);
    return f == 0 ? 0 : f + bb.getInt(f);
  }

  private void table(ByteBuffer bb, ObjectType t, int table, StringBuilder out) {
    out.append('{');
    boolean first = true;
    for (Field f : t.fields()) {
      if (f.deprecated()) {
        continue;
      }
      int p = BinarySchema.field(bb, table, f.offset());
      boolean scalar = isScalar(f.type().base());
      if (p == 0 && !(defaults && scalar)) {
        continue;
      }
      if (!first) {
        out.append(',');
      }
      first = false;
      string(f.name(), out);
      out.append(':');
      if (p != 0 && f.type().base() == BinarySchema.UNION) {
        union(bb, t, f, table, p + bb.getInt(p), out);
      } else if (p != 0) {
        value(bb, f.type(), f.type().base(), p, out);
      } else if (f.optional()) {
        out.append("null");
      } else if (f.type().base() == BinarySchema.FLOAT) {
        number((float) f.defaultReal(), out);
      } else if (f.type().base() == BinarySchema.DOUBLE) {
        number(f.defaultReal(), out);
      } else {
        integer(f.type(), f.type().base(), f.defaultInteger(), out);
      }
    }
    out.append('}');
  }

  private void union(ByteBuffer bb, ObjectType t, Field f, int table, int at, StringBuilder out) {
    int member = 0;
    for (Field type : t.fields()) {
      if (type.id() == f.id() - 1) {
        int p = BinarySchema.field(bb, table, type.offset());
        member = p == 0 ? 0 : bb.get(p) & 0xff;
      }
    }
    Integer object = schema.enums().get(f.type().index()).members().get((long) member);
    if (member == 0 || object == null || object < 0) {
      out.append("null"); // no member to read it as: the structural check refuses such a buffer
      return;
    }
    table(bb, schema.objects().get(object), at, out);
  }

  private void struct(ByteBuffer bb, ObjectType st, int at, StringBuilder out) {
    out.append('{');
    for (int i = 0; i < st.fields().size(); i++) {
      Field f = st.fields().get(i);
      if (i > 0) {
        out.append(',');
      }
      string(f.name(), out);
      out.append(':');
      value(bb, f.type(), f.type().base(), at + f.offset(), out);
    }
    out.append('}');
  }

  /** The value of base type {@code base} (the field's, or its vector's element's) at {@code p}. */
  private void value(ByteBuffer bb, Type type, int base, int p, StringBuilder out) {
    switch (base) {
      case BinarySchema.STRING -> {
        int s = p + bb.getInt(p);
        byte[] bytes = new byte[bb.getInt(s)];
        bb.get(s + 4, bytes);
        string(new String(bytes, StandardCharsets.UTF_8), out);
      }
      case BinarySchema.OBJ -> {
        ObjectType o = schema.objects().get(type.index());
        if (o.struct()) {
          struct(bb, o, p, out);
        } else {
          table(bb, o, p + bb.getInt(p), out);
        }
      }
      case BinarySchema.VECTOR -> {
        int v = p + bb.getInt(p);
        int n = bb.getInt(v);
        int element = type.element();
        int size =
            element == BinarySchema.OBJ && schema.objects().get(type.index()).struct()
                ? schema.objects().get(type.index()).byteSize()
                : isScalar(element) ? StructureCheck.scalarSize(element) : 4;
        out.append('[');
        for (int i = 0; i < n; i++) {
          if (i > 0) {
            out.append(',');
          }
          value(bb, type, element, v + 4 + i * size, out);
        }
        out.append(']');
      }
      case BinarySchema.FLOAT -> number(bb.getFloat(p), out);
      case BinarySchema.DOUBLE -> number(bb.getDouble(p), out);
      default -> integer(type, base, integerAt(bb, base, p), out);
    }
  }

  private static boolean isScalar(int base) {
    return base >= BinarySchema.UTYPE && base <= BinarySchema.DOUBLE;
  }

  private static long integerAt(ByteBuffer bb, int base, int p) {
    return switch (base) {
      case BinarySchema.BOOL, BinarySchema.UBYTE, BinarySchema.UTYPE -> bb.get(p) & 0xffL;
      case BinarySchema.BYTE -> bb.get(p);
      case BinarySchema.SHORT -> bb.getShort(p);
      case BinarySchema.USHORT -> bb.getShort(p) & 0xffffL;
      case BinarySchema.INT -> bb.getInt(p);
      case BinarySchema.UINT -> bb.getInt(p) & 0xffff_ffffL;
      case BinarySchema.LONG, BinarySchema.ULONG -> bb.getLong(p);
      default -> throw new ReaderException("not an integer type: " + base);
    };
  }

  private void integer(Type type, int base, long v, StringBuilder out) {
    if (base == BinarySchema.BOOL) {
      out.append(v != 0);
      return;
    }
    if (type.index() >= 0 && base != BinarySchema.VECTOR) {
      EnumType e = schema.enums().get(type.index());
      Map<Long, String> names = e.names();
      String name = names.get(v);
      if (name != null) {
        string(name, out);
        return;
      }
    }
    out.append(base == BinarySchema.ULONG ? Long.toUnsignedString(v) : Long.toString(v));
  }

  /** {@code d} as JSON: a number, or {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}. */
  public static void number(double d, StringBuilder out) {
    if (Double.isNaN(d)) {
      out.append("\"NaN\"");
    } else if (Double.isInfinite(d)) {
      out.append(d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    } else {
      out.append(d);
    }
  }

  /** {@code f} as JSON, as {@link #number(double, StringBuilder)}, in a float's digits. */
  public static void number(float f, StringBuilder out) {
    if (Float.isNaN(f) || Float.isInfinite(f)) {
      number((double) f, out);
    } else {
      out.append(f);
    }
  }

  /** {@code s} as a JSON string. */
  public static void string(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
