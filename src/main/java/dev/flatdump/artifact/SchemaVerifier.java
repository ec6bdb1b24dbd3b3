package dev.flatdump.artifact;

import dev.flatdump.encode.plan.EnumPlan;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * {@link FlatBufferVerifier}'s checks for a shard of any schema, driven by its {@link SchemaPlan}:
 * the header and file identifier; every offset, table, vtable, vector and string in bounds and
 * aligned; strings NUL-terminated and UTF-8; bools 0 or 1; enum values the enum declares; required
 * fields present; scalars, structs and vector elements aligned to their size. Shared tables and
 * vectors are checked once per offset, per type. Bad input gives an {@link
 * FlatBufferVerifier.Error}, never an exception; the buffer is left alone. One call on one thread.
 */
public final class SchemaVerifier {

  private static final int UOFFSET = VerifierBuffer.UOFFSET;
  private static final String HEADER = "(header)";
  private static final String HERE = VerifierBuffer.HERE;

  private final SchemaPlan plan;
  private final VerifierBuffer in;
  private final BitSet[] tables;
  private final Map<FieldPlan, BitSet> vectors = new IdentityHashMap<>();

  private SchemaVerifier(SchemaPlan plan, ByteBuffer buffer) {
    this.plan = plan;
    this.in = new VerifierBuffer(buffer, FlatBufferVerifier.Limits.forSize(buffer.remaining()));
    this.tables = new BitSet[plan.tables().size()];
    for (int i = 0; i < tables.length; i++) {
      tables[i] = new BitSet();
    }
  }

  /**
   * Verifies the bytes from the buffer's position to its limit.
   *
   * @return how many records it holds, or the first problem
   */
  public static FlatBufferVerifier.Result verify(SchemaPlan plan, ByteBuffer buffer) {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(buffer, "buffer");
    SchemaVerifier v = new SchemaVerifier(plan, buffer);
    long count = v.header();
    return v.in.error() == null
        ? new FlatBufferVerifier.Result(count, null)
        : new FlatBufferVerifier.Result(-1, v.in.error());
  }

  private long header() {
    if (in.size() < 2 * UOFFSET) {
      in.fail(0, HEADER, "the buffer has " + in.size() + " bytes, fewer than the 8-byte header");
      return -1;
    }
    String ident = plan.fileIdentifier();
    if (ident != null) {
      for (int i = 0; i < ident.length(); i++) {
        if (in.u8(UOFFSET + i) != ident.charAt(i)) {
          in.fail(UOFFSET, HEADER, "the file identifier is not \"" + ident + "\"");
          return -1;
        }
      }
    }
    long root = in.follow(0, HEADER);
    if (root < 0 || !in.countTable(root)) {
      return -1;
    }
    VerifierBuffer.Table table = in.table(root);
    FieldPlan records = plan.records();
    long p = table == null ? -1 : in.field(table, records.id(), UOFFSET, records.name());
    if (p <= 0) {
      return p; // 0: no records field, an empty shard
    }
    long v = in.follow(p, records.name());
    long count = v < 0 ? -1 : in.vectorLength(v, records.name());
    for (long i = 0; i < count; i++) {
      in.element(0, records.name(), i);
      long r = in.follow(v + UOFFSET + UOFFSET * i, HERE);
      if (r < 0 || !table(plan.recordIndex(), r, 1)) {
        return -1;
      }
    }
    in.leave(0);
    return count;
  }

  /** The table of plan {@code index} at {@code at}; {@code level} is the next path level. */
  private boolean table(int index, long at, int level) {
    if (!in.countTable(at)) {
      return false;
    }
    if (VerifierBuffer.remembered(tables[index], at)) {
      return true;
    }
    TablePlan t = plan.tables().get(index);
    VerifierBuffer.Table table = in.table(at);
    if (table == null) {
      return false;
    }
    for (FieldPlan f : t.fields()) {
      if (!f.deprecated() && !field(table, f, level)) {
        return false;
      }
    }
    return in.end(table, tables[index]);
  }

  private boolean field(VerifierBuffer.Table table, FieldPlan f, int level) {
    FieldKind kind = f.kind();
    TablePlan struct = kind == FieldKind.STRUCT ? plan.tables().get(f.typeIndex()) : null;
    long p =
        struct != null
            ? in.field(table, f.id(), struct.byteSize(), struct.minAlign(), f.name())
            : in.field(table, f.id(), kind.inlineSize(), f.name());
    if (p <= 0) {
      return p == 0 && (!f.required() || in.fail(table.start(), f.name(), "required, and missing"));
    }
    if (kind.isScalar()) {
      return scalar(f, kind, p, f.name());
    }
    if (struct != null) {
      return struct(struct, p);
    }
    long target = in.follow(p, f.name());
    if (target < 0) {
      return false;
    }
    return switch (kind) {
      case STRING -> in.string(target, f.name());
      case TABLE -> table(f.typeIndex(), target, level);
      default -> vector(f, target, level);
    };
  }

  private boolean scalar(FieldPlan f, FieldKind kind, long p, String name) {
    if (kind == FieldKind.BOOL) {
      int b = in.u8(p);
      return b <= 1 || in.fail(p, name, "the value " + b + " is not a bool (0 or 1)");
    }
    if (f.enumIndex() < 0 || !kind.isInteger()) {
      return true;
    }
    long value = in.signed(p, kind.inlineSize());
    if (kind == FieldKind.UBYTE || kind == FieldKind.USHORT || kind == FieldKind.UINT) {
      value &= (1L << (8 * kind.inlineSize())) - 1;
    }
    EnumPlan e = plan.enums().get(f.enumIndex());
    return e.declares(value)
        || in.fail(p, name, "the value " + value + " is not a value of " + e.name());
  }

  /** A struct's bools and enums; its bounds and alignment are its field's. */
  private boolean struct(TablePlan st, long at) {
    for (FieldPlan f : st.fields()) {
      long p = at + f.slot();
      boolean ok =
          f.kind() == FieldKind.STRUCT
              ? struct(plan.tables().get(f.typeIndex()), p)
              : scalar(f, f.kind(), p, f.name());
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private boolean vector(FieldPlan f, long v, int level) {
    BitSet seen = vectors.computeIfAbsent(f, k -> new BitSet());
    if (VerifierBuffer.remembered(seen, v)) {
      return true;
    }
    FieldKind element = f.element();
    TablePlan struct = element == FieldKind.STRUCT ? plan.tables().get(f.typeIndex()) : null;
    int size = struct != null ? struct.byteSize() : element.inlineSize();
    int align = struct != null ? struct.minAlign() : Math.max(1, element.inlineSize());
    long count = in.vectorLength(v, size, align, f.name());
    if (count < 0) {
      return false;
    }
    int pathLevel = Math.min(level, VerifierBuffer.MAX_LEVELS - 1);
    for (long i = 0; i < count; i++) {
      long at = v + UOFFSET + size * i;
      in.element(pathLevel, f.name(), i);
      boolean ok =
          switch (element) {
            case STRING -> {
              long s = in.follow(at, HERE);
              yield s >= 0 && in.string(s, HERE);
            }
            case TABLE -> {
              long t = in.follow(at, HERE);
              yield t >= 0 && table(f.typeIndex(), t, level + 1);
            }
            case STRUCT -> struct(struct, at);
            default -> scalar(f, element, at, HERE);
          };
      if (!ok) {
        return false;
      }
    }
    in.leave(pathLevel);
    seen.set((int) (v >>> 2));
    return true;
  }
}
