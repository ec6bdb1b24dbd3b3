package dev.flatdump.artifact.check;

import static dev.flatdump.artifact.check.ExpectedRecords.join;

import dev.flatdump.artifact.check.ExpectedRecords.NotFit;
import dev.flatdump.encode.engine.Utf8;
import dev.flatdump.encode.plan.EnumPlan;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.bson.BsonBinaryReader;
import org.bson.BsonType;

/**
 * One read of a raw document's bytes with the driver's own reader, for what the driver's decoded
 * document hides from {@link ExpectedRecords}: it keeps one value per name and turns bytes that are
 * not UTF-8 into U+FFFD. Every field at every depth is read: a field of the schema given twice in
 * one table or struct, or a string value that is not UTF-8 (skipped ones too; a field name is not a
 * value, and an unknown one is only counted), refuses the document ({@link NotFit}); so does a key
 * of a {@code (map)} given twice or not UTF-8, as a key is a value. A {@code (wrapper)}'s value is
 * walked as its one field's, a union's as its member's ({@link UnionMembers}). What the driver
 * cannot read throws the driver's exception. One instance per document; not thread-safe.
 */
final class RawWalk {
  private final SchemaPlan plan;
  private final Function<TablePlan, Map<String, FieldPlan>> fields;
  private final ByteBuffer bytes;
  private final BsonBinaryReader reader;
  private final UnionMembers unions;

  /**
   * @param fields a table's fields by BSON name
   * @param bytes the document's bytes, little-endian, where {@code reader} reads them
   * @param reader the driver's reader over the same bytes, at the document's start; the caller
   *     closes it
   */
  RawWalk(
      SchemaPlan plan,
      Function<TablePlan, Map<String, FieldPlan>> fields,
      ByteBuffer bytes,
      BsonBinaryReader reader) {
    this.plan = plan;
    this.fields = fields;
    this.bytes = bytes;
    this.reader = reader;
    this.unions = new UnionMembers(plan);
  }

  /** The document at the reader's place; {@code t} is its table, or null where none is. */
  void document(TablePlan t, String path) {
    Map<String, FieldPlan> byBson = t == null ? Map.of() : fields.apply(t);
    Set<String> seen = new HashSet<>();
    reader.readStartDocument();
    while (true) {
      if (reader.readBsonType() == BsonType.END_OF_DOCUMENT) {
        break;
      }
      String name = reader.readName();
      String p = join(path, name);
      FieldPlan f = byBson.get(name);
      if (f != null && !seen.add(name)) {
        throw new NotFit(p, "the field appears twice in the document");
      }
      value(f == null || t.struct() ? f : taker(t, f), false, p);
    }
    reader.readEndDocument();
  }

  /**
   * Of the fields of table {@code t} that read {@code first}'s BSON name, the one the value at the
   * reader's place goes to (docs/mapping.md, "Names"), so that it is walked as that field's: a
   * document another field takes is a table or a map there, whose fields or keys are checked.
   */
  private FieldPlan taker(TablePlan t, FieldPlan first) {
    List<FieldPlan> same = t.lookup().readersOf(first);
    BsonType type = reader.getCurrentBsonType();
    return same.size() == 1 || type == BsonType.NULL ? first : unions.field(same, type);
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
    if (kind == FieldKind.UNION) { // its member's wrapper, or nothing when no member takes it
      EnumPlan u = plan.enums().get(f.enumIndex());
      int member = unions.member(u, reader.getCurrentBsonType());
      sub = member == 0 ? null : plan.tables().get(u.members().get(member));
      if (sub == null) {
        value(null, false, path);
        return;
      }
    }
    if (sub != null && sub.wrapper()) {
      value(sub.wrapped(), false, path);
      return;
    }
    boolean map = vector && !element && f.map();
    switch (reader.getCurrentBsonType()) {
      case DOCUMENT -> {
        if (map) {
          map(f, path);
        } else {
          document(sub, path);
        }
      }
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

  /**
   * The document of {@code (map)} {@code f} at the reader's place: each name a key, UTF-8 and given
   * once; each value the entry's value.
   */
  private void map(FieldPlan f, String path) {
    FieldPlan value = plan.tables().get(f.typeIndex()).mapValue();
    Set<String> seen = new HashSet<>();
    reader.readStartDocument();
    while (true) {
      int at = reader.getBsonInput().getPosition(); // the type byte, then the name
      if (reader.readBsonType() == BsonType.END_OF_DOCUMENT) {
        break;
      }
      String name = reader.readName();
      String p = join(path, name);
      int end = at + 1;
      while (bytes.get(end) != 0) {
        end++;
      }
      requireUtf8(at + 1, end - at - 1, p);
      if (!seen.add(name)) {
        throw new NotFit(p, "the key appears twice in the map");
      }
      value(value, false, p);
    }
    reader.readEndDocument();
  }

  private void requireUtf8(int start, int length, String path) {
    if (Utf8.firstInvalid(bytes, start, length) >= 0) {
      throw new NotFit(path, "not valid UTF-8");
    }
  }
}
