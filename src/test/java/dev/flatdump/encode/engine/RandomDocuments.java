package dev.flatdump.encode.engine;

import dev.flatdump.encode.engine.RandomSchemas.EnumType;
import dev.flatdump.encode.engine.RandomSchemas.Field;
import dev.flatdump.encode.engine.RandomSchemas.Kind;
import dev.flatdump.encode.engine.RandomSchemas.Schema;
import dev.flatdump.encode.engine.RandomSchemas.Type;
import dev.flatdump.encode.engine.RandomSchemas.UnionType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.bson.types.Decimal128;

/**
 * Random BSON documents for one {@link Schema}, as bytes. Each sub-document's layout (which fields,
 * in which order, of which BSON type) comes from a layout seed and its table type, so that long
 * runs of documents share layouts (the engine learns them), broken now and then by another; values
 * come from a second stream and sit at the edges (each kind's min and max, {@code -0.0}, NaN
 * payloads, infinities, integral doubles, 4-byte UTF-8, empty strings and vectors). About 15 % of
 * the documents carry one perturbation the rules may reject: a wrong type, a value out of range, a
 * fraction, a field given twice, invalid UTF-8, a null element, a required field missing, a struct
 * field missing, an undeclared enum value, a bool byte of 2; a map given an array, a key twice, a
 * key of invalid UTF-8, a union given a type no member takes, arrays nested past 64 levels of
 * tables. Vectors of wrappers hold nulls; maps' keys are distinct, some empty or not ASCII.
 * Deterministic per seed.
 */
final class RandomDocuments {

  private static final int MAX_DEPTH = 4;

  private static final String[] STRINGS = {
    "",
    "a",
    "b",
    "héllo",
    "日本語",
    "😀",
    "x😀y",
    "key1",
    "key2",
    "Key1",
    "ÿ",
    "\u007f",
    "long-" + "ab".repeat(90)
  };

  private static final byte[][] BAD_UTF8 = {
    {(byte) 0xC3, 0x28},
    {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
    {'a', (byte) 0xF8, 'b'},
    {(byte) 0xF0, (byte) 0x9F, (byte) 0x98},
    {(byte) 0xC0, (byte) 0xAF},
    {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
    {'o', 'k', (byte) 0x80}
  };

  private final Schema s;
  private final Random values;
  private final List<Long> layouts = new ArrayList<>();
  private long layout;
  private boolean perturbing;
  private boolean perturbed;

  RandomDocuments(Schema s, long seed) {
    this.s = s;
    this.values = new Random(seed);
    this.layout = values.nextLong();
    layouts.add(layout);
  }

  /** The next document, with {@code _id} derived from {@code index}. */
  byte[] next(int index) {
    int pick = values.nextInt(100);
    if (pick < 4) {
      layout = values.nextLong();
      layouts.add(layout);
    } else if (pick < 8) {
      layout = layouts.get(values.nextInt(layouts.size()));
    }
    perturbing = values.nextInt(100) < 15;
    perturbed = false;
    BsonOut out = new BsonOut();
    int start = out.begin();
    if (s.record().byBson("_id") == null) {
      id(out, index);
    }
    table(out, s.record(), 0, index);
    out.end(start);
    return out.bytes();
  }

  private void id(BsonOut out, int index) {
    if (perturb()) {
      if (values.nextBoolean()) {
        out.string("_id", BAD_UTF8[values.nextInt(BAD_UTF8.length)]);
      } else {
        out.bool("_id", 2 + values.nextInt(3));
      }
      return;
    }
    switch (shape(null).nextInt(7)) {
      case 0 -> out.int64("_id", index * 1_000_000_007L);
      case 1 -> out.string("_id", "id-" + index + "-é");
      case 2 -> out.objectId("_id", oid(index));
      case 3 -> out.dbl("_id", Double.doubleToRawLongBits(index + 0.5));
      case 4 -> {
        int d = out.begin(BsonOut.DOCUMENT, "_id");
        out.int32("n", index);
        out.string("s", "😀");
        out.end(d);
      }
      case 5 -> out.binary("_id", 0, new byte[] {(byte) index, (byte) (index >> 8), 7});
      default -> out.int32("_id", index);
    }
  }

  private static byte[] oid(int index) {
    byte[] b = new byte[12];
    b[0] = 0x65;
    b[8] = (byte) (index >> 24);
    b[9] = (byte) (index >> 16);
    b[10] = (byte) (index >> 8);
    b[11] = (byte) index;
    return b;
  }

  /** The layout stream of table or struct type {@code t} in the current layout. */
  private Random shape(Type t) {
    return new Random(layout * 31 + (t == null ? 17 : t.name.hashCode()));
  }

  private boolean perturb() {
    if (perturbing && !perturbed && values.nextInt(10) == 0) {
      perturbed = true;
      return true;
    }
    return false;
  }

  private void table(BsonOut out, Type t, int depth, int index) {
    Random sh = shape(t);
    List<Field> order = new ArrayList<>(t.fields);
    if (sh.nextInt(4) == 0) {
      Collections.shuffle(order, sh);
    }
    int unknownAt = sh.nextInt(5) == 0 ? sh.nextInt(order.size() + 1) : -1;
    java.util.Set<String> named = new java.util.HashSet<>();
    for (int i = 0; i <= order.size(); i++) {
      if (i == unknownAt) {
        unknown(out, sh);
      }
      if (i == order.size()) {
        break;
      }
      Field f = order.get(i);
      if (!f.deprecated) {
        // several fields reading one name: the name once, its value for any of them
        List<Field> same = new ArrayList<>();
        for (Field g : t.fields) {
          if (!g.deprecated && g.bsonName().equals(f.bsonName())) {
            same.add(g);
          }
        }
        if (same.size() > 1) {
          if (!named.add(f.bsonName())) {
            continue;
          }
          f = same.get(sh.nextInt(same.size()));
        }
      }
      int presence = sh.nextInt(100);
      int variant = sh.nextInt(1 << 20);
      boolean present = f.deprecated ? presence < 15 : f.required ? presence < 98 : presence < 75;
      boolean isNull = !f.required && presence >= 70 && presence < 75;
      if (f.kind == Kind.TABLE && depth >= MAX_DEPTH) {
        present = false;
      }
      if (f.bsonName().equals("_id") && depth == 0) {
        present = true;
        isNull = false;
      }
      if (!present) {
        continue;
      }
      String name = f.bsonName();
      if (isNull) {
        out.nul(name);
        continue;
      }
      if (perturb()) {
        perturbField(out, f, variant, depth, sh);
        continue;
      }
      if (f.bsonName().equals("_id") && depth == 0) {
        if (f.kind == Kind.STRING) {
          out.string(name, "id" + index);
        } else {
          out.int32(name, index);
        }
        continue;
      }
      value(out, name, f, variant, depth);
    }
  }

  private void value(BsonOut out, String name, Field f, int variant, int depth) {
    if (f.kind == Kind.UNION) {
      union(out, name, f.union, variant, depth);
      return;
    }
    if (f.map) {
      map(out, name, f, variant, depth);
      return;
    }
    if (f.vector) {
      vector(out, name, f, variant, depth);
    } else {
      single(out, name, f, variant, depth);
    }
  }

  private void single(BsonOut out, String name, Field f, int variant, int depth) {
    switch (f.kind) {
      case BOOL -> out.bool(name, values.nextBoolean() ? 1 : 0);
      case FLOAT -> real(out, name, true, variant);
      case DOUBLE -> real(out, name, false, variant);
      case STRING -> string(out, name, variant);
      case ENUM -> enumValue(out, name, f.en, variant);
      case STRUCT -> struct(out, name, f.ref);
      case TABLE -> {
        if (f.ref.wrapper) {
          value(out, name, f.ref.value(), variant, depth + 1);
          return;
        }
        int d = out.begin(BsonOut.DOCUMENT, name);
        table(out, f.ref, depth + 1, -1);
        out.end(d);
      }
      default -> integer(out, name, f.kind, variant);
    }
  }

  // ---- maps, unions and wrappers -------------------------------------------------------------

  /** Arrays and maps deeper than this are empty: a recursive union's values end. */
  private static final int MAX_SHAPE_DEPTH = 9;

  private static final String[] KEYS = {
    "", "a", "b", "ab", "B", "é", "e", "日本", "😀", "key1", "key10", "key2", "\u007f", "z z", "$k"
  };

  /**
   * A union's value: one of its members' (the choice by BSON type may pick another, which may not
   * take it); when perturbing, a type no member may take, or a value that may not fit.
   */
  private void union(BsonOut out, String name, UnionType u, int variant, int depth) {
    if (perturb()) {
      if (u.name.equals("AnyU") && values.nextInt(3) == 0) {
        deepArrays(out, name, 20 + values.nextInt(20));
      } else if (values.nextBoolean()) {
        odd(out, name);
      } else {
        badValue(
            out, name, u.members.get(values.nextInt(u.members.size())).value(), variant, depth);
      }
      return;
    }
    Type m = u.members.get(values.nextInt(u.members.size()));
    value(out, name, m.value(), variant / 3 + values.nextInt(7), depth + 1);
  }

  /**
   * Arrays nested {@code levels} deep, the innermost holding a number or a document: in a recursive
   * union each level is two tables, so some go past the 64 levels tables may nest.
   */
  private void deepArrays(BsonOut out, String name, int levels) {
    int[] starts = new int[levels];
    for (int i = 0; i < levels; i++) {
      starts[i] = out.begin(BsonOut.ARRAY, i == 0 ? name : "0");
    }
    if (values.nextBoolean()) {
      out.int64("0", 7);
    } else {
      int d = out.begin(BsonOut.DOCUMENT, "0");
      out.end(d);
    }
    for (int i = levels - 1; i >= 0; i--) {
      out.end(starts[i]);
    }
  }

  /**
   * A value of a BSON type few fields take (minKey, a regex, JavaScript, a bool, a timestamp...).
   */
  private void odd(BsonOut out, String name) {
    switch (values.nextInt(8)) {
      case 0 -> out.raw(BsonOut.MIN_KEY, name, new byte[0]);
      case 1 -> out.raw(BsonOut.MAX_KEY, name, new byte[0]);
      case 2 -> out.raw(BsonOut.REGEX, name, new byte[] {'a', '+', 0, 'i', 0});
      case 3 -> out.raw(BsonOut.JAVASCRIPT, name, new byte[] {2, 0, 0, 0, 'x', 0});
      case 4 -> out.bool(name, 1);
      case 5 -> out.timestamp(name, 5L << 32 | 1);
      case 6 -> out.date(name, -1);
      default -> out.decimal128(name, Decimal128.parse("2.5"));
    }
  }

  /** A document of distinct keys (some empty, non-ASCII), values of the entry's kind or null. */
  private void map(BsonOut out, String name, Field f, int variant, int depth) {
    Field v = f.ref.value();
    int d = out.begin(BsonOut.DOCUMENT, name);
    int n = depth > MAX_SHAPE_DEPTH || values.nextInt(5) == 0 ? 0 : 1 + values.nextInt(5);
    List<String> keys = new ArrayList<>(List.of(KEYS));
    Collections.shuffle(keys, values);
    for (int i = 0; i < n; i++) {
      String key = keys.get(i);
      if (perturb()) {
        switch (values.nextInt(4)) {
          case 0 -> { // a key twice
            value(out, key, v, variant, depth + 1);
            value(out, key, v, variant, depth + 1);
          }
          case 1 -> { // a key of invalid UTF-8
            out.head(BsonOut.INT32, BAD_UTF8[values.nextInt(BAD_UTF8.length)]);
            out.int32Payload(1);
          }
          case 2 -> out.nul(key); // a required value null, or just absent
          default -> badValue(out, key, v, variant, depth + 1);
        }
        continue;
      }
      if (!v.required && values.nextInt(8) == 0) {
        out.nul(key);
      } else {
        value(out, key, v, variant + i, depth + 1);
      }
    }
    out.end(d);
  }

  /** One value {@code f} may not take (mostly), at any depth of the shapes. */
  private void badValue(BsonOut out, String name, Field f, int variant, int depth) {
    if (f.kind == Kind.UNION) {
      odd(out, name);
    } else if (f.map) {
      if (values.nextBoolean()) {
        int a = out.begin(BsonOut.ARRAY, name); // a map given an array
        out.int32("0", 1);
        out.end(a);
      } else {
        int d = out.begin(BsonOut.DOCUMENT, name);
        badValue(out, "k", f.ref.value(), variant, depth + 1);
        out.end(d);
      }
    } else if (f.vector) {
      vectorBad(out, name, f, variant, depth);
    } else if (f.kind == Kind.TABLE && f.ref.wrapper) {
      badValue(out, name, f.ref.value(), variant, depth + 1);
    } else {
      bad(out, name, f, variant);
    }
  }

  private void vector(BsonOut out, String name, Field f, int variant, int depth) {
    if (f.kind == Kind.UBYTE) {
      switch (variant % 6) {
        case 1 -> {
          out.binary(name, 0, randomBytes());
          return;
        }
        case 2 -> {
          out.binary(name, 2, randomBytes());
          return;
        }
        case 3 -> {
          out.objectId(name, oid(values.nextInt()));
          return;
        }
        case 4 -> {
          out.binary(name, 0x80 + values.nextInt(2) * 4, randomBytes());
          return;
        }
        default -> {}
      }
    }
    int a = out.begin(BsonOut.ARRAY, name);
    int n = values.nextInt(4) == 0 || depth > MAX_SHAPE_DEPTH ? 0 : 1 + values.nextInt(5);
    boolean wrappers = f.kind == Kind.TABLE && f.ref.wrapper;
    for (int i = 0; i < n; i++) {
      String e = Integer.toString(i);
      if (wrappers && !f.ref.value().required && values.nextInt(6) == 0) {
        out.nul(e); // a wrapper holding nothing
        continue;
      }
      if (wrappers && perturb()) {
        badValue(out, e, f.ref.value(), variant, depth + 1);
        continue;
      }
      if (perturb()) {
        switch (values.nextInt(3)) {
          case 0 -> out.nul(e);
          case 1 -> wrongType(out, e, f);
          default -> bad(out, e, f, variant);
        }
        continue;
      }
      single(out, e, f, variant / 7, depth);
    }
    out.end(a);
  }

  private byte[] randomBytes() {
    byte[] b = new byte[values.nextInt(4) == 0 ? 0 : values.nextInt(20)];
    values.nextBytes(b);
    return b;
  }

  private void struct(BsonOut out, String name, Type st) {
    Random sh = shape(st);
    List<Field> order = new ArrayList<>(st.fields);
    if (sh.nextInt(4) == 0) {
      Collections.shuffle(order, sh);
    }
    boolean unknown = sh.nextInt(10) == 0;
    int d = out.begin(BsonOut.DOCUMENT, name);
    if (unknown) {
      out.int32("zz-in-struct", 1);
    }
    for (Field f : order) {
      int variant = sh.nextInt(1 << 20);
      if (perturb()) {
        switch (values.nextInt(5)) {
          case 0 -> {} // missing
          case 1 -> out.nul(f.bsonName());
          case 2 -> {
            single(out, f.bsonName(), f, variant, 0);
            single(out, f.bsonName(), f, variant, 0);
          }
          case 3 -> out.string("zz-unknown", "in a struct");
          default -> bad(out, f.bsonName(), f, variant);
        }
        if (values.nextBoolean()) {
          continue;
        }
      }
      single(out, f.bsonName(), f, variant, 0);
    }
    out.end(d);
  }

  private void unknown(BsonOut out, Random sh) {
    String name = sh.nextBoolean() ? "zz" + sh.nextInt(3) : "ünknown-" + sh.nextInt(2);
    if (perturb()) {
      if (values.nextBoolean()) {
        out.string(name, BAD_UTF8[values.nextInt(BAD_UTF8.length)]);
      } else if (values.nextBoolean()) {
        out.bool(name, 2);
      } else {
        int d = out.begin(BsonOut.DOCUMENT, name);
        out.int32("ok", 1);
        int a = out.begin(BsonOut.ARRAY, "deep");
        out.string("0", BAD_UTF8[values.nextInt(BAD_UTF8.length)]);
        out.end(a);
        out.end(d);
      }
      return;
    }
    switch (sh.nextInt(8)) {
      case 0 -> out.int32(name, values.nextInt());
      case 1 -> out.string(name, STRINGS[values.nextInt(STRINGS.length)]);
      case 2 -> {
        int d = out.begin(BsonOut.DOCUMENT, name);
        out.int32("a", 1);
        out.string("s", "ünk");
        out.bool("b", 1);
        out.end(d);
      }
      case 3 -> {
        int a = out.begin(BsonOut.ARRAY, name);
        out.int32("0", 1);
        out.string("1", "x");
        out.nul("2");
        out.end(a);
      }
      case 4 -> out.bool(name, 0);
      case 5 -> out.nul(name);
      case 6 -> out.binary(name, 2, new byte[] {1, 2});
      default -> out.dbl(name, Double.doubleToRawLongBits(Double.NaN));
    }
  }

  // ---- values --------------------------------------------------------------------------------

  private void integer(BsonOut out, String name, Kind k, int variant) {
    int how = variant % 5;
    if (how == 3 && k == Kind.LONG) {
      out.date(name, pick(k.min(), k.max()).longValue());
      return;
    }
    if (how == 3 && k == Kind.ULONG) {
      out.timestamp(name, pick(k.min(), k.max()).longValue());
      return;
    }
    if (how == 1) {
      BigInteger v = pick(k.min().max(BigInteger.valueOf(Long.MIN_VALUE)), k.max().min(LONG_MAX));
      out.int64(name, v.longValue());
    } else if (how == 2) {
      if (values.nextInt(8) == 0) {
        out.dbl(name, Double.doubleToRawLongBits(-0.0));
        return;
      }
      BigInteger v = pick(k.min(), k.max());
      double d = v.doubleValue();
      while (new BigDecimal(d).compareTo(new BigDecimal(k.max())) > 0) {
        d = Math.nextDown(d);
      }
      while (new BigDecimal(d).compareTo(new BigDecimal(k.min())) < 0) {
        d = Math.nextUp(d);
      }
      out.dbl(name, Double.doubleToRawLongBits(d));
    } else {
      BigInteger v = pick(k.min().max(INT_MIN), k.max().min(INT_MAX));
      out.int32(name, v.intValue());
    }
  }

  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
  private static final BigInteger INT_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
  private static final BigInteger INT_MAX = BigInteger.valueOf(Integer.MAX_VALUE);

  /** An integer in {@code [lo, hi]}, often at an edge, often small (equal values repeat). */
  private BigInteger pick(BigInteger lo, BigInteger hi) {
    BigInteger v =
        switch (values.nextInt(6)) {
          case 0 -> lo;
          case 1 -> hi;
          case 2, 3 -> BigInteger.valueOf(values.nextInt(6));
          default -> new BigInteger(64, values);
        };
    if (v.compareTo(lo) < 0 || v.compareTo(hi) > 0) {
      BigInteger span = hi.subtract(lo).add(BigInteger.ONE);
      v = lo.add(v.abs().mod(span));
    }
    return v;
  }

  private void enumValue(BsonOut out, String name, EnumType e, int variant) {
    int i = values.nextInt(e.names.size());
    BigInteger v = e.base.value(e.values.get(i));
    int how = variant % 3;
    if (how == 1 && v.bitLength() < 32) {
      out.int32(name, v.intValue());
    } else if (how == 2 && v.bitLength() < 64) {
      out.int64(name, v.longValue());
    } else {
      out.string(name, e.names.get(i));
    }
  }

  private static final long FLOAT_NAN_PAYLOAD =
      Double.doubleToRawLongBits(Float.intBitsToFloat(0x7fc00001));

  private void real(BsonOut out, String name, boolean isFloat, int variant) {
    int how = variant % 4;
    if (how == 1) {
      int[] ints = isFloat ? new int[] {0, 7, -16777216, 16777216, 1 << 30} : null;
      out.int32(name, isFloat ? ints[values.nextInt(ints.length)] : values.nextInt());
      return;
    }
    if (how == 2) {
      long[] longs =
          isFloat
              ? new long[] {0, 1L << 40, -(1L << 62), Long.MIN_VALUE, 3}
              : new long[] {(1L << 53) + 2, 1L << 60, Long.MIN_VALUE, 1L << 53, -(1L << 53), 5};
      out.int64(name, longs[values.nextInt(longs.length)]);
      return;
    }
    double d;
    switch (values.nextInt(12)) {
      case 0 -> d = Double.NaN;
      case 1 -> d = Double.POSITIVE_INFINITY;
      case 2 -> d = Double.NEGATIVE_INFINITY;
      case 3 -> d = -0.0;
      case 4 -> d = isFloat ? Float.MAX_VALUE : Double.MAX_VALUE;
      case 5 -> d = isFloat ? Float.MIN_VALUE : Double.MIN_VALUE;
      case 6 -> {
        long bits =
            isFloat
                ? FLOAT_NAN_PAYLOAD
                : values.nextBoolean() ? 0x7ff0000000000001L : 0xfff8000000000123L;
        out.dbl(name, bits);
        return;
      }
      case 7 -> {
        if (isFloat) {
          d = Float.intBitsToFloat(values.nextInt() & 0x7f7fffff);
        } else {
          out.dbl(name, values.nextLong());
          return;
        }
      }
      default -> d = (values.nextInt(40) - 20) / 8.0;
    }
    out.dbl(name, Double.doubleToRawLongBits(d));
  }

  private void string(BsonOut out, String name, int variant) {
    switch (variant % 12) {
      case 9 -> out.objectId(name, oid(values.nextInt(5)));
      case 10 -> {
        String[] texts = {
          "1.50", "-0", "1E+3", "NaN", "-Infinity", "0.001", "12345678901234567890"
        };
        out.decimal128(name, Decimal128.parse(texts[values.nextInt(texts.length)]));
      }
      case 11 -> {
        byte[] uuid = new byte[16];
        uuid[0] = (byte) values.nextInt(3);
        uuid[15] = (byte) 0xff;
        out.binary(name, 4, uuid);
      }
      default -> {
        if (values.nextInt(5) == 0) {
          StringBuilder b = new StringBuilder();
          for (int i = values.nextInt(12); i > 0; i--) {
            b.append((char) (' ' + values.nextInt(95)));
          }
          out.string(name, b.toString());
        } else {
          out.string(name, STRINGS[values.nextInt(STRINGS.length)]);
        }
      }
    }
  }

  // ---- perturbations -------------------------------------------------------------------------

  private void perturbField(BsonOut out, Field f, int variant, int depth, Random sh) {
    switch (values.nextInt(4)) {
      case 0 -> { // the field twice, the first perhaps null
        if (values.nextInt(3) == 0) {
          out.nul(f.bsonName());
        } else {
          value(out, f.bsonName(), f, variant, depth);
        }
        value(out, f.bsonName(), f, variant, depth);
      }
      case 1 -> wrongType(out, f.bsonName(), f);
      case 2 -> {
        if (f.required && values.nextBoolean()) {
          return; // a required field missing
        }
        badValue(out, f.bsonName(), f, variant, depth);
      }
      default -> badValue(out, f.bsonName(), f, variant, depth);
    }
  }

  private void vectorBad(BsonOut out, String name, Field f, int variant, int depth) {
    if (f.kind == Kind.ENUM || f.kind == Kind.UBYTE) {
      if (values.nextBoolean()) {
        out.binary(name, values.nextBoolean() ? 0 : 2, new byte[] {0, 1});
      } else {
        out.objectId(name, oid(3));
      }
      return;
    }
    int a = out.begin(BsonOut.ARRAY, name);
    single(out, "0", f, variant / 7, depth);
    if (f.kind == Kind.TABLE && f.ref.wrapper) {
      badValue(out, "1", f.ref.value(), variant, depth + 1);
    } else if (values.nextBoolean()) {
      out.nul("1");
    } else {
      bad(out, "1", f, variant);
    }
    out.end(a);
  }

  private void wrongType(BsonOut out, String name, Field f) {
    if (f.kind == Kind.UNION) {
      odd(out, name);
    } else if (f.map) {
      int a = out.begin(BsonOut.ARRAY, name); // a map given an array
      out.end(a);
    } else if (f.kind == Kind.TABLE && f.ref.wrapper && !f.vector) {
      wrongType(out, name, f.ref.value());
    } else if (f.vector || f.kind == Kind.STRUCT || f.kind == Kind.TABLE) {
      out.int32(name, 1);
    } else if (f.kind == Kind.STRING || f.kind == Kind.BOOL) {
      out.int32(name, 1);
    } else if (values.nextBoolean()) {
      int d = out.begin(BsonOut.DOCUMENT, name);
      out.end(d);
    } else {
      out.bool(name, 1);
    }
  }

  /** One value of {@code f}'s element kind that the rules reject (mostly). */
  private void bad(BsonOut out, String name, Field f, int variant) {
    Kind k = f.kind;
    switch (k) {
      case BOOL -> {
        if (values.nextBoolean()) {
          out.bool(name, 2);
        } else {
          out.int32(name, 1);
        }
      }
      case FLOAT -> {
        switch (values.nextInt(3)) {
          case 0 -> out.dbl(name, Double.doubleToRawLongBits(0.1));
          case 1 -> out.dbl(name, 0x7ff0000000000001L);
          default -> out.int32(name, 16777217);
        }
      }
      case DOUBLE -> out.int64(name, (1L << 53) + 1);
      case STRING -> {
        if (values.nextInt(4) == 0) {
          out.binary(name, 0, new byte[] {1});
        } else {
          out.string(name, BAD_UTF8[values.nextInt(BAD_UTF8.length)]);
        }
      }
      case ENUM -> {
        EnumType e = f.en;
        switch (values.nextInt(3)) {
          case 0 -> out.string(name, "Nope");
          case 1 -> {
            long v = 0;
            while (e.declares(v)) {
              v++;
            }
            if (BigInteger.valueOf(v).compareTo(e.base.max()) > 0) {
              out.string(name, "nope");
            } else {
              out.int32(name, (int) v);
            }
          }
          default ->
              out.dbl(
                  name, Double.doubleToRawLongBits(e.base.value(e.values.get(0)).doubleValue()));
        }
      }
      case STRUCT -> {
        int d = out.begin(BsonOut.DOCUMENT, name);
        out.end(d); // every field missing
      }
      case TABLE -> out.string(name, "not a table");
      default -> {
        switch (values.nextInt(4)) {
          case 0 -> {
            BigInteger over = k.max().add(BigInteger.ONE);
            if (over.bitLength() < 64) {
              out.int64(name, over.longValue());
            } else {
              out.dbl(name, Double.doubleToRawLongBits(over.doubleValue()));
            }
          }
          case 1 -> {
            BigInteger under = k.min().subtract(BigInteger.ONE);
            if (under.bitLength() < 64) {
              out.int64(name, under.longValue());
            } else {
              out.dbl(name, Double.doubleToRawLongBits(under.doubleValue()));
            }
          }
          case 2 -> out.dbl(name, Double.doubleToRawLongBits(2.5));
          default ->
              out.dbl(
                  name,
                  Double.doubleToRawLongBits(
                      values.nextBoolean() ? Double.NaN : Double.NEGATIVE_INFINITY));
        }
      }
    }
  }
}
