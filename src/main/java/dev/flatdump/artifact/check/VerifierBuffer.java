package dev.flatdump.artifact.check;

import dev.flatdump.encode.engine.Utf8;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.BitSet;

/**
 * The FlatBuffers format rules that {@link SchemaVerifier} applies to one buffer, whatever the
 * schema: bounds, alignment, tables and their vtables, fields, vectors of offsets and strings.
 *
 * <p>Every read is by absolute index and is preceded by a bounds check. Offsets are relative to the
 * buffer's position, held in {@code long}s, so that no sum can overflow. Each check returns false,
 * -1 or null on failure and records only the first failure, with the path where it was. One
 * instance per verification. Not thread-safe.
 */
final class VerifierBuffer {

  static final int UOFFSET = 4;

  /** The name for the object itself, as opposed to one of its fields. */
  static final String HERE = "";

  private static final int MAX_VOFFSET = Short.MAX_VALUE;

  /** Path levels kept for messages: vectors nested in vectors' tables. */
  static final int MAX_LEVELS = 64;

  private static final String ROOT = "(root)";

  /** A table whose header has passed: where it is, its vtable, and their sizes. */
  record Table(long start, long vtable, int vtableSize, int tableSize) {}

  private final ByteBuffer buf;
  private final int base;
  private final long size;
  private final SchemaVerifier.Limits limits;
  private final BitSet strings = new BitSet();
  private final String[] vectors = new String[MAX_LEVELS];
  private final long[] indexes = new long[MAX_LEVELS];
  private int levels;
  private int depth;
  private long tables;
  private long stringBytes;
  private SchemaVerifier.Error error;

  VerifierBuffer(ByteBuffer buffer, SchemaVerifier.Limits limits) {
    this.buf = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    this.base = buffer.position();
    this.size = buffer.remaining();
    this.limits = limits;
  }

  /** The buffer, little-endian; position {@code at} of this class lies at {@link #absolute}. */
  ByteBuffer buffer() {
    return buf;
  }

  int absolute(long at) {
    return base + (int) at;
  }

  long size() {
    return size;
  }

  /** The first failure, or null. */
  SchemaVerifier.Error error() {
    return error;
  }

  // ---- where we are, for error paths ----

  /**
   * Enters element {@code index} of vector {@code name} at path level {@code level}. Level 0 is a
   * vector of the root table; levels below {@code level} stay.
   */
  void element(int level, String name, long index) {
    vectors[level] = name;
    indexes[level] = index;
    levels = level + 1;
  }

  /** Leaves path level {@code level} and the levels below it. */
  void leave(int level) {
    levels = level;
  }

  // ---- tables ----

  /** Counts one visit to a table, shared or not, against {@code maxTables}. */
  boolean countTable(long t) {
    return ++tables <= limits.maxTables()
        || fail(
            t,
            HERE,
            "more than "
                + limits.maxTables()
                + " table visits: the buffer points into the same bytes too often");
  }

  /** Whether the object at {@code at} passed already: only aligned offsets are ever remembered. */
  static boolean remembered(BitSet kind, long at) {
    return (at & 3) == 0 && kind.get((int) (at >>> 2));
  }

  /** Checks a table's header and vtable, and enters it; null after a failure. */
  Table table(long t) {
    if (depth >= limits.maxDepth()) {
      fail(t, HERE, "tables nest deeper than " + limits.maxDepth());
      return null;
    }
    if (!aligned(t, UOFFSET, HERE, "the table")
        || !fits(t, UOFFSET, HERE, "table's vtable offset")) {
      return null;
    }
    long vt = t - buf.getInt(base + (int) t); // a signed offset: the vtable may lie either side
    if (vt < 0 || vt > size - Short.BYTES) {
      fail(t, HERE, "the table's vtable at " + vt + " is outside the buffer (" + size + " bytes)");
      return null;
    }
    if (!aligned(vt, Short.BYTES, HERE, "the vtable")) {
      return null;
    }
    int vsize = u16(vt);
    if ((vsize & 1) != 0 || vsize < 4 || vsize > MAX_VOFFSET) {
      fail(vt, HERE, "the vtable size " + vsize + " is not an even number in 4..32767");
      return null;
    }
    if (!fits(vt, vsize, HERE, "vtable")) {
      return null;
    }
    int tsize = u16(vt + 2);
    if (tsize < UOFFSET || tsize > MAX_VOFFSET) {
      fail(vt + 2, HERE, "the table's inline size " + tsize + " is not in 4..32767");
      return null;
    }
    if (!fits(t, tsize, HERE, "table")) {
      return null;
    }
    depth++;
    return new Table(t, vt, vsize, tsize);
  }

  /** Leaves a table that passed and remembers it as {@code kind}; always true. */
  boolean end(Table table, BitSet kind) {
    depth--;
    kind.set((int) (table.start() >>> 2));
    return true;
  }

  /**
   * Where field {@code id} of {@code width} bytes (also its alignment) is: 0 when absent, -1 after
   * a failure.
   */
  long field(Table table, int id, int width, String name) {
    return field(table, id, width, width, name);
  }

  /** {@link #field(Table, int, int, String)} for a field of its own alignment, a struct. */
  long field(Table table, int id, int width, int alignment, String name) {
    int slot = 4 + 2 * id;
    if (slot + Short.BYTES > table.vtableSize()) {
      return 0; // a shorter vtable: written before the field existed
    }
    int fo = u16(table.vtable() + slot);
    if (fo == 0) {
      return 0;
    }
    if (fo < UOFFSET || fo + width > table.tableSize()) {
      fail(
          table.vtable() + slot,
          name,
          "the field offset "
              + fo
              + " does not fit a "
              + width
              + "-byte field between the vtable offset and the table's end ("
              + table.tableSize()
              + " bytes)");
      return -1;
    }
    long p = table.start() + fo;
    return aligned(p, alignment, name, "the field") ? p : -1;
  }

  // ---- vectors and strings ----

  /** The element count of a vector of uoffsets at {@code v}, or -1 after a failure. */
  long vectorLength(long v, String name) {
    return vectorLength(v, UOFFSET, UOFFSET, name);
  }

  /**
   * The element count of a vector of {@code elementSize}-byte elements aligned to {@code alignment}
   * at {@code v}, or -1 after a failure.
   */
  long vectorLength(long v, int elementSize, int alignment, String name) {
    if (!aligned(v, UOFFSET, name, "the vector") || !fits(v, UOFFSET, name, "vector's length")) {
      return -1;
    }
    if (!aligned(v + UOFFSET, alignment, name, "the vector's elements")) {
      return -1;
    }
    long length = u32(v);
    long bytes = (long) elementSize * length; // < 2^48: no overflow in a long
    if (bytes > size - v - UOFFSET) {
      fail(
          v,
          name,
          "the vector's "
              + length
              + " elements ("
              + bytes
              + " bytes) run past the buffer's end ("
              + size
              + " bytes)");
      return -1;
    }
    return length;
  }

  /** The string at {@code s}: in bounds, NUL-terminated, UTF-8; each offset checked once. */
  boolean string(long s, String name) {
    if (!aligned(s, UOFFSET, name, "the string") || !fits(s, UOFFSET, name, "string's length")) {
      return false;
    }
    if (strings.get((int) (s >>> 2))) {
      return true;
    }
    long length = u32(s);
    long end = s + UOFFSET + length;
    if (end >= size) {
      return fail(
          s,
          name,
          "the string's "
              + length
              + " bytes and NUL run past the buffer's end ("
              + size
              + " bytes)");
    }
    if (buf.get(base + (int) end) != 0) {
      return fail(end, name, "the string of " + length + " bytes is not NUL-terminated");
    }
    stringBytes += length;
    if (stringBytes > limits.maxStringBytes()) {
      return fail(
          s,
          name,
          "more than "
              + limits.maxStringBytes()
              + " bytes of strings: the buffer's strings overlap");
    }
    int bad = Utf8.firstInvalid(buf, base + (int) s + UOFFSET, (int) length);
    if (bad >= 0) {
      return fail(s + UOFFSET + bad, name, "the string is not valid UTF-8 at its byte " + bad);
    }
    strings.set((int) (s >>> 2));
    return true;
  }

  // ---- offsets, bounds and reads ----

  /** Follows the uoffset at {@code p}: the target, or -1 after a failure. */
  long follow(long p, String name) {
    if (!aligned(p, UOFFSET, name, "the offset") || !fits(p, UOFFSET, name, "offset")) {
      return -1;
    }
    long o = u32(p);
    if (o == 0) {
      fail(p, name, "the offset is 0");
      return -1;
    }
    if (o >= size - p) {
      fail(p, name, "the offset " + o + " points past the buffer's end (" + size + " bytes)");
      return -1;
    }
    return p + o;
  }

  private boolean aligned(long at, int alignment, String name, String what) {
    return (at & (alignment - 1)) == 0
        || fail(at, name, what + " at " + at + " is not " + alignment + "-byte aligned");
  }

  /** Whether {@code bytes} from {@code at} lie inside the buffer. */
  private boolean fits(long at, long bytes, String name, String what) {
    return at >= 0 && bytes <= size - at
        || fail(
            at,
            name,
            "the "
                + what
                + " ("
                + bytes
                + " bytes) runs past the buffer's end ("
                + size
                + " bytes)");
  }

  /** The byte at {@code at}, which the caller has checked lies in the buffer. */
  int u8(long at) {
    return buf.get(base + (int) at) & 0xFF;
  }

  /** The {@code size}-byte integer at {@code at} (checked to lie in the buffer), sign-extended. */
  long signed(long at, int size) {
    return switch (size) {
      case 1 -> buf.get(base + (int) at);
      case 2 -> buf.getShort(base + (int) at);
      case 4 -> buf.getInt(base + (int) at);
      default -> buf.getLong(base + (int) at);
    };
  }

  private int u16(long at) {
    return buf.getShort(base + (int) at) & 0xFFFF;
  }

  private long u32(long at) {
    return buf.getInt(base + (int) at) & 0xFFFF_FFFFL;
  }

  // ---- errors ----

  /**
   * Records the failure if it is the first; always false, so that checks read {@code ok ||
   * fail(...)}.
   *
   * @param name a field of the current object, {@link #HERE} for the object itself, or a name in
   *     parentheses, e.g. {@code (header)}, used as the path as it is
   */
  boolean fail(long at, String name, String reason) {
    if (error == null) {
      error = new SchemaVerifier.Error(at, path(name), reason);
    }
    return false;
  }

  /** E.g. {@code organizations[3].attributes[5].id}. Built only on failure. */
  private String path(String name) {
    if (name.startsWith("(")) {
      return name;
    }
    if (levels == 0) {
      return name.isEmpty() ? ROOT : name;
    }
    var path = new StringBuilder();
    for (int i = 0; i < levels; i++) {
      path.append(i == 0 ? "" : ".").append(vectors[i]).append('[').append(indexes[i]).append(']');
    }
    return name.isEmpty() ? path.toString() : path.append('.').append(name).toString();
  }
}
