package dev.flatdump.artifact.check;

import dev.flatdump.encode.engine.KeyOrder;
import dev.flatdump.encode.engine.RecordEncoder;
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
 * Checks a shard of any schema before anything reads it, as the C++ {@code flatbuffers::Verifier}
 * does, driven by its {@link SchemaPlan}: the header and file identifier; every offset, table,
 * vtable, vector and string in bounds and aligned; strings NUL-terminated and UTF-8; bools 0 or 1;
 * enum values the enum declares; required fields present; scalars, structs and vector elements
 * aligned to their size. Shared tables and vectors are checked once per offset, per type. Bad input
 * gives an {@link Error}, never an exception; the buffer is left alone. One call on one thread.
 */
public final class SchemaVerifier {

  /**
   * The first problem found.
   *
   * @param offset the byte it concerns, from the buffer's position
   * @param path where in the data, e.g. {@code organizations[12].attributes[3].id}; {@code
   *     (header)} for the first 8 bytes, {@code (root)} for the root table
   * @param reason what is wrong, with the values found
   */
  public record Error(long offset, String path, String reason) {
    public Error {
      if (offset < 0) {
        throw new IllegalArgumentException("Error.offset must be >= 0, got " + offset);
      }
      Objects.requireNonNull(path, "Error.path");
      Objects.requireNonNull(reason, "Error.reason");
    }

    @Override
    public String toString() {
      return "at byte " + offset + " (" + path + "): " + reason;
    }
  }

  /**
   * The outcome of one verification.
   *
   * @param records how many records the buffer holds; -1 when it is invalid
   * @param error the first problem, or null when the buffer is valid
   */
  public record Result(long records, Error error) {
    public Result {
      if ((error == null) != (records >= 0)) {
        throw new IllegalArgumentException(
            "a Result has records >= 0 or an error, got " + records + ", " + error);
      }
    }

    public boolean valid() {
      return error == null;
    }
  }

  /**
   * Bounds on the work a buffer may cause.
   *
   * @param maxDepth how deep tables may nest; by default {@link RecordEncoder#MAX_TABLE_DEPTH} (64,
   *     as in C++), the depth past which the export rejects a document
   * @param maxTables how many times tables may be visited, counting every reference to a shared
   *     table
   * @param maxStringBytes how many string bytes may be checked, summed over distinct strings
   */
  public record Limits(int maxDepth, long maxTables, long maxStringBytes) {
    public Limits {
      if (maxDepth < 1 || maxTables < 1 || maxStringBytes < 0) {
        throw new IllegalArgumentException(
            "Limits must be maxDepth >= 1, maxTables >= 1, maxStringBytes >= 0, got "
                + maxDepth
                + ", "
                + maxTables
                + ", "
                + maxStringBytes);
      }
    }

    /**
     * The default limits for a buffer of {@code bytes}. They never stop a well-formed buffer,
     * however much it shares. Every table reference is a distinct 4-byte offset once vectors are
     * remembered, so there are at most {@code bytes / 4 + 1}. Distinct strings do not overlap, so
     * their bytes add up to less than {@code bytes}.
     */
    public static Limits forSize(long bytes) {
      return new Limits(RecordEncoder.MAX_TABLE_DEPTH, bytes / UOFFSET + 1, bytes);
    }
  }

  private static final int UOFFSET = VerifierBuffer.UOFFSET;
  private static final String HEADER = "(header)";
  private static final String HERE = VerifierBuffer.HERE;

  private final SchemaPlan plan;
  private final VerifierBuffer in;
  private final BitSet[] tables;
  private final Map<FieldPlan, BitSet> vectors = new IdentityHashMap<>();

  /** Per key field of a table type, what a table without it holds. */
  private final Map<FieldPlan, Long> absentKeys = new IdentityHashMap<>();

  private SchemaVerifier(SchemaPlan plan, ByteBuffer buffer, Limits limits) {
    this.plan = plan;
    this.in = new VerifierBuffer(buffer, limits);
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
  public static Result verify(SchemaPlan plan, ByteBuffer buffer) {
    Objects.requireNonNull(buffer, "buffer");
    return verify(plan, buffer, Limits.forSize(buffer.remaining()));
  }

  /**
   * Verifies the bytes from the buffer's position to its limit within {@code limits}.
   *
   * @return how many records it holds, or the first problem
   */
  public static Result verify(SchemaPlan plan, ByteBuffer buffer, Limits limits) {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(buffer, "buffer");
    Objects.requireNonNull(limits, "limits");
    SchemaVerifier v = new SchemaVerifier(plan, buffer, limits);
    long count = v.header();
    return v.in.error() == null ? new Result(count, null) : new Result(-1, v.in.error());
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
          StringBuilder found = new StringBuilder();
          for (int j = 0; j < ident.length(); j++) {
            int c = in.u8(UOFFSET + j);
            found.append(c >= 0x20 && c < 0x7f ? (char) c : '?');
          }
          in.fail(
              UOFFSET,
              HEADER,
              "the file identifier is \"" + found + "\", expected \"" + ident + "\"");
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
      case UNION -> union(table, f, target, level);
      default -> vector(f, target, level);
    };
  }

  /** A union's value: a table of the member its type field names. */
  private boolean union(VerifierBuffer.Table table, FieldPlan f, long target, int level) {
    long type = in.field(table, f.id() - 1, 1, f.name() + "_type");
    int member = type > 0 ? in.u8(type) : 0;
    EnumPlan u = plan.enums().get(f.enumIndex());
    if (member <= 0 || member >= u.members().size() || u.members().get(member) < 0) {
      return type >= 0
          && in.fail(target, f.name(), "a union's value, but its type is " + member + " (NONE)");
    }
    return table(u.members().get(member), target, level);
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

  /**
   * Whether the key of the element at {@code a} is at most that of the one at {@code b}; less, in a
   * {@code (map)}, whose keys are unique.
   */
  private boolean keyOrdered(FieldPlan f, FieldPlan key, long a, long b) {
    int x = in.absolute(a);
    int y = in.absolute(b);
    int c =
        f.element() == FieldKind.TABLE
            ? KeyOrder.compareTables(in.buffer(), x, y, key, absentKeys.get(key))
            : KeyOrder.compareStructs(in.buffer(), x, y, key);
    return f.map() ? c < 0 : c <= 0;
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
    FieldPlan key =
        element == FieldKind.TABLE || element == FieldKind.STRUCT
            ? plan.tables().get(f.typeIndex()).key()
            : null;
    if (key != null && element == FieldKind.TABLE) {
      absentKeys.computeIfAbsent(key, k -> KeyOrder.absentKey(plan.tables().get(f.typeIndex()), k));
    }
    long previous = -1;
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
      long here = element == FieldKind.TABLE ? at + in.buffer().getInt(in.absolute(at)) : at;
      if (key != null && previous >= 0 && !keyOrdered(f, key, previous, here)) {
        return in.fail(
            at,
            HERE,
            (f.map()
                    ? "not in the strict order of its map's keys "
                    : "not in the order of its key ")
                + key.name()
                + " (after element "
                + (i - 1)
                + "), which lookups by key need");
      }
      previous = here;
    }
    in.leave(pathLevel);
    seen.set((int) (v >>> 2));
    return true;
  }
}
