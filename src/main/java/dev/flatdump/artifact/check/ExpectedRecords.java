package dev.flatdump.artifact.check;

import dev.flatdump.artifact.check.SchemaExportVerifier.Real;
import dev.flatdump.encode.plan.EnumPlan;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.bson.BsonBinaryReader;
import org.bson.BsonDocument;
import org.bson.BsonInvalidOperationException;
import org.bson.BsonSerializationException;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;

/**
 * The mapping oracle of {@code verify}: a source document, as the driver decodes it, mapped by the
 * rules of {@code docs/mapping.md} into the values its record must hold, or the reason it cannot be
 * one ({@link NotFit}). Written from that page on its own: it shares none of the engine's mapping
 * code, only small primitives (strict UTF-8, integer ranges).
 *
 * <p>A record's values have the form {@link ReflectedRecords} reads them in: a map from field name
 * to value, a {@code Long} for an integer or enum, a {@code Boolean}, a {@link Real} for a float or
 * double, a {@code String}, a {@code Map} for a table or struct, a {@code List} for a vector (a
 * keyed one in its key's order); a field left out holds what a reader gets for it. A {@code
 * (wrapper)} table is a {@code Map} of its one field, holding the value; a {@code (map)} a {@code
 * List} of entry tables sorted by key; a union the {@code Map} of its member (chosen by {@link
 * UnionMembers}), and its type field ({@code x_type}) the member's number, 0 when absent. Not
 * thread-safe.
 */
final class ExpectedRecords {

  /** Why a document cannot be a record; the message starts with the field's path. */
  static final class NotFit extends RuntimeException {
    NotFit(String path, String reason) {
      super(path.isEmpty() ? reason : path + ": " + reason, null, false, false);
    }
  }

  /** How deep tables may nest, counting the shard's root: what {@code check} allows. */
  private static final int MAX_DEPTH = SchemaVerifier.Limits.forSize(0).maxDepth();

  private final SchemaPlan plan;
  private final boolean strict;
  private final UnionMembers unions;
  private final Map<TablePlan, Map<String, FieldPlan>> byBsonName = new IdentityHashMap<>();

  /** How many tables the document being mapped nests around the current one. */
  private int depth;

  /**
   * @param plan the export's schema
   * @param strict whether a field the schema does not have refuses the document ({@code --strict})
   */
  ExpectedRecords(SchemaPlan plan, boolean strict) {
    this.plan = Objects.requireNonNull(plan, "plan");
    this.strict = strict;
    this.unions = new UnionMembers(plan);
  }

  /** The document's {@code _id}; null when it has none or the driver cannot read it. */
  static BsonValue idOrNull(BsonDocument doc) {
    try {
      return doc.get("_id");
    } catch (BsonSerializationException | BsonInvalidOperationException e) {
      return null;
    }
  }

  /**
   * The values the document's record must hold.
   *
   * @throws NotFit when the rules refuse the document: a missing or unreadable {@code _id} first
   */
  Map<String, Object> record(BsonDocument doc) {
    BsonValue id;
    try {
      id = doc.get("_id");
    } catch (BsonSerializationException | BsonInvalidOperationException e) {
      throw new NotFit("_id", "malformed BSON: " + e.getMessage());
    }
    if (id == null) {
      throw new NotFit("_id", "missing");
    }
    return table(plan.record(), decodedOnce(doc), "");
  }

  /**
   * The document as the driver decodes it, once its bytes pass what the driver lets through: the
   * driver's document keeps one value per name and turns bytes that are not UTF-8 into U+FFFD. So a
   * document read as {@link RawBsonDocument} (as {@code verify} reads them) is first read name by
   * name with the driver's own reader ({@link RawWalk}), then decoded once.
   */
  private BsonDocument decodedOnce(BsonDocument doc) {
    if (!(doc instanceof RawBsonDocument raw)) {
      return doc;
    }
    ByteBuffer bytes = raw.getByteBuffer().asNIO().duplicate().order(ByteOrder.LITTLE_ENDIAN);
    try (BsonBinaryReader reader = new BsonBinaryReader(bytes.duplicate())) {
      new RawWalk(plan, this::fields, bytes, reader).document(plan.record(), "");
      return raw.decode(new BsonDocumentCodec());
    } catch (BsonSerializationException | BsonInvalidOperationException e) {
      throw new NotFit("", "malformed BSON: " + e.getMessage());
    }
  }

  /**
   * A table's fields by BSON name: a struct's all, a table's but the deprecated ones and unions'
   * type fields, which are written with their union and read from nothing.
   */
  private Map<String, FieldPlan> fields(TablePlan t) {
    return byBsonName.computeIfAbsent(
        t,
        table -> {
          Map<String, FieldPlan> fields = new HashMap<>();
          for (FieldPlan f : table.fields()) {
            if (table.struct() || !f.deprecated() && !f.unionType()) {
              fields.putIfAbsent(f.bsonName(), f); // the first of several reading one name
            }
          }
          return fields;
        });
  }

  private Map<String, Object> table(TablePlan t, BsonDocument doc, String path) {
    enter(path);
    try {
      return tableAtDepth(t, doc, path);
    } finally {
      depth--;
    }
  }

  /** One table deeper; refuses a table nested deeper than readers allow. */
  private void enter(String path) {
    // the record nests at depth 0, below the shard's root table
    if (depth + 2 > MAX_DEPTH) {
      throw new NotFit(path, "tables nested deeper than FlatBuffers readers allow");
    }
    depth++;
  }

  private Map<String, Object> tableAtDepth(TablePlan t, BsonDocument doc, String path) {
    Map<String, FieldPlan> byBson = fields(t);
    boolean record = depth == 1; // the document itself, not a sub-document of the record's type
    for (String key : doc.keySet()) {
      if (!byBson.containsKey(key) && strict && !(record && key.equals("_id"))) {
        throw new NotFit(join(path, key), "not in the schema (--strict)");
      }
    }
    Map<String, Object> values = new LinkedHashMap<>();
    for (FieldPlan f : t.fields()) {
      if (!f.deprecated() && !f.unionType()) {
        BsonValue v = doc.get(f.bsonName());
        List<FieldPlan> same = t.lookup().readersOf(f);
        if (v != null && same.size() > 1 && takerOf(same, v, f.bsonName()) != f) {
          v = null; // another field reading the name takes it
        }
        put(t, values, f, v, join(path, f.bsonName()));
      }
    }
    return values;
  }

  /**
   * Of the fields {@code same} that read BSON name {@code name} (by id), the one that takes {@code
   * v} (docs/mapping.md, "Names"): the first for a null; else the first that takes it, a scalar or
   * a string field by the value itself, another by its type.
   */
  private FieldPlan takerOf(List<FieldPlan> same, BsonValue v, String name) {
    if (v.isNull()) {
      return same.get(0);
    }
    for (FieldPlan f : same) {
      if (f.kind().isScalar() || f.kind() == FieldKind.STRING) {
        try {
          value(f, f.kind(), v, name);
          return f;
        } catch (NotFit no) {
          continue; // the next field may take it
        }
      }
      if (unions.takes(f, v.getBsonType())) {
        return f;
      }
    }
    return same.get(0);
  }

  /**
   * Field {@code f} of table {@code t}, given {@code v} (null when missing), into {@code values};
   * for a union, its type field too.
   */
  private void put(TablePlan t, Map<String, Object> values, FieldPlan f, BsonValue v, String p) {
    Object value;
    long member = 0;
    if (v == null || v.isNull()) {
      value = null;
    } else if (f.kind() == FieldKind.UNION) {
      EnumPlan u = plan.enums().get(f.enumIndex());
      member = unions.member(u, v.getBsonType());
      if (member == 0) {
        throw new NotFit(
            p, "no member of union " + u.name() + " takes a " + v.getBsonType().name());
      }
      value = wrapper(plan.tables().get(u.members().get((int) member)), v, p);
    } else {
      value = value(f, f.kind(), v, p);
    }
    if (value == null && f.required()) {
      throw new NotFit(p, "required, and missing or null");
    }
    if (f.kind() == FieldKind.UNION) {
      values.put(t.fields().get(f.id() - 1).name(), member);
    }
    values.put(f.name(), value == null ? ExpectedScalars.absent(f) : value);
  }

  /**
   * The {@code (wrapper)} table {@code w} holding {@code v} (a null: its value absent) in its one
   * field, at the path of what holds it.
   */
  private Map<String, Object> wrapper(TablePlan w, BsonValue v, String path) {
    enter(path);
    try {
      Map<String, Object> values = new LinkedHashMap<>();
      put(w, values, w.wrapped(), v, path);
      return values;
    } finally {
      depth--;
    }
  }

  /** A {@code (map)}: one entry table per field of the document, sorted by key. */
  private List<Object> map(FieldPlan f, BsonValue v, String path) {
    if (!v.isDocument()) {
      throw new NotFit(path, "expected a document (map)");
    }
    TablePlan entry = plan.tables().get(f.typeIndex());
    FieldPlan key = entry.key();
    List<Object> out = new ArrayList<>();
    for (Map.Entry<String, BsonValue> e : v.asDocument().entrySet()) {
      String p = join(path, e.getKey());
      enter(p);
      try {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put(key.name(), e.getKey());
        put(entry, values, entry.mapValue(), e.getValue(), p);
        out.add(values);
      } finally {
        depth--;
      }
    }
    out.sort(
        (x, y) ->
            ExpectedScalars.compareKeys(
                key, ((Map<?, ?>) x).get(key.name()), ((Map<?, ?>) y).get(key.name())));
    return out;
  }

  private Map<String, Object> struct(TablePlan st, BsonValue v, String path) {
    if (!v.isDocument()) {
      throw new NotFit(path, "expected a document for struct " + st.name());
    }
    BsonDocument doc = v.asDocument();
    if (strict) {
      Map<String, FieldPlan> byBson = fields(st);
      for (String key : doc.keySet()) {
        if (!byBson.containsKey(key)) {
          throw new NotFit(join(path, key), "not in the schema (--strict)");
        }
      }
    }
    Map<String, Object> values = new LinkedHashMap<>();
    for (FieldPlan f : st.fields()) {
      BsonValue x = doc.get(f.bsonName());
      String p = join(path, f.bsonName());
      if (x == null || x.isNull()) {
        throw new NotFit(p, "missing: a struct needs every field");
      }
      values.put(f.name(), value(f, f.kind(), x, p));
    }
    return values;
  }

  private Object value(FieldPlan f, FieldKind kind, BsonValue v, String path) {
    return switch (kind) {
      case BOOL -> ExpectedScalars.bool(v, path);
      case FLOAT, DOUBLE -> ExpectedScalars.real(kind, v, path);
      case STRING -> ExpectedScalars.string(v, path);
      case STRUCT -> struct(plan.tables().get(f.typeIndex()), v, path);
      case TABLE -> {
        TablePlan t = plan.tables().get(f.typeIndex());
        if (t.wrapper()) {
          yield wrapper(t, v, path);
        }
        if (!v.isDocument()) {
          throw new NotFit(path, "expected a document");
        }
        yield table(t, v.asDocument(), path);
      }
      case VECTOR -> f.map() ? map(f, v, path) : vector(f, v, path);
      default ->
          ExpectedScalars.integer(
              kind, f.enumIndex() < 0 ? null : plan.enums().get(f.enumIndex()), v, path);
    };
  }

  private List<Object> vector(FieldPlan f, BsonValue v, String path) {
    List<Object> out = new ArrayList<>();
    if (f.element() == FieldKind.UBYTE && f.enumIndex() < 0 && (v.isBinary() || v.isObjectId())) {
      byte[] bytes =
          v.isBinary() ? v.asBinary().getData() : v.asObjectId().getValue().toByteArray();
      for (byte b : bytes) {
        out.add((long) (b & 0xff));
      }
      return out;
    }
    if (!v.isArray()) {
      throw new NotFit(path, "expected an array");
    }
    var array = v.asArray();
    for (int i = 0; i < array.size(); i++) {
      BsonValue e = array.get(i);
      String p = path + "[" + i + "]";
      if (e.isNull() && !wrappers(f)) {
        throw new NotFit(p, "null in a vector");
      }
      out.add(value(f, f.element(), e, p));
    }
    FieldPlan key =
        f.element() == FieldKind.TABLE || f.element() == FieldKind.STRUCT
            ? plan.tables().get(f.typeIndex()).key()
            : null;
    if (key != null) { // written in the key's order, equal keys as given (a stable sort)
      out.sort(
          (x, y) ->
              ExpectedScalars.compareKeys(
                  key, ((Map<?, ?>) x).get(key.name()), ((Map<?, ?>) y).get(key.name())));
    }
    return out;
  }

  /** Whether vector {@code f}'s elements are {@code (wrapper)} tables, which hold a null too. */
  private boolean wrappers(FieldPlan f) {
    return f.element() == FieldKind.TABLE && plan.tables().get(f.typeIndex()).wrapper();
  }

  /** A field's path: {@code name} below {@code path}, or {@code name} at the top. */
  static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }
}
