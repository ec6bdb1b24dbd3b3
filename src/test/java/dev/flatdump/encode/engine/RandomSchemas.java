package dev.flatdump.encode.engine;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Random FlatBuffers schemas as {@code .fbs} text, with the model they were written from: every
 * scalar width, enums on several underlying types, strings, (nested) structs, a leaf table used at
 * several depths and under several parents, a recursive table, vectors of every element kind,
 * optional scalars, defaults, {@code required}, {@code deprecated}, {@code bson} names and {@code
 * key} fields; in most schemas {@code (wrapper)} fields, vectors of wrappers (arrays of arrays),
 * {@code (map)}s and unions of wrappers, their values of every kind, these shapes nested, and a
 * recursive union of any JSON-like value. The root table has one vector of tables, the records.
 * Deterministic per seed.
 */
final class RandomSchemas {

  /** A field's FlatBuffers kind (for a vector, its element's). */
  enum Kind {
    BOOL("bool", 1, false),
    BYTE("byte", 1, true),
    UBYTE("ubyte", 1, false),
    SHORT("short", 2, true),
    USHORT("ushort", 2, false),
    INT("int", 4, true),
    UINT("uint", 4, false),
    LONG("long", 8, true),
    ULONG("ulong", 8, false),
    FLOAT("float", 4, true),
    DOUBLE("double", 8, true),
    STRING("string", 4, false),
    ENUM(null, 0, false),
    STRUCT(null, 0, false),
    TABLE(null, 4, false),
    /**
     * A union of {@code (wrapper)} tables: its {@code _type} at {@code id - 1}, its value at id.
     */
    UNION(null, 4, false);

    final String fbs;
    final int size;
    final boolean signed;

    Kind(String fbs, int size, boolean signed) {
      this.fbs = fbs;
      this.size = size;
      this.signed = signed;
    }

    boolean integer() {
      return ordinal() >= BYTE.ordinal() && ordinal() <= ULONG.ordinal();
    }

    boolean real() {
      return this == FLOAT || this == DOUBLE;
    }

    boolean scalar() {
      return ordinal() <= DOUBLE.ordinal();
    }

    BigInteger min() {
      return signed ? BigInteger.ONE.shiftLeft(8 * size - 1).negate() : BigInteger.ZERO;
    }

    BigInteger max() {
      return BigInteger.ONE.shiftLeft(signed ? 8 * size - 1 : 8 * size).subtract(BigInteger.ONE);
    }

    /** The integer the low {@code 8 * size} bits hold. */
    BigInteger value(long bits) {
      if (this == ULONG) {
        return new BigInteger(Long.toUnsignedString(bits));
      }
      return BigInteger.valueOf(bits);
    }

    static final Kind[] SCALARS = {
      BOOL, BYTE, UBYTE, SHORT, USHORT, INT, UINT, LONG, ULONG, FLOAT, DOUBLE
    };
    static final Kind[] INTEGERS = {BYTE, UBYTE, SHORT, USHORT, INT, UINT, LONG, ULONG};
  }

  static final class EnumType {
    final String name;
    final Kind base;
    final List<String> names = new ArrayList<>();
    final List<Long> values = new ArrayList<>();

    EnumType(String name, Kind base) {
      this.name = name;
      this.base = base;
    }

    Long byName(String n) {
      int i = names.indexOf(n);
      return i < 0 ? null : values.get(i);
    }

    boolean declares(long bits) {
      return values.contains(bits);
    }

    String nameOf(long bits) {
      int i = values.indexOf(bits);
      return i < 0 ? null : names.get(i);
    }
  }

  /** A union of {@code (wrapper)} tables, its members in declared order (values 1, 2, ...). */
  static final class UnionType {
    final String name;
    final List<Type> members = new ArrayList<>();

    UnionType(String name) {
      this.name = name;
    }

    /** The member of value {@code v}'s name, {@code NONE} for 0, as flatc's JSON says it. */
    String nameOf(int v) {
      return v == 0 ? "NONE" : members.get(v - 1).name;
    }
  }

  static final class Field {
    String name;
    int id;
    String bson;
    Kind kind;
    boolean vector;
    EnumType en;
    Type ref;
    boolean optional;
    boolean required;
    boolean deprecated;
    boolean key;

    /** A {@code (map)}: a vector of entry tables ({@code ref}) read from a document. */
    boolean map;

    /** The union of a {@link Kind#UNION} field. */
    UnionType union;

    /** The default's bits (integers, bools, enums; a float's as a double's), or null for none. */
    Long defaultBits;

    String defaultText;

    /** A struct field's byte offset. */
    int offset;

    String bsonName() {
      return bson != null ? bson : name;
    }

    /** The scalar kind the field holds: an enum's underlying type. */
    Kind scalarKind() {
      return kind == Kind.ENUM ? en.base : kind;
    }

    /** What a reader gets when the field is left out, as bits; floats as their own width. */
    long absentBits() {
      Kind k = scalarKind();
      long d = defaultBits == null ? 0 : defaultBits;
      if (k == Kind.FLOAT) {
        return Float.floatToRawIntBits((float) Double.longBitsToDouble(d)) & 0xffffffffL;
      }
      return d;
    }

    String fbsType() {
      String t =
          switch (kind) {
            case ENUM -> en.name;
            case STRUCT, TABLE -> ref.name;
            case UNION -> union.name;
            default -> kind.fbs;
          };
      return vector ? "[" + t + "]" : t;
    }
  }

  static final class Type {
    final String name;
    final boolean struct;

    /** A {@code (wrapper)} table: holds one BSON value in its one field not deprecated. */
    boolean wrapper;

    final List<Field> fields = new ArrayList<>();
    int size;
    int align = 1;

    Type(String name, boolean struct) {
      this.name = name;
      this.struct = struct;
    }

    /** The non-deprecated field read from BSON name {@code n}, or null. */
    Field byBson(String n) {
      for (Field f : fields) {
        if (!f.deprecated && f.bsonName().equals(n)) {
          return f;
        }
      }
      return null;
    }

    Field key() {
      for (Field f : fields) {
        if (f.key) {
          return f;
        }
      }
      return null;
    }

    /** A wrapper's value, or a map entry's: its one field not deprecated besides the key. */
    Field value() {
      for (Field f : fields) {
        if (!f.deprecated && !f.key) {
          return f;
        }
      }
      return null;
    }
  }

  static final class Schema {
    final long seed;
    final List<EnumType> enums = new ArrayList<>();
    final List<Type> types = new ArrayList<>();
    final List<UnionType> unions = new ArrayList<>();

    /** Whether the schema has maps, unions or wrappers, which {@code verify} may not read yet. */
    boolean shapes;

    Type root;
    Field records;
    String text;

    /** The same schema with one default flatdump must refuse, or null. */
    String refusedText;

    Schema(long seed) {
      this.seed = seed;
    }

    Type record() {
      return records.ref;
    }
  }

  private final Random r;
  private final Schema s;
  private int names;

  private RandomSchemas(long seed) {
    this.r = new Random(seed);
    this.s = new Schema(seed);
  }

  static Schema generate(long seed) {
    return new RandomSchemas(seed).schema();
  }

  private Schema schema() {
    for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
      s.enums.add(enumType("E" + i));
    }
    List<Type> structs = new ArrayList<>();
    for (int i = 0, n = r.nextInt(3); i < n; i++) {
      Type st = new Type("S" + i, true);
      for (int j = 0, m = 1 + r.nextInt(4); j < m; j++) {
        Field f = newField(st);
        if (i > 0 && j == 0 && r.nextBoolean()) {
          f.kind = Kind.STRUCT;
          f.ref = structs.get(r.nextInt(i));
        } else {
          scalarOrEnum(f);
        }
        if (r.nextInt(6) == 0) {
          f.bson = bsonName(f.id);
        }
      }
      layOut(st);
      structs.add(st);
    }
    Type wide = leaf("Wide");
    Type wide2 = r.nextBoolean() ? leaf("Thin") : null;
    Type node = null;
    if (r.nextInt(10) < 6) {
      node = new Type("Node", false);
      for (int j = 0, m = 1 + r.nextInt(3); j < m; j++) {
        scalarOrEnum(newField(node));
      }
      ref(node, "next", node, false);
      ref(node, "kids", node, true);
      ref(node, "w", wide, false);
      s.types.add(node);
    }
    Type holder = new Type("Holder", false);
    ref(holder, "w", wide, false);
    ref(holder, "ws", wide, true);
    randomFields(holder, r.nextInt(4), structs, List.of(wide));
    s.types.add(holder);
    Type rec = new Type("Rec", false);
    if (r.nextInt(5) == 0) {
      Field id = newField(rec);
      id.bson = "_id";
      if (r.nextBoolean()) {
        id.kind = Kind.STRING;
      } else {
        id.kind = r.nextBoolean() ? Kind.INT : Kind.LONG;
      }
    }
    ref(rec, "w", wide, false);
    ref(rec, "h", holder, false);
    if (r.nextBoolean()) {
      ref(rec, "ws", wide, true);
    }
    if (node != null) {
      ref(rec, "n", node, r.nextBoolean());
    }
    List<Type> tables = new ArrayList<>(List.of(wide, holder));
    if (wide2 != null) {
      tables.add(wide2);
    }
    randomFields(rec, 3 + r.nextInt(10), structs, tables);
    if (r.nextInt(10) < 6) {
      shapes(rec, holder, node, structs, wide2 != null ? List.of(wide, wide2) : List.of(wide));
    }
    if (r.nextInt(3) == 0) {
      alternates(rec, structs, tables);
    }
    java.util.Collections.shuffle(rec.fields, r);
    s.types.add(rec);
    s.types.addAll(0, structs);
    Type root = new Type("Root", false);
    if (r.nextInt(4) == 0) {
      Field tag = newField(root);
      tag.kind = Kind.STRING;
    }
    Field recs = newField(root);
    recs.name = "recs";
    recs.kind = Kind.TABLE;
    recs.vector = true;
    recs.ref = rec;
    if (r.nextInt(4) == 0) {
      Field n = newField(root);
      n.kind = Kind.INT;
    }
    s.root = root;
    s.records = recs;
    s.types.add(root);
    for (Type t : s.types) {
      if (!t.struct) {
        renumber(t);
      }
    }
    s.text = render(null);
    if (r.nextInt(25) == 0) {
      s.refusedText = render(refusedField());
    }
    return s;
  }

  /**
   * One or two fields more, each reading the BSON name of a scalar, enum or string field of {@code
   * t} with a random type of its own: several fields reading one name (an evolved schema).
   */
  private void alternates(Type t, List<Type> structs, List<Type> tables) {
    for (int k = 0, n = 1 + r.nextInt(2); k < n; k++) {
      List<Field> bases = new ArrayList<>();
      for (Field f : t.fields) {
        boolean single = !f.vector && !f.map && f.kind != Kind.UNION;
        boolean plain = f.kind.scalar() || f.kind == Kind.ENUM || f.kind == Kind.STRING;
        if (single && plain && !f.deprecated && !f.required && !f.key && f.bson == null) {
          bases.add(f);
        }
      }
      if (bases.isEmpty()) {
        return;
      }
      Field base = bases.get(r.nextInt(bases.size()));
      randomFields(t, 1, structs, tables);
      Field alt = t.fields.get(t.fields.size() - 1);
      alt.bson = base.bsonName();
      alt.required = false;
      alt.key = false;
    }
  }

  private Field refusedField() {
    Field f = new Field();
    f.name = "refused";
    f.id = -1;
    switch (r.nextInt(4)) {
      case 3 -> {
        f.kind = Kind.ENUM; // rendered with an enum of its own
        f.defaultText = r.nextBoolean() ? "Big" : "Half";
      }
      case 0 -> {
        f.kind = Kind.ULONG;
        f.defaultText = r.nextBoolean() ? "18446744073709551615" : "9223372036854775808";
      }
      case 1 -> {
        f.kind = Kind.FLOAT;
        f.defaultText = "-0.0";
      }
      default -> {
        f.kind = Kind.DOUBLE;
        f.defaultText = "-0.0";
      }
    }
    return f;
  }

  private EnumType enumType(String name) {
    EnumType e = new EnumType(name, Kind.INTEGERS[r.nextInt(Kind.INTEGERS.length)]);
    TreeSet<BigInteger> values = new TreeSet<>();
    values.add(BigInteger.ZERO);
    if (r.nextInt(3) == 0) {
      values.add(e.base.max());
    }
    if (e.base.signed && r.nextInt(3) == 0) {
      values.add(e.base.min());
    }
    for (int i = 0, n = 1 + r.nextInt(4); i < n; i++) {
      values.add(BigInteger.valueOf(r.nextInt(e.base == Kind.BYTE ? 100 : 200)));
    }
    int i = 0;
    for (BigInteger v : values) {
      e.names.add("V" + (char) ('a' + i++));
      e.values.add(v.longValue());
    }
    return e;
  }

  private Type leaf(String name) {
    Type t = new Type(name, false);
    for (int j = 0, m = 2 + r.nextInt(r.nextBoolean() ? 7 : 12); j < m; j++) {
      Field f = newField(t);
      if (r.nextInt(4) == 0) {
        f.kind = Kind.STRING;
        if (r.nextInt(8) == 0) {
          f.required = true;
        }
      } else {
        scalarOrEnum(f);
        modifiers(f);
      }
      if (r.nextInt(6) == 0) {
        f.bson = bsonName(f.id);
      }
      if (r.nextInt(15) == 0 && !f.required) {
        f.deprecated = true;
      }
    }
    if (r.nextBoolean()) {
      List<Field> keys = new ArrayList<>();
      for (Field f : t.fields) {
        if (!f.deprecated && !f.optional && f.kind != Kind.BOOL && !isNan(f)) {
          keys.add(f);
        }
      }
      if (!keys.isEmpty()) {
        Field key = keys.get(r.nextInt(keys.size()));
        key.key = true;
        // flatc makes a string key required
        key.required |= key.kind == Kind.STRING;
      }
    }
    s.types.add(t);
    return t;
  }

  private static boolean isNan(Field f) {
    return f.defaultText != null && f.defaultText.contains("nan");
  }

  private void randomFields(Type t, int n, List<Type> structs, List<Type> tables) {
    for (int j = 0; j < n; j++) {
      Field f = newField(t);
      int pick = r.nextInt(100);
      if (pick < 40) {
        scalarOrEnum(f);
        modifiers(f);
      } else if (pick < 55) {
        f.kind = Kind.STRING;
      } else if (pick < 63 && !structs.isEmpty()) {
        f.kind = Kind.STRUCT;
        f.ref = structs.get(r.nextInt(structs.size()));
      } else if (pick < 70) {
        f.kind = Kind.TABLE;
        f.ref = tables.get(r.nextInt(tables.size()));
      } else {
        f.vector = true;
        int e = r.nextInt(10);
        if (e < 2) {
          f.kind = Kind.UBYTE;
        } else if (e < 4) {
          scalarOrEnum(f);
        } else if (e < 5) {
          f.kind = Kind.ENUM;
          f.en = s.enums.get(r.nextInt(s.enums.size()));
        } else if (e < 7) {
          f.kind = Kind.STRING;
        } else if (e < 8 && !structs.isEmpty()) {
          f.kind = Kind.STRUCT;
          f.ref = structs.get(r.nextInt(structs.size()));
        } else {
          f.kind = Kind.TABLE;
          f.ref = tables.get(r.nextInt(tables.size()));
        }
      }
      if (!f.kind.scalar() && f.kind != Kind.ENUM || f.vector) {
        if (f.kind != Kind.STRUCT || f.vector) {
          f.required = r.nextInt(7) == 0;
        }
      }
      if (r.nextInt(6) == 0) {
        f.bson = bsonName(f.id);
      }
      if (r.nextInt(15) == 0 && !f.required) {
        f.deprecated = true;
      }
    }
  }

  private void ref(Type t, String name, Type target, boolean vector) {
    Field f = newField(t);
    f.name = name + names++;
    f.kind = Kind.TABLE;
    f.ref = target;
    f.vector = vector;
  }

  private Field newField(Type t) {
    Field f = new Field();
    f.id = t.fields.size();
    f.name = "f" + names++ + (char) ('a' + r.nextInt(26));
    t.fields.add(f);
    return f;
  }

  /** Field ids in declared order, as flatc gives them: a union takes two, its type's first. */
  private static void renumber(Type t) {
    int id = 0;
    for (Field f : t.fields) {
      if (f.kind == Kind.UNION) {
        id++;
      }
      f.id = id++;
    }
  }

  // ---- maps, unions and wrappers ---------------------------------------------------------------

  private static final int SHAPE_DEPTH = 3;

  private final List<Type> wrappers = new ArrayList<>();
  private List<Type> shapeStructs;
  private List<Type> shapeTables;

  /**
   * Fields of the shapes beyond plain tables on the record (and perhaps the holder and the
   * recursive node): wrappers, vectors of wrappers (arrays of arrays), maps and unions of wrappers,
   * whose values are of every kind, these shapes included, and sometimes a recursive union holding
   * any JSON-like value.
   */
  private void shapes(Type rec, Type holder, Type node, List<Type> structs, List<Type> tables) {
    s.shapes = true;
    shapeStructs = structs;
    shapeTables = tables;
    if (r.nextInt(3) == 0) {
      Field any = newField(rec);
      Type item = anyItem();
      any.kind = Kind.TABLE;
      any.ref = item;
      switch (r.nextInt(3)) {
        case 0 -> any.vector = true;
        case 1 -> {
          any.kind = Kind.UNION;
          any.union = item.value().union;
        }
        default -> {}
      }
    }
    for (int i = 0, n = 1 + r.nextInt(4); i < n; i++) {
      shapeField(newField(rec), 0);
    }
    if (r.nextInt(3) == 0) {
      shapeField(newField(holder), 1);
    }
    if (node != null && r.nextInt(3) == 0) {
      shapeField(newField(node), 1); // in a recursive table, at several depths
    }
  }

  /** A wrapper, a vector of wrappers, a map or a union, perhaps required or renamed. */
  private void shapeField(Field f, int depth) {
    switch (r.nextInt(4)) {
      case 0 -> {
        f.kind = Kind.TABLE;
        f.ref = wrapper(depth);
      }
      case 1 -> {
        f.kind = Kind.TABLE;
        f.vector = true;
        f.ref = wrapper(depth);
      }
      case 2 -> map(f, depth);
      default -> {
        f.kind = Kind.UNION;
        f.union = union(depth);
      }
    }
    if (f.kind != Kind.UNION && r.nextInt(8) == 0) {
      f.required = true;
    }
    if (r.nextInt(6) == 0) {
      f.bson = bsonName(f.id);
    }
  }

  /**
   * {@code table AnyItem (wrapper) { value: AnyU; }} with {@code union AnyU} of a long, a double, a
   * string, a bool, a list ({@code [AnyItem]}) and a map of {@code AnyU}: any JSON-like value,
   * arrays and documents nested as deep as the documents go.
   */
  private Type anyItem() {
    UnionType u = new UnionType("AnyU");
    Type item = new Type("AnyItem", false);
    item.wrapper = true;
    Field v = newField(item);
    v.name = "value";
    v.kind = Kind.UNION;
    v.union = u;
    Kind[] leaves = {Kind.LONG, Kind.DOUBLE, Kind.STRING, Kind.BOOL};
    List<Type> members = new ArrayList<>();
    for (Kind k : leaves) {
      if (r.nextInt(4) > 0) {
        Type w = newWrapper("Any" + k.fbs);
        w.value().kind = k;
        members.add(w);
      }
    }
    Type list = newWrapper("AnyList");
    list.value().kind = Kind.TABLE;
    list.value().vector = true;
    list.value().ref = item;
    members.add(list);
    if (r.nextBoolean()) {
      Type doc = newWrapper("AnyDoc"); // takes a document as AnyMap does: the first declared wins
      doc.value().kind = Kind.TABLE;
      doc.value().ref = shapeTables.get(0);
      members.add(doc);
    }
    if (r.nextBoolean()) {
      Type entry = new Type("AnyEntry", false);
      Field key = newField(entry);
      key.name = "key";
      key.kind = Kind.STRING;
      key.key = true;
      Field ev = newField(entry);
      ev.name = "value";
      ev.kind = Kind.UNION;
      ev.union = u;
      s.types.add(entry);
      Type map = newWrapper("AnyMap");
      map.value().kind = Kind.TABLE;
      map.value().vector = true;
      map.value().map = true;
      map.value().ref = entry;
      members.add(map);
    }
    java.util.Collections.shuffle(members, r);
    u.members.addAll(members);
    s.unions.add(u);
    s.types.add(item);
    return item;
  }

  /** A new wrapper table named {@code name}, its value field not yet given a kind. */
  private Type newWrapper(String name) {
    Type w = new Type(name, false);
    w.wrapper = true;
    if (r.nextInt(8) == 0) {
      Field old = newField(w);
      old.kind = Kind.INT;
      old.deprecated = true;
    }
    Field v = newField(w);
    v.name = r.nextInt(4) == 0 ? "v" + names++ : "value";
    s.types.add(w);
    return w;
  }

  /** A wrapper of a value of a random kind; now and then one made before. */
  private Type wrapper(int depth) {
    if (!wrappers.isEmpty() && r.nextInt(4) == 0) {
      return wrappers.get(r.nextInt(wrappers.size()));
    }
    Type w = newWrapper("W" + names++);
    slot(w.value(), depth + 1);
    wrappers.add(w);
    return w;
  }

  /** Field {@code f} as a {@code (map)} of entries whose value is of a random kind. */
  private void map(Field f, int depth) {
    Type entry = new Type("M" + names++, false);
    Field key = new Field();
    key.name = r.nextBoolean() ? "key" : "k";
    key.kind = Kind.STRING;
    key.key = true;
    key.required = r.nextBoolean();
    Field value = new Field();
    value.name = r.nextBoolean() ? "value" : "val";
    if (r.nextBoolean()) {
      entry.fields.add(key);
      entry.fields.add(value);
    } else {
      entry.fields.add(value);
      entry.fields.add(key);
    }
    slot(value, depth + 1);
    s.types.add(entry);
    f.kind = Kind.TABLE;
    f.vector = true;
    f.map = true;
    f.ref = entry;
  }

  /** A union of 1 to 4 distinct wrappers of values of random kinds (ties among them too). */
  private UnionType union(int depth) {
    if (!s.unions.isEmpty() && r.nextInt(4) == 0) {
      return s.unions.get(r.nextInt(s.unions.size()));
    }
    UnionType u = new UnionType("U" + names++);
    for (int i = 0, n = 1 + r.nextInt(4); i < n; i++) {
      Type w = wrapper(depth);
      if (!u.members.contains(w)) {
        u.members.add(w);
      }
    }
    s.unions.add(u);
    return u;
  }

  /** The value field of a wrapper or map entry: any kind, the shapes too while not too deep. */
  private void slot(Field f, int depth) {
    int pick = r.nextInt(depth >= SHAPE_DEPTH ? 60 : 100);
    if (pick < 25) {
      scalarOrEnum(f);
      modifiers(f);
    } else if (pick < 36) {
      f.kind = Kind.STRING;
    } else if (pick < 42 && !shapeStructs.isEmpty()) {
      f.kind = Kind.STRUCT;
      f.ref = shapeStructs.get(r.nextInt(shapeStructs.size()));
    } else if (pick < 48) {
      f.kind = Kind.TABLE;
      f.ref = shapeTables.get(r.nextInt(shapeTables.size()));
    } else if (pick < 60) {
      f.vector = true;
      int e = r.nextInt(6);
      if (e == 0) {
        f.kind = Kind.UBYTE;
      } else if (e < 3) {
        scalarOrEnum(f);
      } else if (e < 4) {
        f.kind = Kind.STRING;
      } else if (e < 5 && !shapeStructs.isEmpty()) {
        f.kind = Kind.STRUCT;
        f.ref = shapeStructs.get(r.nextInt(shapeStructs.size()));
      } else {
        f.kind = Kind.TABLE;
        f.ref = shapeTables.get(r.nextInt(shapeTables.size()));
      }
    } else if (pick < 70) {
      f.kind = Kind.TABLE;
      f.ref = wrapper(depth);
    } else if (pick < 80) {
      f.kind = Kind.TABLE;
      f.vector = true;
      f.ref = wrapper(depth);
    } else if (pick < 90) {
      map(f, depth);
    } else {
      f.kind = Kind.UNION;
      f.union = union(depth);
    }
    if ((f.vector || f.kind == Kind.STRING || f.kind == Kind.TABLE) && r.nextInt(10) == 0) {
      f.required = true;
    }
  }

  private void scalarOrEnum(Field f) {
    if (r.nextInt(6) == 0) {
      f.kind = Kind.ENUM;
      f.en = s.enums.get(r.nextInt(s.enums.size()));
    } else {
      f.kind = Kind.SCALARS[r.nextInt(Kind.SCALARS.length)];
    }
  }

  /** Defaults and optional for a scalar or enum table field (not a vector). */
  private void modifiers(Field f) {
    if (f.vector) {
      return;
    }
    int pick = r.nextInt(10);
    if (pick < 2) {
      f.optional = true;
      f.defaultText = "null";
      return;
    }
    if (pick < 5) {
      return;
    }
    Kind k = f.scalarKind();
    if (f.kind == Kind.ENUM) {
      int i = r.nextInt(f.en.names.size());
      if (f.en.base == Kind.ULONG && f.en.values.get(i) < 0) {
        i = 0; // flatc 2.0.8's binary schema loses a default of 2^63 or more: see refusedField
      }
      f.defaultText = f.en.names.get(i);
      f.defaultBits = f.en.values.get(i);
    } else if (k == Kind.BOOL) {
      f.defaultText = "true";
      f.defaultBits = 1L;
    } else if (k.integer()) {
      BigInteger v =
          switch (r.nextInt(4)) {
            case 0 -> k.min();
            case 1 -> k.max();
            default -> BigInteger.valueOf(r.nextInt(100) - (k.signed ? 50 : 0));
          };
      if (k == Kind.ULONG && v.bitLength() > 63) {
        v = BigInteger.valueOf(Long.MAX_VALUE);
      }
      f.defaultBits = v.longValue();
      f.defaultText = v.toString();
    } else {
      double d;
      String text;
      switch (r.nextInt(7)) {
        case 0 -> {
          d = Double.NaN;
          text = "nan";
        }
        case 1 -> {
          d = Double.POSITIVE_INFINITY;
          text = "inf";
        }
        case 2 -> {
          d = Double.NEGATIVE_INFINITY;
          text = "-inf";
        }
        case 3 -> {
          d = 0.1;
          text = "0.1";
        }
        case 4 -> {
          d = k == Kind.FLOAT ? 1.0e10 : 1.0e300;
          text = k == Kind.FLOAT ? "1e10" : "1e300";
        }
        default -> {
          d = (r.nextInt(400) - 200) / 4.0;
          if (d == 0) {
            d = 2.5;
          }
          text = Double.toString(d);
        }
      }
      f.defaultBits = Double.doubleToRawLongBits(d);
      f.defaultText = text;
    }
  }

  private static String bsonName(int id) {
    String[] shapes = {"x-%d", "ü-%d", "名前-%d", "with space %d", "$d%d", "a.b-%d"};
    return String.format(shapes[id % shapes.length], id);
  }

  /** Struct offsets and size, as flatc lays them out: each field at its own alignment. */
  private static void layOut(Type st) {
    int at = 0;
    for (Field f : st.fields) {
      int size = f.kind == Kind.STRUCT ? f.ref.size : f.scalarKind().size;
      int align = f.kind == Kind.STRUCT ? f.ref.align : size;
      at = (at + align - 1) / align * align;
      f.offset = at;
      at += size;
      st.align = Math.max(st.align, align);
    }
    st.size = (at + st.align - 1) / st.align * st.align;
  }

  private String render(Field extra) {
    StringBuilder b =
        new StringBuilder("attribute \"bson\";\nattribute \"map\";\nattribute \"wrapper\";\n\n");
    for (EnumType e : s.enums) {
      b.append("enum ").append(e.name).append(" : ").append(e.base.fbs).append(" { ");
      for (int i = 0; i < e.names.size(); i++) {
        b.append(i == 0 ? "" : ", ")
            .append(e.names.get(i))
            .append(" = ")
            .append(e.base.value(e.values.get(i)));
      }
      b.append(" }\n");
    }
    for (UnionType u : s.unions) {
      b.append("union ").append(u.name).append(" { ");
      for (int i = 0; i < u.members.size(); i++) {
        b.append(i == 0 ? "" : ", ").append(u.members.get(i).name);
      }
      b.append(" }\n");
    }
    if (extra != null && extra.kind == Kind.ENUM) {
      b.append("enum Refused : ulong { Small = 0, Half = 9223372036854775808,")
          .append(" Big = 18446744073709551615 }\n");
    }
    Set<String> done = new HashSet<>();
    for (Type t : s.types) {
      if (!done.add(t.name)) {
        continue;
      }
      b.append(t.struct ? "struct " : "table ").append(t.name);
      b.append(t.wrapper ? " (wrapper) {\n" : " {\n");
      for (Field f : t.fields) {
        b.append("  ").append(f.name).append(": ").append(f.fbsType());
        if (f.defaultText != null) {
          b.append(" = ").append(f.defaultText);
        }
        List<String> attrs = new ArrayList<>();
        if (f.required) {
          attrs.add("required");
        }
        if (f.deprecated) {
          attrs.add("deprecated");
        }
        if (f.key) {
          attrs.add("key");
        }
        if (f.bson != null) {
          attrs.add("bson: \"" + f.bson + "\"");
        }
        if (f.map) {
          attrs.add("map");
        }
        if (!attrs.isEmpty()) {
          b.append(" (").append(String.join(", ", attrs)).append(")");
        }
        b.append(";\n");
      }
      if (extra != null && t == s.record()) {
        b.append("  ").append(extra.name).append(": ");
        b.append(extra.kind == Kind.ENUM ? "Refused" : extra.kind.fbs);
        b.append(" = ").append(extra.defaultText).append(";\n");
      }
      b.append("}\n\n");
    }
    b.append("root_type ").append(s.root.name).append(";\n");
    return b.toString();
  }
}
