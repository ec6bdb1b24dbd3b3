package dev.flatdump.artifact.check;

import dev.flatdump.artifact.check.SchemaExportVerifier.Real;
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
 * keyed one in its key's order); a field left out holds what a reader gets for it. Not thread-safe.
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

  /** A table's fields by BSON name: a struct's all, a table's but the deprecated ones. */
  private Map<String, FieldPlan> fields(TablePlan t) {
    return byBsonName.computeIfAbsent(
        t,
        table -> {
          Map<String, FieldPlan> fields = new HashMap<>();
          for (FieldPlan f : table.fields()) {
            if (table.struct() || !f.deprecated()) {
              fields.put(f.bsonName(), f);
            }
          }
          return fields;
        });
  }

  private Map<String, Object> table(TablePlan t, BsonDocument doc, String path) {
    // the record nests at depth 0, below the shard's root table
    if (depth + 2 > MAX_DEPTH) {
      throw new NotFit(path, "tables nested deeper than FlatBuffers readers allow");
    }
    depth++;
    try {
      return tableAtDepth(t, doc, path);
    } finally {
      depth--;
    }
  }

  private Map<String, Object> tableAtDepth(TablePlan t, BsonDocument doc, String path) {
    Map<String, FieldPlan> byBson = fields(t);
    boolean record = t == plan.record();
    for (String key : doc.keySet()) {
      if (!byBson.containsKey(key) && strict && !(record && key.equals("_id"))) {
        throw new NotFit(join(path, key), "not in the schema (--strict)");
      }
    }
    Map<String, Object> values = new LinkedHashMap<>();
    for (FieldPlan f : t.fields()) {
      if (f.deprecated()) {
        continue;
      }
      BsonValue v = doc.get(f.bsonName());
      String p = join(path, f.bsonName());
      Object value = v == null || v.isNull() ? null : value(f, f.kind(), v, p);
      if (value == null && f.required()) {
        throw new NotFit(p, "required, and missing or null");
      }
      values.put(f.name(), value == null ? ExpectedScalars.absent(f) : value);
    }
    return values;
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
        if (!v.isDocument()) {
          throw new NotFit(path, "expected a document");
        }
        yield table(plan.tables().get(f.typeIndex()), v.asDocument(), path);
      }
      case VECTOR -> vector(f, v, path);
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
      if (e.isNull()) {
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

  /** A field's path: {@code name} below {@code path}, or {@code name} at the top. */
  static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }
}
