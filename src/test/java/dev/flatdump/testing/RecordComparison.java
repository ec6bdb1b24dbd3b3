package dev.flatdump.testing;

import static dev.flatdump.testing.BsonValues.bytes;
import static dev.flatdump.testing.BsonValues.real;
import static dev.flatdump.testing.BsonValues.render;
import static dev.flatdump.testing.BsonValues.sameReal;
import static dev.flatdump.testing.BsonValues.text;
import static java.nio.charset.StandardCharsets.UTF_8;

import dev.flatdump.encode.plan.EnumPlan;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * Compares a MongoDB document with its record as {@link GeneratedRecords} read it, under
 * docs/mapping.md's rules: every field of the document is in the record and the record holds
 * nothing else. A BSON field the schema does not name is not in the record, as the export skips it
 * (counted, {@link #unknownFields()}), and so is the record's {@code _id} unless the record table
 * has a field for it. Null or missing is an absent field (a scalar's default, an optional scalar
 * without value, a union of type {@code NONE}); numbers by value (a date as ms since the epoch, a
 * timestamp as its 64 bits, an integral double as an integer, NaN as NaN, {@code -0.0} as itself);
 * enums by name or number; ObjectId as 24 hex digits or 12 bytes; decimal128 and UUIDs as their
 * text; binary as its bytes; a {@code (map)} as its entries, strictly in the keys' UTF-8 byte
 * order, against the sub-document; a union as the member its type names, holding the value; a
 * {@code (wrapper)} as its one field holding the value, so that a vector of them holds arrays of
 * arrays and nulls. Where several fields read one BSON name, the value is in one of them and the
 * others are empty. Not thread-safe.
 */
final class RecordComparison {

  /** The first difference found in a record, at its path. */
  static final class Mismatch extends RuntimeException {
    Mismatch(String message) {
      super(message, null, false, false);
    }
  }

  private final SchemaPlan plan;
  private long unknownFields;

  RecordComparison(SchemaPlan plan) {
    this.plan = plan;
  }

  /** BSON fields met so far that no field of the schema reads. */
  long unknownFields() {
    return unknownFields;
  }

  /**
   * @throws Mismatch naming the path of the first difference
   */
  void record(BsonDocument doc, Map<String, Object> record) {
    table(doc, record, plan.record(), "", true);
  }

  private void table(
      BsonDocument doc, Map<String, Object> rec, TablePlan t, String path, boolean record) {
    Set<FieldPlan> seen = new HashSet<>();
    for (Map.Entry<String, BsonValue> e : doc.entrySet()) {
      String key = e.getKey();
      List<FieldPlan> candidates =
          t.fields().stream()
              .filter(f -> !f.deprecated() && !f.unionType() && f.bsonName().equals(key))
              .toList();
      if (candidates.isEmpty()) {
        if (!(record && key.equals("_id"))) {
          unknownFields++;
        }
        continue;
      }
      // several fields reading one name: the value is in one of them, the others are empty;
      // when none holds it, the difference reported is that of the one the record fills
      List<Mismatch> misses = new ArrayList<>();
      FieldPlan holder = null;
      for (FieldPlan f : candidates) {
        try {
          field(e.getValue(), rec, t, f, path + key);
          holder = f;
          break;
        } catch (Mismatch m) {
          misses.add(m);
        }
      }
      if (holder == null) {
        for (int i = 0; i < candidates.size(); i++) {
          if (!empty(rec, t, candidates.get(i))) {
            throw misses.get(i);
          }
        }
        throw misses.get(0);
      }
      seen.add(holder);
    }
    for (FieldPlan f : t.fields()) {
      if (!f.deprecated() && !f.unionType() && !seen.contains(f) && !empty(rec, t, f)) {
        throw new Mismatch(
            path
                + f.name()
                + ": the record has "
                + render(rec.get(f.name()))
                + ", MongoDB nothing");
      }
    }
  }

  /** Field {@code f} of a table read into {@code rec} against the document's value, or null. */
  private void field(BsonValue e, Map<String, Object> rec, TablePlan t, FieldPlan f, String path) {
    Object a = rec.get(f.name());
    if (e == null || e.isNull()) {
      if (!empty(rec, t, f)) {
        throw new Mismatch(path + ": null in MongoDB, " + render(a) + " in the record");
      }
    } else if (f.kind() == FieldKind.UNION) {
      long type = (Long) rec.get(t.fields().get(f.id() - 1).name());
      EnumPlan union = plan.enums().get(f.enumIndex());
      int member = type < union.members().size() ? union.members().get((int) type) : -1;
      if (member < 0 || !(a instanceof Map<?, ?>)) {
        throw new Mismatch(
            path + ": " + render(e) + " in MongoDB, member " + type + " in the record");
      }
      wrapped(e, map(a), plan.tables().get(member), path);
    } else if (f.map()) {
      entries(e, a, f, path);
    } else {
      value(e, a, f.kind(), f, path);
    }
  }

  /** Whether field {@code f} is absent from the record: what generated code returns for that. */
  private boolean empty(Map<String, Object> rec, TablePlan t, FieldPlan f) {
    Object a = rec.get(f.name());
    if (f.kind() == FieldKind.UNION) {
      return a == null && (Long) rec.get(t.fields().get(f.id() - 1).name()) == 0;
    }
    if (a == null) {
      return true;
    }
    if (!f.kind().isScalar() || (f.optional() && !t.struct())) {
      return false;
    }
    return switch (f.kind()) {
      case BOOL -> (Boolean) a == (f.defaultInteger() != 0);
      case FLOAT -> sameReal((Double) a, (double) (float) f.defaultReal());
      case DOUBLE -> sameReal((Double) a, f.defaultReal());
      default -> (Long) a == f.defaultInteger();
    };
  }

  /** A (wrapper) table holding the value in its one field; a null in MongoDB, nothing. */
  private void wrapped(BsonValue e, Map<String, Object> w, TablePlan wrapper, String path) {
    if (w == null) {
      if (e != null && !e.isNull()) {
        throw new Mismatch(path + ": " + render(e) + " in MongoDB, nothing in the record");
      }
      return;
    }
    field(e, w, wrapper, wrapper.wrapped(), path);
  }

  /** A (map): one entry per field of the sub-document, sorted by the keys' UTF-8 bytes. */
  private void entries(BsonValue e, Object a, FieldPlan f, String path) {
    if (!e.isDocument()) {
      throw new Mismatch(path + ": a map needs a sub-document, MongoDB has " + render(e));
    }
    if (!(a instanceof List<?> list)) {
      throw new Mismatch(path + ": a sub-document in MongoDB, nothing in the record");
    }
    TablePlan entry = plan.tables().get(f.typeIndex());
    FieldPlan keyField = entry.key();
    List<String> keys = new ArrayList<>();
    for (Object o : list) {
      String key = (String) map(o).get(keyField.name());
      if (!keys.isEmpty()) {
        byte[] before = keys.get(keys.size() - 1).getBytes(UTF_8);
        if (Arrays.compareUnsigned(before, key.getBytes(UTF_8)) >= 0) {
          throw new Mismatch(path + ": the map's keys " + keys + ", " + key + " are not in order");
        }
      }
      keys.add(key);
    }
    BsonDocument doc = e.asDocument();
    if (!new HashSet<>(keys).equals(doc.keySet())) {
      throw new Mismatch(
          path
              + ": keys "
              + new TreeSet<>(doc.keySet())
              + " in MongoDB, "
              + keys
              + " in the record");
    }
    for (int i = 0; i < keys.size(); i++) {
      field(
          doc.get(keys.get(i)),
          map(list.get(i)),
          entry,
          entry.mapValue(),
          path + "." + keys.get(i));
    }
  }

  /** A value that is not null (but a vector's element may be) against what the record holds. */
  private void value(BsonValue e, Object a, FieldKind kind, FieldPlan f, String path) {
    TablePlan type = f.typeIndex() < 0 ? null : plan.tables().get(f.typeIndex());
    if (kind == FieldKind.TABLE && type.wrapper()) {
      wrapped(e, map(a), type, path);
      return;
    }
    if (e.isNull()) {
      throw new Mismatch(path + ": null in MongoDB, " + render(a) + " in the record");
    }
    boolean same =
        switch (kind) {
          case BOOL -> e.isBoolean() && a instanceof Boolean b && b == e.asBoolean().getValue();
          case FLOAT, DOUBLE -> real(e) != null && a instanceof Double d && sameReal(real(e), d);
          case STRING -> text(e) != null && text(e).equals(a);
          case STRUCT, TABLE -> {
            if (!e.isDocument() || a == null) {
              yield false;
            }
            table(e.asDocument(), map(a), type, path + ".", false);
            yield true;
          }
          case VECTOR -> {
            vector(e, a, f, path);
            yield true;
          }
          default -> {
            BigInteger x = integer(e, f.enumIndex());
            yield x != null && a instanceof Long l && x.equals(BsonValues.integer(l, kind));
          }
        };
    if (!same) {
      Object shown =
          kind == FieldKind.ULONG && a instanceof Long l ? BsonValues.integer(l, kind) : a;
      throw new Mismatch(
          path + ": " + render(e) + " in MongoDB, " + render(shown) + " in the record");
    }
  }

  private void vector(BsonValue e, Object a, FieldPlan f, String path) {
    if (a == null) {
      throw new Mismatch(path + ": " + render(e) + " in MongoDB, nothing in the record");
    }
    if (a instanceof byte[] bytes) {
      byte[] x = bytes(e);
      if (x != null) {
        if (!Arrays.equals(x, bytes)) {
          throw new Mismatch(
              path + ": " + render(e) + " in MongoDB, " + render(a) + " in the record");
        }
        return;
      }
      List<Object> values = new ArrayList<>();
      for (byte b : bytes) {
        values.add(f.element() == FieldKind.UBYTE ? (long) (b & 0xFF) : (long) b);
      }
      a = values;
    }
    if (!e.isArray()) {
      throw new Mismatch(path + ": " + render(e) + " in MongoDB, a vector in the record");
    }
    List<?> list = (List<?>) a;
    List<BsonValue> array = e.asArray().getValues();
    if (array.size() != list.size()) {
      throw new Mismatch(
          path + ": " + array.size() + " elements in MongoDB, " + list.size() + " in the record");
    }
    for (int i = 0; i < array.size(); i++) {
      value(array.get(i), list.get(i), f.element(), f, path + "[" + i + "]");
    }
  }

  /** An integer or enum value of the document, or null for one that is none. */
  private BigInteger integer(BsonValue e, int enumIndex) {
    if (e.isString() && enumIndex >= 0) {
      Long v = plan.enums().get(enumIndex).byName().get(e.asString().getValue());
      return v == null ? null : BigInteger.valueOf(v);
    }
    return switch (e.getBsonType()) {
      case INT32 -> BigInteger.valueOf(e.asInt32().getValue());
      case INT64 -> BigInteger.valueOf(e.asInt64().getValue());
      case DATE_TIME -> BigInteger.valueOf(e.asDateTime().getValue()); // ms since the epoch
      case TIMESTAMP -> BsonValues.integer(e.asTimestamp().getValue(), FieldKind.ULONG); // 64 bits
      case DOUBLE -> {
        double d = e.asDouble().getValue();
        yield Double.isFinite(d) && d == Math.rint(d) ? new BigDecimal(d).toBigInteger() : null;
      }
      default -> null;
    };
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }
}
