package dev.flatdump.reader;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A binary schema ({@code .bfbs}, flatc's {@code reflection.fbs}) as the reader needs it: the
 * tables and structs with their fields, the enums and unions, the root table. Read by hand from the
 * buffer, at the vtable offsets {@code reflection.fbs} fixes, so that the library needs no
 * generated code. Immutable.
 */
public final class BinarySchema {

  /** reflection.fbs's {@code BaseType}. */
  public static final int NONE = 0;

  public static final int UTYPE = 1;
  public static final int BOOL = 2;
  public static final int BYTE = 3;
  public static final int UBYTE = 4;
  public static final int SHORT = 5;
  public static final int USHORT = 6;
  public static final int INT = 7;
  public static final int UINT = 8;
  public static final int LONG = 9;
  public static final int ULONG = 10;
  public static final int FLOAT = 11;
  public static final int DOUBLE = 12;
  public static final int STRING = 13;
  public static final int VECTOR = 14;
  public static final int OBJ = 15;
  public static final int UNION = 16;
  public static final int ARRAY = 17;

  /**
   * A field's type.
   *
   * @param base its base type ({@link #STRING}, {@link #VECTOR}, ...)
   * @param element a vector's or array's element type, else {@link #NONE}
   * @param index the object (for {@link #OBJ}) or enum (unions, enum scalars) it names, else -1
   */
  public record Type(int base, int element, int index) {}

  /**
   * A field of a table or struct.
   *
   * @param offset its vtable offset in a table, its byte offset in a struct
   */
  public record Field(
      String name,
      int id,
      int offset,
      Type type,
      long defaultInteger,
      double defaultReal,
      boolean deprecated,
      boolean required,
      boolean key,
      boolean optional) {}

  /** A table or struct; its fields by id. */
  public record ObjectType(
      String name, boolean struct, int byteSize, int minAlign, List<Field> fields) {}

  /** An enum or union: each value's name, and for a union each member's object index. */
  public record EnumType(
      String name, boolean union, Map<Long, String> names, Map<Long, Integer> members) {}

  private final List<ObjectType> objects;
  private final List<EnumType> enums;
  private final int root;

  private BinarySchema(List<ObjectType> objects, List<EnumType> enums, int root) {
    this.objects = objects;
    this.enums = enums;
    this.root = root;
  }

  public List<ObjectType> objects() {
    return objects;
  }

  public List<EnumType> enums() {
    return enums;
  }

  /** The root table's index in {@link #objects}. */
  public int root() {
    return root;
  }

  /**
   * Reads a binary schema.
   *
   * @throws ReaderException when it is not one (not a FlatBuffer of reflection.fbs, no root table)
   */
  public static BinarySchema read(ByteBuffer bfbs) {
    ByteBuffer bb = bfbs.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    bb.position(0);
    try {
      if (bb.limit() < 8
          || bb.get(4) != 'B'
          || bb.get(5) != 'F'
          || bb.get(6) != 'B'
          || bb.get(7) != 'S') {
        throw new ReaderException("not a binary schema: no BFBS file identifier");
      }
      int schema = bb.getInt(0);
      List<ObjectType> objects = new ArrayList<>();
      int objectsVector = vector(bb, schema, 4);
      Map<Integer, Integer> objectAt = new HashMap<>();
      for (int i = 0; i < length(bb, objectsVector); i++) {
        int o = element(bb, objectsVector, i);
        objectAt.put(o, i);
        objects.add(object(bb, o));
      }
      List<EnumType> enums = new ArrayList<>();
      int enumsVector = vector(bb, schema, 6);
      for (int i = 0; i < length(bb, enumsVector); i++) {
        enums.add(enumType(bb, element(bb, enumsVector, i)));
      }
      int rootField = field(bb, schema, 12);
      if (rootField == 0) {
        throw new ReaderException("the binary schema names no root table");
      }
      Integer root = objectAt.get(rootField + bb.getInt(rootField));
      if (root == null) {
        throw new ReaderException("the binary schema's root table is not among its objects");
      }
      requireIndices(objects, enums);
      return new BinarySchema(List.copyOf(objects), List.copyOf(enums), root);
    } catch (IndexOutOfBoundsException e) {
      throw new ReaderException("not a binary schema: " + e.getMessage(), e);
    }
  }

  /**
   * Every object a field names (a table, a struct, a vector's element) and every enum or union it
   * names is one of the schema's, and every union member's object too: what reads the schema then
   * indexes its lists without checking.
   */
  private static void requireIndices(List<ObjectType> objects, List<EnumType> enums) {
    for (ObjectType o : objects) {
      for (Field f : o.fields()) {
        Type t = f.type();
        boolean object = t.base() == OBJ || t.element() == OBJ;
        boolean union = t.base() == UNION || t.element() == UNION;
        int count = object ? objects.size() : enums.size();
        if ((object || union) ? t.index() < 0 || t.index() >= count : t.index() >= count) {
          throw new ReaderException(
              "not a binary schema: "
                  + o.name()
                  + "."
                  + f.name()
                  + " names "
                  + (object ? "object " : "enum ")
                  + t.index()
                  + " of "
                  + count);
        }
      }
    }
    for (EnumType e : enums) {
      for (Integer member : e.members().values()) {
        if (member >= objects.size()) {
          throw new ReaderException(
              "not a binary schema: union " + e.name() + " names object " + member);
        }
      }
    }
  }

  private static ObjectType object(ByteBuffer bb, int o) {
    List<Field> fields = new ArrayList<>();
    int fv = vector(bb, o, 6);
    for (int i = 0; i < length(bb, fv); i++) {
      int f = element(bb, fv, i);
      int t = table(bb, f, 6);
      Type type =
          new Type(
              (int) scalar(bb, t, 4, 1, 0),
              (int) scalar(bb, t, 6, 1, 0),
              (int) scalar(bb, t, 8, 4, -1));
      fields.add(
          new Field(
              string(bb, f, 4),
              (int) scalar(bb, f, 8, 2, 0),
              (int) scalar(bb, f, 10, 2, 0),
              type,
              scalar(bb, f, 12, 8, 0),
              real(bb, f, 14),
              scalar(bb, f, 16, 1, 0) != 0,
              scalar(bb, f, 18, 1, 0) != 0,
              scalar(bb, f, 20, 1, 0) != 0,
              scalar(bb, f, 26, 1, 0) != 0));
    }
    fields.sort(Comparator.comparingInt(Field::id));
    return new ObjectType(
        string(bb, o, 4),
        scalar(bb, o, 8, 1, 0) != 0,
        (int) scalar(bb, o, 12, 4, 0),
        (int) scalar(bb, o, 10, 4, 0),
        List.copyOf(fields));
  }

  private static EnumType enumType(ByteBuffer bb, int e) {
    Map<Long, String> names = new HashMap<>();
    Map<Long, Integer> members = new HashMap<>();
    int vv = vector(bb, e, 6);
    for (int i = 0; i < length(bb, vv); i++) {
      int v = element(bb, vv, i);
      long value = scalar(bb, v, 6, 8, 0);
      names.put(value, string(bb, v, 4));
      int unionType = field(bb, v, 10);
      if (unionType != 0) {
        int t = unionType + bb.getInt(unionType);
        members.put(value, (int) scalar(bb, t, 8, 4, -1));
      }
    }
    return new EnumType(
        string(bb, e, 4), scalar(bb, e, 8, 1, 0) != 0, Map.copyOf(names), Map.copyOf(members));
  }

  /** The position of the field at vtable offset {@code voffset} of the table at {@code t}, or 0. */
  static int field(ByteBuffer bb, int t, int voffset) {
    int vtable = t - bb.getInt(t);
    if (voffset >= (bb.getShort(vtable) & 0xffff)) {
      return 0;
    }
    int off = bb.getShort(vtable + voffset) & 0xffff;
    return off == 0 ? 0 : t + off;
  }

  private static int table(ByteBuffer bb, int t, int voffset) {
    int f = field(bb, t, voffset);
    if (f == 0) {
      throw new ReaderException("not a binary schema: a required table is missing");
    }
    return f + bb.getInt(f);
  }

  private static int vector(ByteBuffer bb, int t, int voffset) {
    int f = field(bb, t, voffset);
    return f == 0 ? 0 : f + bb.getInt(f);
  }

  private static int length(ByteBuffer bb, int vector) {
    return vector == 0 ? 0 : bb.getInt(vector);
  }

  private static int element(ByteBuffer bb, int vector, int i) {
    int at = vector + 4 + 4 * i;
    return at + bb.getInt(at);
  }

  private static String string(ByteBuffer bb, int t, int voffset) {
    int f = field(bb, t, voffset);
    if (f == 0) {
      return "";
    }
    int s = f + bb.getInt(f);
    int length = bb.getInt(s);
    if (length < 0 || length > bb.limit() - s - 4) {
      throw new IndexOutOfBoundsException("a string of " + length + " bytes at byte " + s);
    }
    byte[] bytes = new byte[length];
    bb.get(s + 4, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static long scalar(ByteBuffer bb, int t, int voffset, int size, long absent) {
    int f = field(bb, t, voffset);
    if (f == 0) {
      return absent;
    }
    return switch (size) {
      case 1 -> bb.get(f);
      case 2 -> bb.getShort(f) & 0xffff;
      case 4 -> bb.getInt(f);
      default -> bb.getLong(f);
    };
  }

  private static double real(ByteBuffer bb, int t, int voffset) {
    int f = field(bb, t, voffset);
    return f == 0 ? 0 : bb.getDouble(f);
  }
}
