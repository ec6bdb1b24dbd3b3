package dev.flatdump.encode.engine;

import dev.flatdump.encode.engine.RandomSchemas.EnumType;
import dev.flatdump.encode.engine.RandomSchemas.Field;
import dev.flatdump.encode.engine.RandomSchemas.Kind;
import dev.flatdump.encode.engine.RandomSchemas.Schema;
import dev.flatdump.encode.engine.RandomSchemas.Type;
import dev.flatdump.encode.engine.RandomSchemas.UnionType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.bson.BsonBinary;
import org.bson.BsonBinaryReader;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonType;
import org.bson.BsonValue;

/**
 * The record a document must become, written from {@code docs/mapping.md} and the rules decided for
 * this round alone, with no engine code: the document is decoded by the driver's reader, value by
 * value, keeping what a decoded {@code BsonDocument} hides (a name given twice, strings that are
 * not UTF-8, bool bytes other than 0 and 1), then mapped in document order, so that the first
 * problem met is the one named. The record comes out as maps (tables, structs, wrappers, map
 * entries: field name to value), lists (vectors; a map's entries sorted by key), strings, {@link
 * Scalar}s and {@link UnionTag}s (a union's {@code _type}, beside its member's table); a scalar
 * left out reads as its default, an optional one as {@link #NULL}, a union's type as {@code NONE};
 * strings, tables, structs and vectors left out are not in the map. The union's member is chosen as
 * the union row words it, not by the engine's {@code UnionChoice}.
 */
final class MappingOracle {

  /** A scalar as a reader gets it: its kind and its bits (a float's as its 32 bits). */
  record Scalar(Kind kind, EnumType en, long bits) {
    @Override
    public String toString() {
      return switch (kind) {
        case FLOAT ->
            Float.intBitsToFloat((int) bits) + "f(0x" + Integer.toHexString((int) bits) + ")";
        case DOUBLE -> Double.longBitsToDouble(bits) + "(0x" + Long.toHexString(bits) + ")";
        case BOOL -> Boolean.toString(bits != 0);
        default -> kind.value(bits).toString() + (en == null ? "" : "/" + en.nameOf(bits));
      };
    }
  }

  /** A union's {@code _type} as a reader gets it: its member's name, {@code NONE} for none. */
  record UnionTag(String name) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** A union's value before it goes into its table: the member chosen and its wrapper table. */
  private record UnionValue(UnionTag tag, Map<String, Object> member) {}

  /** An optional scalar left out. */
  static final Object NULL =
      new Object() {
        @Override
        public String toString() {
          return "null";
        }
      };

  /** The oracle's answer: a record, or a reject at {@code path} (or {@code altPath}). */
  record Verdict(Map<String, Object> record, String path, String altPath, String why) {
    boolean accepted() {
      return record != null;
    }

    @Override
    public String toString() {
      return accepted() ? "accept " + record : "reject " + path + ": " + why;
    }
  }

  private static final class Refused extends RuntimeException {
    final String path;
    final String altPath;

    Refused(String path, String altPath, String why) {
      super(why, null, false, false);
      this.path = path;
      this.altPath = altPath;
    }
  }

  /** One element of a document as the driver read it. */
  private record Entry(
      String name,
      boolean nameValid,
      BsonType type,
      BsonValue value,
      List<Entry> children,
      String malformed) {
    /** The first malformed value in it, however deep, or null. */
    String firstMalformed() {
      if (malformed != null) {
        return malformed;
      }
      if (children != null) {
        for (Entry c : children) {
          String m = c.firstMalformed();
          if (m != null) {
            return m;
          }
        }
      }
      return null;
    }
  }

  /**
   * A rule of this round left out, only to tell failures of that rule from others: (g) keyed
   * vectors sorted, (c) an old binary's inner length dropped.
   */
  enum Relaxation {
    G_UNSORTED_KEYS,
    C_OLD_BINARY_WITH_LENGTH
  }

  private final Schema s;
  private final boolean strict;
  private final Set<Relaxation> relaxed;

  MappingOracle(Schema s, boolean strict) {
    this(s, strict, Set.of());
  }

  MappingOracle(Schema s, boolean strict, Set<Relaxation> relaxed) {
    this.s = s;
    this.strict = strict;
    this.relaxed = relaxed;
  }

  Verdict map(byte[] doc) {
    List<Entry> entries;
    ByteBuffer bytes = ByteBuffer.wrap(doc).order(ByteOrder.LITTLE_ENDIAN);
    try (BsonBinaryReader reader = new BsonBinaryReader(bytes.duplicate())) {
      entries = readDocument(reader, bytes);
    }
    try {
      return new Verdict(table(s.record(), entries, "", true, 0), null, null, null);
    } catch (Refused r) {
      return new Verdict(null, r.path, r.altPath, r.getMessage());
    }
  }

  // ---- the driver's reading, keeping what a decoded document hides ---------------------------

  private static List<Entry> readDocument(BsonBinaryReader reader, ByteBuffer bytes) {
    List<Entry> entries = new ArrayList<>();
    reader.readStartDocument();
    int at = reader.getBsonInput().getPosition();
    while (reader.readBsonType() != BsonType.END_OF_DOCUMENT) {
      String name = reader.readName();
      int nul = at + 1;
      while (bytes.get(nul) != 0) {
        nul++;
      }
      byte[] raw = new byte[nul - at - 1];
      bytes.get(at + 1, raw);
      entries.add(readValue(name, validUtf8(raw), reader, bytes));
      at = reader.getBsonInput().getPosition();
    }
    reader.readEndDocument();
    return entries;
  }

  private static Entry readValue(
      String name, boolean nameValid, BsonBinaryReader reader, ByteBuffer bytes) {
    BsonType type = reader.getCurrentBsonType();
    int at = reader.getBsonInput().getPosition();
    switch (type) {
      case DOCUMENT:
        return new Entry(name, nameValid, type, null, readDocument(reader, bytes), null);
      case ARRAY:
        {
          List<Entry> elements = new ArrayList<>();
          reader.readStartArray();
          for (int i = 0; reader.readBsonType() != BsonType.END_OF_DOCUMENT; i++) {
            elements.add(readValue(Integer.toString(i), true, reader, bytes));
          }
          reader.readEndArray();
          return new Entry(name, nameValid, type, null, elements, null);
        }
      case STRING:
        {
          int length = bytes.getInt(at) - 1;
          byte[] utf8 = new byte[length];
          bytes.get(at + 4, utf8);
          String bad = validUtf8(utf8) ? null : "not valid UTF-8";
          return new Entry(name, nameValid, type, new BsonString(reader.readString()), null, bad);
        }
      case BOOLEAN:
        {
          byte b = bytes.get(at);
          if (b != 0 && b != 1) {
            reader.skipValue();
            return new Entry(name, nameValid, type, null, null, "a bool byte of " + b);
          }
          return new Entry(
              name, nameValid, type, BsonBoolean.valueOf(reader.readBoolean()), null, null);
        }
      case DOUBLE:
        return new Entry(name, nameValid, type, new BsonDouble(reader.readDouble()), null, null);
      case INT32:
        return new Entry(name, nameValid, type, new BsonInt32(reader.readInt32()), null, null);
      case INT64:
        return new Entry(name, nameValid, type, new BsonInt64(reader.readInt64()), null, null);
      case NULL:
        reader.readNull();
        return new Entry(name, nameValid, type, BsonNull.VALUE, null, null);
      case OBJECT_ID:
        return new Entry(
            name, nameValid, type, new BsonObjectId(reader.readObjectId()), null, null);
      case DATE_TIME:
        return new Entry(
            name, nameValid, type, new BsonDateTime(reader.readDateTime()), null, null);
      case TIMESTAMP:
        return new Entry(name, nameValid, type, reader.readTimestamp(), null, null);
      case DECIMAL128:
        return new Entry(
            name, nameValid, type, new BsonDecimal128(reader.readDecimal128()), null, null);
      case BINARY:
        return new Entry(name, nameValid, type, reader.readBinaryData(), null, null);
      default:
        reader.skipValue();
        return new Entry(name, nameValid, type, null, null, null);
    }
  }

  private static boolean validUtf8(byte[] b) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  // ---- the rules ------------------------------------------------------------------------------

  private static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  /** Tables nest at most 64 deep, counting the shard's root and the record (depth 0). */
  private static void deep(int depth, String path) {
    if (depth > 62) {
      throw new Refused(path, null, "tables nested deeper than 64 levels");
    }
  }

  private Map<String, Object> table(
      Type t, List<Entry> entries, String path, boolean record, int depth) {
    deep(depth, path);
    Set<Field> seen = new HashSet<>();
    Map<Field, Object> given = new LinkedHashMap<>();
    for (Entry e : entries) {
      Field f = t.byBson(e.name);
      if (f == null) {
        unknown(e, path, record);
        continue;
      }
      String p = join(path, f.name);
      if (!seen.add(f)) {
        throw new Refused(p, null, "the field appears twice");
      }
      if (e.type == BsonType.NULL) {
        continue;
      }
      Field taker = taker(t, f, e, p, depth);
      given.put(taker, value(taker, e, p, depth));
    }
    for (Field f : t.fields) {
      if (f.required && !f.deprecated && !given.containsKey(f)) {
        throw new Refused(join(path, f.name), null, "required, and missing or null");
      }
    }
    return written(t, given);
  }

  /**
   * Of the fields of {@code t} that read {@code first}'s BSON name, the one that takes the value
   * (mapping.md, "Names"): the first, by id, that takes it, a scalar or string field by the value
   * itself and any other by its type; {@code first} when none does.
   */
  private Field taker(Type t, Field first, Entry e, String p, int depth) {
    List<Field> same = new java.util.ArrayList<>();
    for (Field f : t.fields) {
      if (!f.deprecated && f.bsonName().equals(first.bsonName())) {
        same.add(f);
      }
    }
    if (same.size() == 1) {
      return first;
    }
    same.sort(Comparator.comparingInt(f -> f.id));
    for (Field f : same) {
      boolean byValue =
          !f.vector
              && !f.map
              && f.kind != Kind.TABLE
              && f.kind != Kind.STRUCT
              && f.kind != Kind.UNION;
      if (byValue) {
        try {
          value(f, e, p, depth);
          return f;
        } catch (Refused no) {
          continue; // the next field may take it
        }
      }
      if (takes(f, e.type, 0) > 0) {
        return f;
      }
    }
    return first;
  }

  /**
   * Table {@code t} as a reader gets it from the fields given: those left out read as their
   * defaults (optional scalars as {@link #NULL}, a union's type as {@code NONE}); strings, tables,
   * structs and vectors left out are not in the map.
   */
  private static Map<String, Object> written(Type t, Map<Field, Object> given) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Field f : t.fields) {
      if (f.deprecated) {
        continue;
      }
      Object v = given.get(f);
      if (f.kind == Kind.UNION) {
        if (v == null) {
          out.put(f.name + "_type", new UnionTag("NONE"));
        } else {
          out.put(f.name + "_type", ((UnionValue) v).tag());
          out.put(f.name, ((UnionValue) v).member());
        }
        continue;
      }
      if (v == null && !f.vector && f.kind != Kind.STRING && f.kind != Kind.STRUCT) {
        if (f.kind != Kind.TABLE) {
          v = f.optional ? NULL : new Scalar(f.scalarKind(), f.en, f.absentBits());
        }
      }
      if (v != null) {
        out.put(f.name, v);
      }
    }
    return out;
  }

  /**
   * The {@code (wrapper)} table {@code w} holding {@code e} (null included: then its value is
   * absent), its value mapped by its field's row at the path of what holds it, {@code p}.
   */
  private Map<String, Object> wrapper(Type w, Entry e, String p, int depth) {
    deep(depth, p);
    Field v = w.value();
    Map<Field, Object> given = new LinkedHashMap<>();
    if (e.type != BsonType.NULL) {
      given.put(v, value(v, e, p, depth));
    } else if (v.required) {
      throw new Refused(p, null, "required, and missing or null");
    }
    return written(w, given);
  }

  /**
   * A {@code (map)}: one entry per field of the document, its name the key, its value by the value
   * field's row at {@code p.name}; sorted by the keys' UTF-8 bytes.
   */
  private List<Object> map(Field f, Entry e, String p, int depth) {
    if (e.type != BsonType.DOCUMENT) {
      throw new Refused(p, null, "expected a document (map), got " + e.type);
    }
    Type entry = f.ref;
    Field key = entry.key();
    Field v = entry.value();
    Set<String> keys = new HashSet<>();
    List<Map<String, Object>> out = new ArrayList<>();
    for (Entry c : e.children) {
      String kp = join(p, c.name);
      if (!c.nameValid) {
        throw new Refused(kp, p, "a key of invalid UTF-8");
      }
      if (!keys.add(c.name)) {
        throw new Refused(kp, null, "the key appears twice in the map");
      }
      deep(depth + 1, kp);
      Map<Field, Object> given = new LinkedHashMap<>();
      given.put(key, c.name);
      if (c.type != BsonType.NULL) {
        given.put(v, value(v, c, kp, depth + 1));
      } else if (v.required) {
        throw new Refused(kp, null, "required, and missing or null");
      }
      out.add(written(entry, given));
    }
    out.sort(
        Comparator.comparing(
            m -> ((String) m.get(key.name)).getBytes(StandardCharsets.UTF_8),
            Arrays::compareUnsigned));
    return new ArrayList<>(out);
  }

  /**
   * A union: the member chosen by the value's BSON type alone (the first declared whose value takes
   * the type exactly, else the first that takes it by a lossless conversion), holding the value,
   * mapped by that member's rules.
   */
  private UnionValue union(UnionType u, Entry e, String p, int depth) {
    int chosen = 0;
    int best = 0;
    for (int i = 0; i < u.members.size(); i++) {
      int how = takes(u.members.get(i).value(), e.type, 0);
      if (how > best) {
        best = how;
        chosen = i + 1;
      }
    }
    if (chosen == 0) {
      throw new Refused(p, null, "no member of " + u.name + " takes " + e.type);
    }
    return new UnionValue(
        new UnionTag(u.nameOf(chosen)), wrapper(u.members.get(chosen - 1), e, p, depth + 1));
  }

  private static final int EXACTLY = 2;
  private static final int CONVERTED = 1;

  /**
   * How field {@code f} takes a value of BSON type {@code type}, by mapping.md's union row: {@link
   * #EXACTLY} for the pairs it lists, {@link #CONVERTED} for any other type the field's row takes,
   * 0 for none. A wrapper takes what its value takes, a union what its best member takes.
   */
  private static int takes(Field f, BsonType type, int depth) {
    if (depth > 16) {
      return 0;
    }
    if (f.kind == Kind.UNION) {
      int best = 0;
      for (Type m : f.union.members) {
        best = Math.max(best, takes(m.value(), type, depth + 1));
      }
      return best;
    }
    if (f.map) {
      return type == BsonType.DOCUMENT ? EXACTLY : 0;
    }
    if (f.vector) {
      return switch (type) {
        case ARRAY -> EXACTLY;
        case BINARY -> f.kind == Kind.UBYTE ? EXACTLY : 0;
        case OBJECT_ID -> f.kind == Kind.UBYTE ? CONVERTED : 0;
        default -> 0;
      };
    }
    return switch (f.kind) {
      case TABLE ->
          f.ref.wrapper
              ? takes(f.ref.value(), type, depth + 1)
              : type == BsonType.DOCUMENT ? EXACTLY : 0;
      case STRUCT -> type == BsonType.DOCUMENT ? EXACTLY : 0;
      case STRING ->
          switch (type) {
            case STRING, OBJECT_ID, DECIMAL128 -> EXACTLY;
            case BINARY -> CONVERTED;
            default -> 0;
          };
      case ENUM ->
          type == BsonType.STRING || type == BsonType.INT32 || type == BsonType.INT64
              ? CONVERTED
              : 0;
      case BOOL -> type == BsonType.BOOLEAN ? EXACTLY : 0;
      case FLOAT ->
          type == BsonType.DOUBLE || type == BsonType.INT32 || type == BsonType.INT64
              ? CONVERTED
              : 0;
      case DOUBLE ->
          type == BsonType.DOUBLE
              ? EXACTLY
              : type == BsonType.INT32 || type == BsonType.INT64 ? CONVERTED : 0;
      default ->
          switch (type) {
            case INT32 -> f.kind == Kind.INT ? EXACTLY : CONVERTED;
            case INT64 -> f.kind == Kind.LONG ? EXACTLY : CONVERTED;
            case DOUBLE -> CONVERTED;
            case DATE_TIME -> f.kind == Kind.LONG ? EXACTLY : 0;
            case TIMESTAMP -> f.kind == Kind.ULONG ? EXACTLY : 0;
            default -> 0;
          };
    };
  }

  /** A field the schema does not read (a deprecated one counts): counted, or refused. */
  private void unknown(Entry e, String path, boolean record) {
    if (record && e.name.equals("_id")) {
      String m = e.firstMalformed();
      if (m != null) {
        throw new Refused("_id", null, "_id: " + m);
      }
      return;
    }
    String p = join(path, e.name);
    if (strict) {
      throw new Refused(p, null, "not a field of the schema (--strict)");
    }
    String m = e.firstMalformed();
    if (m != null) {
      throw new Refused(p, path, m);
    }
  }

  private Object value(Field f, Entry e, String p, int depth) {
    if (f.kind == Kind.UNION) {
      if (e.malformed != null) {
        throw new Refused(p, null, e.malformed);
      }
      return union(f.union, e, p, depth);
    }
    if (f.map) {
      return map(f, e, p, depth);
    }
    if (f.vector) {
      return vector(f, e, p, depth);
    }
    return single(f, f.kind, e, p, depth);
  }

  private Object single(Field f, Kind kind, Entry e, String p, int depth) {
    if (e.malformed != null) {
      throw new Refused(p, null, e.malformed);
    }
    return switch (kind) {
      case STRING -> string(e, p);
      case STRUCT -> struct(f.ref, e, p);
      case TABLE -> {
        if (f.ref.wrapper) {
          yield wrapper(f.ref, e, p, depth + 1);
        }
        if (e.type != BsonType.DOCUMENT) {
          throw new Refused(p, null, "expected a document (table), got " + e.type);
        }
        yield table(f.ref, e.children, p, false, depth + 1);
      }
      default ->
          scalar(kind == Kind.ENUM ? f.en.base : kind, kind == Kind.ENUM ? f.en : null, e, p);
    };
  }

  private Map<String, Object> struct(Type st, Entry e, String p) {
    if (e.type != BsonType.DOCUMENT) {
      throw new Refused(p, null, "expected a document (struct), got " + e.type);
    }
    Set<Field> seen = new HashSet<>();
    Map<Field, Object> given = new LinkedHashMap<>();
    for (Entry c : e.children) {
      Field f = st.byBson(c.name);
      if (f == null) {
        unknown(c, p, false);
        continue;
      }
      String fp = join(p, f.name);
      if (!seen.add(f)) {
        throw new Refused(fp, null, "the field appears twice");
      }
      if (c.type == BsonType.NULL) {
        throw new Refused(fp, null, "null in a struct");
      }
      given.put(f, single(f, f.kind, c, fp, 0));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Field f : st.fields) {
      if (!given.containsKey(f)) {
        throw new Refused(join(p, f.name), null, "missing: a struct needs every field");
      }
      out.put(f.name, given.get(f));
    }
    return out;
  }

  private List<Object> vector(Field f, Entry e, String p, int depth) {
    List<Object> out = new ArrayList<>();
    if (f.kind == Kind.UBYTE && (e.type == BsonType.BINARY || e.type == BsonType.OBJECT_ID)) {
      byte[] bytes =
          e.type == BsonType.BINARY
              ? ((BsonBinary) e.value).getData()
              : ((BsonObjectId) e.value).getValue().toByteArray();
      if (e.type == BsonType.BINARY
          && ((BsonBinary) e.value).getType() == 2
          && relaxed.contains(Relaxation.C_OLD_BINARY_WITH_LENGTH)) {
        byte[] whole = new byte[bytes.length + 4];
        ByteBuffer.wrap(whole).order(ByteOrder.LITTLE_ENDIAN).putInt(bytes.length).put(bytes);
        bytes = whole;
      }
      for (byte b : bytes) {
        out.add(new Scalar(Kind.UBYTE, null, b & 0xff));
      }
      return out;
    }
    if (e.type != BsonType.ARRAY) {
      throw new Refused(p, null, "expected an array, got " + e.type);
    }
    for (int i = 0; i < e.children.size(); i++) {
      Entry c = e.children.get(i);
      String ep = p + "[" + i + "]";
      if (c.type == BsonType.NULL) {
        if (f.kind == Kind.TABLE && f.ref.wrapper) {
          out.add(wrapper(f.ref, c, ep, depth + 1));
          continue;
        }
        throw new Refused(ep, null, "null in a vector");
      }
      out.add(single(f, f.kind, c, ep, depth));
    }
    if (!relaxed.contains(Relaxation.G_UNSORTED_KEYS)
        && f.kind == Kind.TABLE
        && f.ref.key() != null) {
      Field key = f.ref.key();
      List<Object> sorted = new ArrayList<>(out);
      sorted.sort(Comparator.comparing(o -> ((Map<?, ?>) o).get(key.name), keyOrder(key)));
      return sorted;
    }
    return out;
  }

  /**
   * Rule (g): strings by their UTF-8 bytes unsigned (absent as empty), scalars by value (unsigned
   * kinds unsigned); {@code List.sort} is stable, so equal keys keep document order.
   */
  private static Comparator<Object> keyOrder(Field key) {
    if (key.kind == Kind.STRING) {
      return Comparator.comparing(
          o -> o == null ? new byte[0] : ((String) o).getBytes(StandardCharsets.UTF_8),
          Arrays::compareUnsigned);
    }
    Kind k = key.scalarKind();
    return (a, b) -> {
      long x = ((Scalar) a).bits;
      long y = ((Scalar) b).bits;
      if (k == Kind.FLOAT) {
        float fx = Float.intBitsToFloat((int) x);
        float fy = Float.intBitsToFloat((int) y);
        return fx == fy ? 0 : Float.compare(fx, fy);
      }
      if (k == Kind.DOUBLE) {
        double dx = Double.longBitsToDouble(x);
        double dy = Double.longBitsToDouble(y);
        return dx == dy ? 0 : Double.compare(dx, dy);
      }
      return k.signed ? Long.compare(x, y) : Long.compareUnsigned(x, y);
    };
  }

  private static String string(Entry e, String p) {
    switch (e.type) {
      case STRING:
        return ((BsonString) e.value).getValue();
      case OBJECT_ID:
        return ((BsonObjectId) e.value).getValue().toHexString();
      case DECIMAL128:
        return ((BsonDecimal128) e.value).getValue().toString();
      case BINARY:
        {
          BsonBinary b = (BsonBinary) e.value;
          if (b.getType() == 4 && b.getData().length == 16) {
            ByteBuffer bb = ByteBuffer.wrap(b.getData());
            return new UUID(bb.getLong(), bb.getLong()).toString();
          }
          throw new Refused(p, null, "binary maps to [ubyte]");
        }
      default:
        throw new Refused(p, null, "expected a string, got " + e.type);
    }
  }

  private static Scalar scalar(Kind k, EnumType en, Entry e, String p) {
    if (k == Kind.BOOL) {
      if (e.type != BsonType.BOOLEAN) {
        throw new Refused(p, null, "expected bool, got " + e.type);
      }
      return new Scalar(k, null, ((BsonBoolean) e.value).getValue() ? 1 : 0);
    }
    if (k.real()) {
      return real(k, e, p);
    }
    BigInteger v;
    switch (e.type) {
      case INT32 -> v = BigInteger.valueOf(((BsonInt32) e.value).getValue());
      case INT64 -> v = BigInteger.valueOf(((BsonInt64) e.value).getValue());
      case DOUBLE -> {
        double d = ((BsonDouble) e.value).getValue();
        if (en != null) {
          throw new Refused(p, null, "a double into an enum");
        }
        if (Double.isNaN(d) || Double.isInfinite(d) || d != Math.rint(d)) {
          throw new Refused(p, null, d + " is not an integer");
        }
        v = new BigDecimal(d).toBigIntegerExact();
      }
      case DATE_TIME -> {
        if (k != Kind.LONG || en != null) {
          throw new Refused(p, null, "a date maps to long");
        }
        return new Scalar(k, null, ((BsonDateTime) e.value).getValue());
      }
      case TIMESTAMP -> {
        if (k != Kind.ULONG || en != null) {
          throw new Refused(p, null, "a timestamp maps to ulong");
        }
        return new Scalar(k, null, ((BsonTimestamp) e.value).getValue());
      }
      case STRING -> {
        if (en == null) {
          throw new Refused(p, null, "expected an integer, got a string");
        }
        Long named = en.byName(((BsonString) e.value).getValue());
        if (named == null) {
          throw new Refused(p, null, "not a name of " + en.name);
        }
        return new Scalar(k, en, named);
      }
      default -> throw new Refused(p, null, "expected an integer, got " + e.type);
    }
    if (v.compareTo(k.min()) < 0 || v.compareTo(k.max()) > 0) {
      throw new Refused(p, null, v + " out of range for " + k.fbs);
    }
    long bits = v.longValue();
    if (en != null && !en.declares(bits)) {
      throw new Refused(p, null, v + " is not a value of " + en.name);
    }
    return new Scalar(k, en, bits);
  }

  private static Scalar real(Kind k, Entry e, String p) {
    double d;
    switch (e.type) {
      case DOUBLE -> d = ((BsonDouble) e.value).getValue();
      case INT32 -> d = ((BsonInt32) e.value).getValue();
      case INT64 -> {
        long l = ((BsonInt64) e.value).getValue();
        d = l;
        if (new BigDecimal(d).compareTo(BigDecimal.valueOf(l)) != 0) {
          throw new Refused(p, null, l + " is not exactly a double");
        }
      }
      default -> throw new Refused(p, null, "expected a number, got " + e.type);
    }
    if (k == Kind.DOUBLE) {
      return new Scalar(k, null, Double.doubleToRawLongBits(d));
    }
    float f = (float) d;
    if (Double.doubleToRawLongBits(f) != Double.doubleToRawLongBits(d)) {
      throw new Refused(p, null, d + " is not exactly a float");
    }
    return new Scalar(k, null, Float.floatToRawIntBits(f) & 0xffffffffL);
  }
}
