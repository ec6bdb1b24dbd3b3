package dev.flatdump.reader;

import dev.flatdump.reader.BinarySchema.Field;
import dev.flatdump.reader.BinarySchema.ObjectType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.BitSet;
import java.util.List;

/**
 * Checks that a buffer is a FlatBuffer of a binary schema's root table before anything reads it, as
 * FlatBuffers' own verifiers do: every offset lands inside the buffer and aligned, every vtable and
 * table fits, every string and vector fits (a string ends with its 0), every required field is
 * there, every union member's table is its member's type, tables nest at most 64 deep. A table
 * reached again (FlatBuffers can share one among many parents) is checked once per type, so the
 * check is linear in the buffer's size. Not thread-safe: one per thread.
 */
public final class StructureCheck {

  private static final int MAX_DEPTH = 64;

  private final BinarySchema schema;
  private final BitSet[] checked;
  private ByteBuffer bb;
  private int limit;

  public StructureCheck(BinarySchema schema) {
    this.schema = schema;
    this.checked = new BitSet[schema.objects().size()];
  }

  /**
   * Checks the FlatBuffer between {@code buffer}'s position and limit.
   *
   * @return null when it is sound, else what is wrong and where
   */
  public String check(ByteBuffer buffer) {
    this.bb = buffer.slice().order(ByteOrder.LITTLE_ENDIAN);
    this.limit = bb.limit();
    if (limit < 8) {
      return "shorter than a FlatBuffer's root offset and identifier";
    }
    // first without building the paths of the fields it passes (a string per field); a buffer it
    // refuses is walked again, with them, to say where
    String broken = walk(false);
    return broken == null ? null : walk(true);
  }

  private String walk(boolean withPaths) {
    this.paths = withPaths;
    for (int i = 0; i < checked.length; i++) {
      checked[i] = null;
    }
    try {
      int root = offset(0, "the root");
      table(root, schema.root(), 1, "the root");
      return null;
    } catch (Broken e) {
      return e.getMessage();
    }
  }

  /** Whether the walk builds each field's path, for the message of a refusal. */
  private boolean paths;

  /** The path of field {@code name} of the table at {@code path}, when paths are built. */
  private String at(String path, String name) {
    return paths ? path + "." + name : null;
  }

  /** {@code path} with {@code suffix} ({@code 's vtable}, {@code _type}), when paths are built. */
  private String suffix(String path, String suffix) {
    return paths ? path + suffix : null;
  }

  private String element(String path, int i) {
    return paths ? path + "[" + i + "]" : null;
  }

  private static final class Broken extends RuntimeException {
    Broken(String message) {
      super(message, null, false, false);
    }
  }

  /** The target of the uoffset at {@code at}, checked to lie inside the buffer, 4-aligned. */
  private int offset(int at, String what) {
    need(at, 4, 4, what);
    long target = at + (bb.getInt(at) & 0xffff_ffffL);
    if (bb.getInt(at) == 0 || target >= limit) {
      throw new Broken(what + ": offset at byte " + at + " points outside the buffer");
    }
    return (int) target;
  }

  private void need(long at, long size, int align, String what) {
    if (at < 0 || at + size > limit) {
      throw new Broken(what + ": " + size + " bytes at byte " + at + " run past the buffer");
    }
    if (align > 1 && at % align != 0) {
      throw new Broken(what + ": byte " + at + " is not " + align + "-aligned");
    }
  }

  private void table(int t, int objectIndex, int depth, String path) {
    if (depth > MAX_DEPTH) {
      throw new Broken(path + ": tables nested deeper than " + MAX_DEPTH);
    }
    BitSet done = checked[objectIndex];
    if (done != null && done.get(t >>> 2)) {
      return;
    }
    ObjectType object = schema.objects().get(objectIndex);
    need(t, 4, 4, path);
    long vtable = (long) t - bb.getInt(t);
    need(vtable, 4, 2, suffix(path, "'s vtable"));
    int vtableSize = bb.getShort((int) vtable) & 0xffff;
    int tableSize = bb.getShort((int) vtable + 2) & 0xffff;
    if (vtableSize < 4 || vtableSize % 2 != 0) {
      throw new Broken(path + ": a vtable of " + vtableSize + " bytes");
    }
    need(vtable, vtableSize, 2, suffix(path, "'s vtable"));
    need(t, Math.max(tableSize, 4), 4, path);
    List<Field> fields = object.fields();
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i);
      if (f.deprecated()) {
        continue;
      }
      int voffset = f.offset();
      int off = voffset < vtableSize ? bb.getShort((int) vtable + voffset) & 0xffff : 0;
      String where = at(path, f.name());
      if (off == 0) {
        if (f.required()) {
          throw new Broken(where + ": a required field is missing");
        }
        continue;
      }
      if (off >= tableSize) {
        throw new Broken(where + ": the field lies outside its table");
      }
      field(t + off, t, vtable, vtableSize, f, object, depth, where);
    }
    if (done == null) {
      done = checked[objectIndex] = new BitSet();
    }
    done.set(t >>> 2);
  }

  private void field(
      int at,
      int table,
      long vtable,
      int vtableSize,
      Field f,
      ObjectType object,
      int depth,
      String where) {
    BinarySchema.Type type = f.type();
    switch (type.base()) {
      case BinarySchema.STRING -> string(offset(at, where), where);
      case BinarySchema.VECTOR -> vector(offset(at, where), type, depth, where);
      case BinarySchema.OBJ -> {
        ObjectType target = schema.objects().get(type.index());
        if (target.struct()) {
          need(at, target.byteSize(), Math.max(1, target.minAlign()), where);
        } else {
          table(offset(at, where), type.index(), depth + 1, where);
        }
      }
      case BinarySchema.UNION -> {
        long member = unionType(table, vtable, vtableSize, f, object, where);
        Integer memberObject = schema.enums().get(type.index()).members().get(member);
        if (member != 0 && memberObject != null && memberObject >= 0) {
          table(offset(at, where), memberObject, depth + 1, where);
        } else {
          need(at, 4, 4, where);
        }
      }
      default -> {
        int size = scalarSize(type.base());
        need(at, size, size, where);
      }
    }
  }

  /** The member a union field holds: its hidden {@code _type} field, the id before it. */
  private long unionType(
      int table, long vtable, int vtableSize, Field union, ObjectType object, String where) {
    for (Field f : object.fields()) {
      if (f.id() == union.id() - 1 && f.type().base() == BinarySchema.UTYPE) {
        int voffset = f.offset();
        int off = voffset < vtableSize ? bb.getShort((int) vtable + voffset) & 0xffff : 0;
        if (off == 0) {
          throw new Broken(where + ": a union value without its type");
        }
        need(table + off, 1, 1, suffix(where, "_type"));
        return bb.get(table + off) & 0xff;
      }
    }
    throw new Broken(where + ": the schema has no type field for the union");
  }

  private void string(int s, String where) {
    need(s, 4, 4, where);
    long length = bb.getInt(s) & 0xffff_ffffL;
    need(s + 4L, length + 1, 1, where);
    if (bb.get((int) (s + 4 + length)) != 0) {
      throw new Broken(where + ": a string without its terminating 0");
    }
  }

  private void vector(int v, BinarySchema.Type type, int depth, String where) {
    need(v, 4, 4, where);
    long n = bb.getInt(v) & 0xffff_ffffL;
    int element = type.element();
    ObjectType target = element == BinarySchema.OBJ ? schema.objects().get(type.index()) : null;
    int size =
        target != null && target.struct()
            ? target.byteSize()
            : element == BinarySchema.STRING
                    || element == BinarySchema.OBJ
                    || element == BinarySchema.UNION
                ? 4
                : scalarSize(element);
    need(v + 4L, n * size, 1, where);
    if (element == BinarySchema.STRING) {
      for (int i = 0; i < n; i++) {
        string(offset(v + 4 + 4 * i, where), element(where, i));
      }
    } else if (target != null && !target.struct()) {
      for (int i = 0; i < n; i++) {
        table(offset(v + 4 + 4 * i, where), type.index(), depth + 1, element(where, i));
      }
    }
  }

  static int scalarSize(int base) {
    return switch (base) {
      case BinarySchema.UTYPE, BinarySchema.BOOL, BinarySchema.BYTE, BinarySchema.UBYTE -> 1;
      case BinarySchema.SHORT, BinarySchema.USHORT -> 2;
      case BinarySchema.INT, BinarySchema.UINT, BinarySchema.FLOAT -> 4;
      case BinarySchema.LONG, BinarySchema.ULONG, BinarySchema.DOUBLE -> 8;
      default -> throw new Broken("a field of base type " + base + " the reader does not know");
    };
  }
}
