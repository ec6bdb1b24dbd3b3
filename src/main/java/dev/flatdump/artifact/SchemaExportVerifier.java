package dev.flatdump.artifact;

import dev.flatdump.encode.Reject;
import dev.flatdump.encode.engine.Utf8;
import dev.flatdump.encode.plan.EnumPlan;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.io.BufferedReader;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.bson.BsonBinary;
import org.bson.BsonBinaryReader;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
import org.bson.BsonInvalidOperationException;
import org.bson.BsonSerializationException;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;

/**
 * Compares an export with its source, record by record and field by field, independently of the
 * export's own decoder: the source documents are decoded by the driver ({@link BsonDocument}),
 * mapped here by the rules of {@code docs/mapping.md} into the values a record must hold (or the
 * reason it cannot be one), and compared with the records read back from the shards through the
 * binary schema. A document the rules refuse must be the next line of {@code rejects.jsonl}; every
 * other must be the next record; nothing may be left over on either side.
 *
 * <p>Values compare as a reader sees them: a scalar left out reads as its default, so it equals the
 * default given; floating-point values compare by their bits ({@code -0.0} and NaN payloads
 * included); enums by their number. Not thread-safe.
 */
public final class SchemaExportVerifier {

  /**
   * @param compared documents compared
   * @param differences the first differences found, each naming the document and the field
   * @param totalDifferences how many differences there were in all
   */
  public record Result(long compared, List<String> differences, long totalDifferences) {
    public Result {
      differences = List.copyOf(differences);
    }

    public boolean clean() {
      return totalDifferences == 0;
    }
  }

  /** A floating-point value by its bits, as a field holds it. */
  record Real(long bits) {
    @Override
    public String toString() {
      return Double.longBitsToDouble(bits) + " (0x" + Long.toHexString(bits) + ")";
    }
  }

  /** Why a document cannot be a record. */
  static final class NotFit extends RuntimeException {
    NotFit(String path, String reason) {
      super(path.isEmpty() ? reason : path + ": " + reason, null, false, false);
    }
  }

  private final SchemaPlan plan;
  private final ReflectedRecords reflected;
  private final Map<TablePlan, Map<String, FieldPlan>> byBsonName = new IdentityHashMap<>();
  private final boolean strict;
  private final int maxDifferences;
  private final List<String> differences = new ArrayList<>();
  private long total;

  /** How deep tables may nest, counting the shard's root: what {@code check} allows. */
  private static final int MAX_DEPTH = SchemaVerifier.Limits.forSize(0).maxDepth();

  /** How many tables the document being mapped nests around the current one. */
  private int depth;

  /**
   * @param plan the export's schema, by which the source documents are mapped
   * @param binarySchema the export's {@code .bfbs}, through which alone the records are read back
   */
  public SchemaExportVerifier(
      SchemaPlan plan, ByteBuffer binarySchema, boolean strict, int maxDifferences) {
    this.plan = Objects.requireNonNull(plan, "plan");
    this.reflected = new ReflectedRecords(binarySchema);
    this.strict = strict;
    this.maxDifferences = maxDifferences;
  }

  /**
   * @param source the source's documents in {@code _id} order (same query as the export), decoded
   *     by the driver
   * @param artifact the export's shards, in order
   * @param rejects the export's {@code rejects.jsonl}
   */
  public Result verify(
      Iterator<? extends BsonDocument> source, List<? extends ByteBuffer> artifact, Path rejects) {
    differences.clear();
    total = 0;
    long compared = 0;
    Iterator<Map<String, Object>> records = records(artifact);
    long index = 0;
    try (BufferedReader rejected = Files.newBufferedReader(rejects, StandardCharsets.UTF_8)) {
      while (source.hasNext()) {
        BsonDocument doc = source.next();
        compared++;
        BsonValue id;
        String idProblem = null;
        try {
          id = doc.get("_id");
        } catch (BsonSerializationException | BsonInvalidOperationException e) {
          id = null; // a value the driver cannot read: rejected, with a null _id
          idProblem = "malformed BSON: " + e.getMessage();
        }
        Map<String, Object> expected;
        try {
          if (id == null) {
            throw new NotFit("_id", idProblem == null ? "missing" : idProblem);
          }
          expected = table(plan.record(), decodedOnce(doc), "");
        } catch (NotFit e) {
          String line = rejected.readLine();
          BsonValue rejectedId = line == null ? null : idOf(line);
          if (line == null || !sameId(rejectedId, id)) {
            difference(
                "_id "
                    + Reject.idToJson(id)
                    + ": does not fit the schema ("
                    + e.getMessage()
                    + ") but is not the next line of rejects.jsonl"
                    + (line == null
                        ? ""
                        : " (found _id "
                            + (rejectedId == null ? "null" : Reject.idToJson(rejectedId))
                            + ")"));
          }
          continue;
        }
        if (!records.hasNext()) {
          difference(
              "_id "
                  + Reject.idToJson(id)
                  + ": in MongoDB but missing from the artifact (it has only "
                  + index
                  + " records)");
          continue;
        }
        compare(
            "_id " + Reject.idToJson(id) + " (record " + index++ + ")",
            "",
            expected,
            records.next());
      }
      long extra = 0;
      while (records.hasNext()) {
        records.next();
        extra++;
      }
      if (extra > 0) {
        difference("the artifact has " + extra + " records more than MongoDB returns");
      }
      if (rejected.readLine() != null) {
        difference("rejects.jsonl has lines for documents that fit the schema");
      }
    } catch (IOException e) {
      throw new ArtifactException("cannot read " + rejects + ": " + e.getMessage(), e);
    }
    return new Result(compared, differences, total);
  }

  /**
   * Whether a reject's {@code _id}, read back from its line, is the document's: compared as {@code
   * rejects.jsonl} writes them (relaxed Extended JSON), which keeps a number's value but not its
   * BSON type (an int64 7 reads back as an int32); a null {@code _id} is none.
   */
  private static boolean sameId(BsonValue rejected, BsonValue id) {
    BsonValue a = rejected == null || rejected.isNull() ? null : rejected;
    BsonValue b = id == null || id.isNull() ? null : id;
    if (a == null || b == null) {
      return a == b;
    }
    return Reject.idToJson(a).equals(Reject.idToJson(b));
  }

  private void compare(String where, String path, Object expected, Object actual) {
    if (expected instanceof Map<?, ?> e && actual instanceof Map<?, ?> a) {
      Set<Object> keys = new HashSet<>(e.keySet());
      keys.addAll(a.keySet());
      for (Object k : keys) {
        compare(where, path.isEmpty() ? k.toString() : path + "." + k, e.get(k), a.get(k));
      }
    } else if (expected instanceof List<?> e && actual instanceof List<?> a) {
      if (e.size() != a.size()) {
        difference(where + ": " + path + " has " + a.size() + " elements, MongoDB " + e.size());
        return;
      }
      for (int i = 0; i < e.size(); i++) {
        compare(where, path + "[" + i + "]", e.get(i), a.get(i));
      }
    } else if (!Objects.equals(expected, actual)) {
      difference(
          where + ": " + path + " is " + actual + " in the artifact, " + expected + " in MongoDB");
    }
  }

  private void difference(String text) {
    total++;
    if (differences.size() < maxDifferences) {
      differences.add(text);
    }
  }

  // ---- the source side: a driver-decoded document mapped by the rules --------------------------

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
    Map<String, FieldPlan> byBson = byBsonName.computeIfAbsent(t, SchemaExportVerifier::fields);
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
      values.put(f.name(), value == null ? absent(f) : value);
    }
    return values;
  }

  /**
   * The document as the driver decodes it, once its bytes pass what the driver lets through: the
   * driver's document keeps one value per name and turns bytes that are not UTF-8 into U+FFFD. So a
   * document read as {@link RawBsonDocument} (as {@code verify} reads them) is first read name by
   * name with the driver's own reader, every field at every depth: a field of the schema given
   * twice in one table or struct, or a string value that is not UTF-8 (skipped ones too; a field
   * name is not a value, and an unknown one is only counted), refuses it. Then it is decoded once.
   */
  private BsonDocument decodedOnce(BsonDocument doc) {
    if (!(doc instanceof RawBsonDocument raw)) {
      return doc;
    }
    ByteBuffer bytes = raw.getByteBuffer().asNIO().duplicate().order(ByteOrder.LITTLE_ENDIAN);
    try (BsonBinaryReader reader = new BsonBinaryReader(bytes.duplicate())) {
      new RawWalk(bytes, reader).document(plan.record(), "");
      return raw.decode(new BsonDocumentCodec());
    } catch (BsonSerializationException | BsonInvalidOperationException e) {
      throw new NotFit("", "malformed BSON: " + e.getMessage());
    }
  }

  /** One read of a raw document's bytes, for {@link #decodedOnce}. */
  private final class RawWalk {
    private final ByteBuffer bytes;
    private final BsonBinaryReader reader;

    RawWalk(ByteBuffer bytes, BsonBinaryReader reader) {
      this.bytes = bytes;
      this.reader = reader;
    }

    /** The document at the reader's place; {@code t} is its table, or null where none is. */
    void document(TablePlan t, String path) {
      Map<String, FieldPlan> fields =
          t == null ? Map.of() : byBsonName.computeIfAbsent(t, SchemaExportVerifier::fields);
      Set<String> seen = new HashSet<>();
      reader.readStartDocument();
      while (true) {
        if (reader.readBsonType() == BsonType.END_OF_DOCUMENT) {
          break;
        }
        String name = reader.readName();
        String p = join(path, name);
        FieldPlan f = fields.get(name);
        if (f != null && !seen.add(name)) {
          throw new NotFit(p, "the field appears twice in the document");
        }
        value(f, false, p);
      }
      reader.readEndDocument();
    }

    /**
     * The value at the reader's place: of field {@code f}, or of one of its elements when {@code
     * element}; {@code f} is null for an unknown field.
     */
    private void value(FieldPlan f, boolean element, String path) {
      boolean vector = f != null && f.kind() == FieldKind.VECTOR;
      FieldKind kind = f == null ? null : vector ? f.element() : f.kind();
      TablePlan sub =
          (kind == FieldKind.TABLE || kind == FieldKind.STRUCT) && vector == element
              ? plan.tables().get(f.typeIndex())
              : null;
      switch (reader.getCurrentBsonType()) {
        case DOCUMENT -> document(sub, path);
        case ARRAY -> {
          reader.readStartArray();
          for (int i = 0; reader.readBsonType() != BsonType.END_OF_DOCUMENT; i++) {
            value(vector && !element ? f : null, true, path + "[" + i + "]");
          }
          reader.readEndArray();
        }
        case STRING, JAVASCRIPT, SYMBOL, DB_POINTER -> { // a dbPointer's namespace leads
          int at = reader.getBsonInput().getPosition();
          requireUtf8(at + 4, bytes.getInt(at) - 1, path);
          reader.skipValue();
        }
        case JAVASCRIPT_WITH_SCOPE -> { // its size, its code, then its scope, a document
          int at = reader.getBsonInput().getPosition();
          requireUtf8(at + 8, bytes.getInt(at + 4) - 1, path);
          reader.readJavaScriptWithScope();
          document(null, path);
        }
        case BOOLEAN -> reader.readBoolean(); // a byte but 0 or 1 is malformed, skipped or not
        default -> reader.skipValue();
      }
    }

    private void requireUtf8(int start, int length, String path) {
      if (Utf8.firstInvalid(bytes, start, length) >= 0) {
        throw new NotFit(path, "not valid UTF-8");
      }
    }
  }

  /** A table's fields by BSON name: a struct's all, a table's but the deprecated ones. */
  private static Map<String, FieldPlan> fields(TablePlan t) {
    Map<String, FieldPlan> fields = new HashMap<>();
    for (FieldPlan f : t.fields()) {
      if (t.struct() || !f.deprecated()) {
        fields.put(f.bsonName(), f);
      }
    }
    return fields;
  }

  private Map<String, Object> struct(TablePlan st, BsonValue v, String path) {
    if (!v.isDocument()) {
      throw new NotFit(path, "expected a document for struct " + st.name());
    }
    BsonDocument doc = v.asDocument();
    if (strict) {
      Map<String, FieldPlan> byBson = byBsonName.computeIfAbsent(st, SchemaExportVerifier::fields);
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

  /** What a reader gets for a field left out. */
  /**
   * The line's {@code _id}; {@code null} for a JSON null, as a {@link dev.flatdump.encode.Reject}
   * has it.
   */
  static BsonValue idOf(String line) {
    BsonDocument d;
    try {
      d = BsonDocument.parse(line);
    } catch (RuntimeException e) {
      throw new ArtifactException("rejects.jsonl has a line that is not JSON: " + line, e);
    }
    BsonValue id = d.get("_id");
    return id == null || id.isNull() ? null : id;
  }

  private static Object absent(FieldPlan f) {
    if (!f.kind().isScalar() || f.optional()) {
      return null;
    }
    return switch (f.kind()) {
      case BOOL -> f.defaultInteger() != 0;
      case FLOAT -> new Real(Double.doubleToRawLongBits((float) f.defaultReal()));
      case DOUBLE -> new Real(Double.doubleToRawLongBits(f.defaultReal()));
      default -> f.defaultInteger();
    };
  }

  private Object value(FieldPlan f, FieldKind kind, BsonValue v, String path) {
    return switch (kind) {
      case BOOL -> {
        if (!v.isBoolean()) {
          throw new NotFit(path, "expected bool");
        }
        yield v.asBoolean().getValue();
      }
      case FLOAT, DOUBLE -> real(kind, v, path);
      case STRING -> string(v, path);
      case STRUCT -> struct(plan.tables().get(f.typeIndex()), v, path);
      case TABLE -> {
        if (!v.isDocument()) {
          throw new NotFit(path, "expected a document");
        }
        yield table(plan.tables().get(f.typeIndex()), v.asDocument(), path);
      }
      case VECTOR -> vector(f, v, path);
      default -> integer(f, kind, v, path);
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
              compareKeys(key, ((Map<?, ?>) x).get(key.name()), ((Map<?, ?>) y).get(key.name())));
    }
    return out;
  }

  /**
   * The order of two keys as readers' binary searches expect it: strings by their UTF-8 bytes
   * unsigned, unsigned integers unsigned, floats by value with NaN last.
   */
  private static int compareKeys(FieldPlan key, Object x, Object y) {
    if (x instanceof String a && y instanceof String b) {
      return java.util.Arrays.compareUnsigned(
          a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
    if (x instanceof Boolean a && y instanceof Boolean b) {
      return Boolean.compare(a, b);
    }
    if (x instanceof Real a && y instanceof Real b) {
      double p = Double.longBitsToDouble(a.bits());
      double q = Double.longBitsToDouble(b.bits());
      if (Double.isNaN(p) || Double.isNaN(q)) {
        return Boolean.compare(Double.isNaN(p), Double.isNaN(q));
      }
      return Double.compare(p == 0 ? 0.0 : p, q == 0 ? 0.0 : q);
    }
    long a = (Long) x;
    long b = (Long) y;
    return switch (key.kind()) {
      case UBYTE, USHORT, UINT, ULONG -> Long.compareUnsigned(a, b);
      default -> Long.compare(a, b);
    };
  }

  private static String string(BsonValue v, String path) {
    if (v.isString()) {
      return v.asString().getValue();
    }
    if (v.isObjectId()) {
      return v.asObjectId().getValue().toHexString();
    }
    if (v.isDecimal128()) {
      return v.asDecimal128().getValue().toString();
    }
    if (v.isBinary()) {
      BsonBinary b = v.asBinary();
      if (b.getType() == BsonBinarySubType.UUID_STANDARD.getValue() && b.getData().length == 16) {
        ByteBuffer bb = ByteBuffer.wrap(b.getData());
        return new UUID(bb.getLong(), bb.getLong()).toString();
      }
    }
    throw new NotFit(path, "expected a string");
  }

  private static Real real(FieldKind kind, BsonValue v, String path) {
    double d;
    if (v.isDouble()) {
      d = v.asDouble().getValue();
    } else if (v.isInt32()) {
      d = v.asInt32().getValue();
    } else if (v.isInt64()) {
      long l = v.asInt64().getValue();
      d = l;
      if (new BigDecimal(d).compareTo(BigDecimal.valueOf(l)) != 0) {
        throw new NotFit(path, l + " is not exactly a double");
      }
    } else {
      throw new NotFit(path, "expected a number");
    }
    if (kind == FieldKind.DOUBLE) {
      return new Real(Double.doubleToRawLongBits(d));
    }
    float f = (float) d;
    if (Double.doubleToRawLongBits(f) != Double.doubleToRawLongBits(d)) {
      throw new NotFit(path, d + " is not exactly a float");
    }
    return new Real(Double.doubleToRawLongBits(f));
  }

  private Long integer(FieldPlan f, FieldKind kind, BsonValue v, String path) {
    BigInteger value;
    EnumPlan e = f.enumIndex() < 0 ? null : plan.enums().get(f.enumIndex());
    if (v.isString() && e != null) {
      Long named = e.byName().get(v.asString().getValue());
      if (named == null) {
        throw new NotFit(path, "'" + v.asString().getValue() + "' is not a value of " + e.name());
      }
      return named;
    }
    if (v.isInt32()) {
      value = BigInteger.valueOf(v.asInt32().getValue());
    } else if (v.isInt64()) {
      value = BigInteger.valueOf(v.asInt64().getValue());
    } else if (v.isDouble() && e == null) {
      double d = v.asDouble().getValue();
      if (Double.isNaN(d) || Double.isInfinite(d) || d != Math.rint(d)) {
        throw new NotFit(path, d + " is not an integer");
      }
      value = new BigDecimal(d).toBigIntegerExact();
    } else if (v.isDateTime() && kind == FieldKind.LONG && e == null) {
      return v.asDateTime().getValue();
    } else if (v.isTimestamp() && kind == FieldKind.ULONG && e == null) {
      return v.asTimestamp().getValue();
    } else {
      throw new NotFit(path, "expected an integer for " + kind.name().toLowerCase());
    }
    if (!kind.fits(value)) {
      throw new NotFit(path, value + " out of range for " + kind.name().toLowerCase());
    }
    long bits = value.longValue();
    if (e != null && !e.declares(bits)) {
      throw new NotFit(path, value + " is not a value of " + e.name());
    }
    return bits;
  }

  private static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  // ---- the artifact side: records read back through the binary schema alone --------------------

  private Iterator<Map<String, Object>> records(List<? extends ByteBuffer> shards) {
    return new Iterator<>() {
      private int shard;
      private int index;

      @Override
      public boolean hasNext() {
        while (shard < shards.size() && index >= reflected.count(shards.get(shard))) {
          shard++;
          index = 0;
        }
        return shard < shards.size();
      }

      @Override
      public Map<String, Object> next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        return reflected.record(shards.get(shard), index++);
      }
    };
  }
}
