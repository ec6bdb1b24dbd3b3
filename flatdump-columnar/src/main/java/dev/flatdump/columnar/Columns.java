package dev.flatdump.columnar;

import dev.flatdump.reader.BinarySchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns of a columnar copy: one per place in the schema where values are found, each named by
 * its parent column, a selector (a field's id + 1, or 0 for a vector's element) and, for a union's
 * value, the member's value. What each column holds follows from the schema alone: column 0 holds
 * the root tables. Not thread-safe.
 */
final class Columns {

  /** Tables of one type: each column owns the tables first reached through it. */
  static final int TABLE = 0;

  static final int STRING = 1;
  static final int VECTOR = 2;

  /** A scalar (or a union's type) inline in a table, a vector or a struct. */
  static final int SCALAR = 3;

  /** A struct inline in a table or a vector: its fields are columns of their own. */
  static final int STRUCT = 4;

  /** What one column holds. */
  static final class Column {
    final int id;
    final Column parent;
    final int selector;
    final int member;
    final int kind;

    /** A table's or struct's object index; a scalar's base type; a vector's element base type. */
    final int type;

    /** A vector's element object index (tables, structs), else -1. */
    final int elementIndex;

    /** A scalar's width in bytes; a vector element's; a struct's size. */
    final int width;

    /** A vector element's alignment. */
    final int alignment;

    /** The children: by field id + 1, or [0] for a vector's element; -1 for none yet. */
    int[] children = new int[0];

    /** Per union field (by field id + 1): member value to column id. */
    Map<Long, Integer>[] members;

    Column(
        int id,
        Column parent,
        int selector,
        int member,
        int kind,
        int type,
        int elementIndex,
        int width,
        int alignment) {
      this.id = id;
      this.parent = parent;
      this.selector = selector;
      this.member = member;
      this.kind = kind;
      this.type = type;
      this.elementIndex = elementIndex;
      this.width = width;
      this.alignment = alignment;
    }

    /** A signed integer kind, whose values are sign-extended. */
    boolean signed() {
      return type == BinarySchema.BYTE
          || type == BinarySchema.SHORT
          || type == BinarySchema.INT
          || type == BinarySchema.LONG;
    }

    boolean real() {
      return type == BinarySchema.FLOAT || type == BinarySchema.DOUBLE;
    }

    String path(BinarySchema schema) {
      if (parent == null) {
        return schema.objects().get(type).name();
      }
      String p = parent.path(schema);
      if (selector == 0) {
        return p + "[]";
      }
      String name;
      if (parent.kind == VECTOR) {
        name = "?";
      } else {
        int object = parent.kind == TABLE || parent.kind == STRUCT ? parent.type : -1;
        name = object < 0 ? "?" : field(schema, object, selector - 1).name();
      }
      return p + "." + name + (member == 0 ? "" : "#" + member);
    }
  }

  private final BinarySchema schema;
  private final List<Column> all = new ArrayList<>();
  private final Map<Long, Integer> byKey = new HashMap<>();

  Columns(BinarySchema schema) {
    this.schema = schema;
    all.add(new Column(0, null, 0, 0, TABLE, schema.root(), -1, 4, 4));
  }

  BinarySchema schema() {
    return schema;
  }

  int size() {
    return all.size();
  }

  Column get(int id) {
    return all.get(id);
  }

  List<Column> all() {
    return all;
  }

  /** The child column of {@code parent} at {@code selector} (and union {@code member}). */
  Column child(Column parent, int selector, int member) {
    if (member == 0 && selector < parent.children.length) {
      int id = parent.children[selector];
      if (id > 0) {
        return all.get(id);
      }
    }
    long key = ((long) parent.id << 40) ^ ((long) selector << 20) ^ member;
    Integer id = byKey.get(key);
    if (id != null) {
      Column c = all.get(id);
      if (c.parent == parent && c.selector == selector && c.member == member) {
        return c;
      }
    }
    Column c = make(parent, selector, member);
    all.add(c);
    byKey.put(key, c.id);
    if (member == 0) {
      if (selector >= parent.children.length) {
        parent.children = java.util.Arrays.copyOf(parent.children, selector + 1);
      }
      parent.children[selector] = c.id;
    }
    return c;
  }

  private Column make(Column parent, int selector, int member) {
    int id = all.size();
    if (parent.kind == VECTOR) {
      if (selector != 0 || member != 0) {
        throw damaged("column " + id + ": a vector has only its element");
      }
      return slot(id, parent, 0, 0, parent.type, parent.elementIndex, BinarySchema.NONE);
    }
    if (parent.kind != TABLE && parent.kind != STRUCT) {
      throw damaged("column " + id + ": its parent holds no fields");
    }
    BinarySchema.ObjectType object = schema.objects().get(parent.type);
    if (selector < 1 || selector > object.fields().size()) {
      throw damaged("column " + id + ": no field " + (selector - 1) + " in " + object.name());
    }
    BinarySchema.Field f = field(schema, parent.type, selector - 1);
    BinarySchema.Type t = f.type();
    if (t.base() == BinarySchema.UNION) {
      if (parent.kind != TABLE) {
        throw damaged("column " + id + ": a union in a struct");
      }
      Integer table = schema.enums().get(t.index()).members().get((long) member);
      if (member == 0 || table == null) {
        throw damaged("column " + id + ": no member " + member + " in union " + f.name());
      }
      return new Column(id, parent, selector, member, TABLE, table, -1, 4, 4);
    }
    if (member != 0) {
      throw damaged("column " + id + ": a member of " + f.name() + ", not a union");
    }
    if (parent.kind == STRUCT && (t.base() >= BinarySchema.STRING)) {
      if (t.base() != BinarySchema.OBJ) {
        throw unsupported("field " + f.name() + " of struct " + object.name());
      }
    }
    return slot(id, parent, selector, 0, t.base(), t.index(), t.element());
  }

  /** A column for a value of base type {@code base} (object or enum {@code index}). */
  private Column slot(
      int id, Column parent, int selector, int member, int base, int index, int element) {
    switch (base) {
      case BinarySchema.STRING:
        return new Column(id, parent, selector, member, STRING, base, -1, 4, 4);
      case BinarySchema.OBJ:
        {
          BinarySchema.ObjectType o = schema.objects().get(index);
          return o.struct()
              ? new Column(
                  id, parent, selector, member, STRUCT, index, -1, o.byteSize(), o.minAlign())
              : new Column(id, parent, selector, member, TABLE, index, -1, 4, 4);
        }
      case BinarySchema.VECTOR:
        {
          int width;
          int align;
          if (element == BinarySchema.OBJ) {
            BinarySchema.ObjectType o = schema.objects().get(index);
            width = o.struct() ? o.byteSize() : 4;
            align = o.struct() ? o.minAlign() : 4;
          } else if (element == BinarySchema.STRING) {
            width = 4;
            align = 4;
          } else if (element >= BinarySchema.UTYPE && element <= BinarySchema.DOUBLE) {
            width = scalarWidth(element);
            align = width;
          } else {
            throw unsupported("a vector of base type " + element);
          }
          return new Column(id, parent, selector, member, VECTOR, element, index, width, align);
        }
      default:
        if (base >= BinarySchema.UTYPE && base <= BinarySchema.DOUBLE) {
          int w = scalarWidth(base);
          return new Column(id, parent, selector, member, SCALAR, base, -1, w, w);
        }
        throw unsupported("a field of base type " + base);
    }
  }

  static int scalarWidth(int base) {
    return switch (base) {
      case BinarySchema.UTYPE, BinarySchema.BOOL, BinarySchema.BYTE, BinarySchema.UBYTE -> 1;
      case BinarySchema.SHORT, BinarySchema.USHORT -> 2;
      case BinarySchema.INT, BinarySchema.UINT, BinarySchema.FLOAT -> 4;
      case BinarySchema.LONG, BinarySchema.ULONG, BinarySchema.DOUBLE -> 8;
      default -> throw new IllegalArgumentException("not a scalar: " + base);
    };
  }

  /** The field of id {@code id} of object {@code object}: fields are sorted by id. */
  static BinarySchema.Field field(BinarySchema schema, int object, int id) {
    List<BinarySchema.Field> fields = schema.objects().get(object).fields();
    if (id < fields.size() && fields.get(id).id() == id) {
      return fields.get(id);
    }
    for (BinarySchema.Field f : fields) {
      if (f.id() == id) {
        return f;
      }
    }
    throw damaged("no field of id " + id + " in " + schema.objects().get(object).name());
  }

  static ColumnarException damaged(String what) {
    return new ColumnarException("damaged columnar copy: " + what);
  }

  static ColumnarException unsupported(String what) {
    return new ColumnarException("no columnar copy for this schema: " + what);
  }
}
