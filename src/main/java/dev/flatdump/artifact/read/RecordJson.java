package dev.flatdump.artifact.read;

import dev.flatdump.encode.engine.RecordsBuffer;
import dev.flatdump.encode.plan.EnumPlan;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import dev.flatdump.reader.GenericRecords;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads the records of a shard of any schema through its {@link SchemaPlan}, as JSON text: a table
 * as an object of the fields its buffer holds, in id order; a struct with every field; an enum by
 * its name when it declares the value; a {@code ulong} unsigned; a non-finite float as the string
 * {@code "NaN"}, {@code "Infinity"} or {@code "-Infinity"}; a union as flatc writes it, its type
 * field ({@code x_type}) by the member's name, then its value as the member table ({@code
 * (wrapper)} members as {@code {"value": ...}}); a {@code (map)} as the array of its entry tables
 * ({@code {"key": ..., "value": ...}}) in key order. {@link #withDefaults} also writes each scalar
 * field the buffer leaves out, as {@code flatc --json --defaults-json} does: its default ({@code
 * false}, {@code 0}, an enum's name), or {@code null} for an optional scalar. The buffer must have
 * passed a structural check: offsets are followed as they are. Stateless; thread-safe.
 */
public final class RecordJson {

  private final SchemaPlan plan;
  private final boolean defaults;

  /** Writes the fields the buffer holds, and no others. */
  public RecordJson(SchemaPlan plan) {
    this(plan, false);
  }

  private RecordJson(SchemaPlan plan, boolean defaults) {
    this.plan = plan;
    this.defaults = defaults;
  }

  /**
   * Writes every non-deprecated scalar field too, its default where the buffer leaves it out, as
   * {@code flatc --json --defaults-json} does; strings, tables and vectors only when present.
   */
  public static RecordJson withDefaults(SchemaPlan plan) {
    return new RecordJson(plan, true);
  }

  /** How many records the shard holds. */
  public int count(ByteBuffer shard) {
    ByteBuffer bb = le(shard);
    int vector = recordsVector(bb);
    return vector == 0 ? 0 : bb.getInt(vector);
  }

  /** Record {@code index} of the shard, as one line of JSON. */
  public String record(ByteBuffer shard, int index) {
    ByteBuffer bb = le(shard);
    int vector = recordsVector(bb);
    int n = vector == 0 ? 0 : bb.getInt(vector);
    if (index < 0 || index >= n) {
      throw new IndexOutOfBoundsException("record " + index + " of " + n);
    }
    int element = vector + 4 + 4 * index;
    StringBuilder out = new StringBuilder();
    table(bb, plan.record(), element + bb.getInt(element), out);
    return out.toString();
  }

  private static ByteBuffer le(ByteBuffer shard) {
    return shard.duplicate().order(ByteOrder.LITTLE_ENDIAN);
  }

  private int recordsVector(ByteBuffer bb) {
    return RecordsBuffer.recordsVector(bb, plan);
  }

  private static int fieldPosition(ByteBuffer bb, int table, int slot) {
    return RecordsBuffer.fieldPosition(bb, table, slot);
  }

  private void table(ByteBuffer bb, TablePlan t, int table, StringBuilder out) {
    out.append('{');
    boolean first = true;
    for (FieldPlan f : t.fields()) {
      if (f.deprecated()) {
        continue;
      }
      int p = fieldPosition(bb, table, f.slot());
      if (p == 0 && !(defaults && f.kind().isScalar())) {
        continue;
      }
      if (!first) {
        out.append(',');
      }
      first = false;
      string(f.name(), out);
      out.append(':');
      if (p != 0 && f.kind() == FieldKind.UNION) {
        union(bb, t, f, table, p + bb.getInt(p), out);
      } else if (p != 0) {
        value(bb, f, f.kind(), p, out);
      } else if (f.optional()) {
        out.append("null");
      } else {
        defaultValue(f, out);
      }
    }
    out.append('}');
  }

  /**
   * Union field {@code f} of the table at {@code table}, its value at {@code at}: the member table
   * its type field (the id before it, written just before as the member's name) names.
   */
  private void union(
      ByteBuffer bb, TablePlan t, FieldPlan f, int table, int at, StringBuilder out) {
    int type = fieldPosition(bb, table, t.fields().get(f.id() - 1).slot());
    int member = type == 0 ? 0 : bb.get(type) & 0xff;
    EnumPlan u = plan.enums().get(f.enumIndex());
    if (member >= u.members().size() || u.members().get(member) < 0) {
      out.append("null"); // no member to read it as: check refuses such a buffer
      return;
    }
    table(bb, plan.tables().get(u.members().get(member)), at, out);
  }

  private void struct(ByteBuffer bb, TablePlan st, int at, StringBuilder out) {
    out.append('{');
    for (int i = 0; i < st.fields().size(); i++) {
      FieldPlan f = st.fields().get(i);
      if (i > 0) {
        out.append(',');
      }
      string(f.name(), out);
      out.append(':');
      value(bb, f, f.kind(), at + f.slot(), out);
    }
    out.append('}');
  }

  /** The value of kind {@code kind} (the field's, or its vector's element's) at {@code p}. */
  private void value(ByteBuffer bb, FieldPlan f, FieldKind kind, int p, StringBuilder out) {
    switch (kind) {
      case STRING -> {
        string(RecordsBuffer.string(bb, p), out);
      }
      case TABLE -> table(bb, plan.tables().get(f.typeIndex()), p + bb.getInt(p), out);
      case STRUCT -> struct(bb, plan.tables().get(f.typeIndex()), p, out);
      case VECTOR -> {
        int v = p + bb.getInt(p);
        int n = bb.getInt(v);
        FieldKind element = f.element();
        int size = plan.inlineSize(f, element);
        out.append('[');
        for (int i = 0; i < n; i++) {
          if (i > 0) {
            out.append(',');
          }
          value(bb, f, element, v + 4 + i * size, out);
        }
        out.append(']');
      }
      default -> scalar(bb, f, kind, p, out);
    }
  }

  private void scalar(ByteBuffer bb, FieldPlan f, FieldKind kind, int p, StringBuilder out) {
    if (kind == FieldKind.FLOAT) {
      number(bb.getFloat(p), out);
      return;
    }
    if (kind == FieldKind.DOUBLE) {
      number(bb.getDouble(p), out);
      return;
    }
    integer(f, kind, RecordsBuffer.integer(bb, kind, p), out);
  }

  /** The schema's default of a scalar field the buffer leaves out. */
  private void defaultValue(FieldPlan f, StringBuilder out) {
    switch (f.kind()) {
      case FLOAT -> number((float) f.defaultReal(), out);
      case DOUBLE -> number(f.defaultReal(), out);
      default -> integer(f, f.kind(), f.defaultInteger(), out);
    }
  }

  private void integer(FieldPlan f, FieldKind kind, long v, StringBuilder out) {
    if (kind == FieldKind.BOOL) {
      out.append(v != 0);
      return;
    }
    if (f.enumIndex() >= 0) {
      EnumPlan e = plan.enums().get(f.enumIndex());
      for (var entry : e.byName().entrySet()) {
        if (entry.getValue() == v) {
          string(entry.getKey(), out);
          return;
        }
      }
    }
    out.append(kind == FieldKind.ULONG ? Long.toUnsignedString(v) : Long.toString(v));
  }

  private static void number(double d, StringBuilder out) {
    GenericRecords.number(d, out);
  }

  private static void number(float f, StringBuilder out) {
    GenericRecords.number(f, out);
  }

  private static void string(String s, StringBuilder out) {
    GenericRecords.string(s, out);
  }
}
