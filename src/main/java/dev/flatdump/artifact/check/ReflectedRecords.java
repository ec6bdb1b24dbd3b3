package dev.flatdump.artifact.check;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.encode.engine.RecordsBuffer;
import dev.flatdump.encode.plan.bfbs.Field;
import dev.flatdump.encode.plan.bfbs.Object;
import dev.flatdump.encode.plan.bfbs.Schema;
import dev.flatdump.encode.plan.bfbs.Type;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A shard's records read through the binary schema alone, as {@code reflection.fbs} describes it:
 * every slot, struct offset, type and default taken from the {@code .bfbs}, none from the plan the
 * export wrote by ({@code SchemaPlan}), so that {@code verify} does not share the export's reading
 * of the schema; only the FlatBuffers primitives (a vtable's field, a string) are read with {@code
 * RecordsBuffer}. A record is a map from field name to value: a {@code Long} for an integer or enum
 * (an unsigned one zero-extended, a {@code ulong} as its bits), a {@code Boolean}, a {@link
 * SchemaExportVerifier.Real} for a float or double (a float widened), a {@code String}, a {@code
 * Map} for a table or struct, a {@code List} for a vector; a field left out reads as its default
 * (null for an optional scalar and for what is not a scalar). A union's type field ({@code x_type})
 * is a {@code Long}, its value the {@code Map} of the member table the type names, found through
 * the binary schema's union enum. Deprecated fields are left out. The shard must have passed {@link
 * SchemaVerifier}. Not thread-safe.
 */
final class ReflectedRecords {

  private static final byte BOOL = 2;
  private static final byte ULONG = 10;
  private static final byte FLOAT = 11;
  private static final byte DOUBLE = 12;
  private static final byte STRING = 13;
  private static final byte VECTOR = 14;
  private static final byte OBJ = 15;
  private static final byte UNION = 16;

  /** Each base type's size inline, by {@code reflection.fbs}'s numbering; 4 for an offset. */
  private static final int[] SIZES = {0, 1, 1, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 4, 4, 4};

  private final Schema schema;
  private final Field records;

  ReflectedRecords(ByteBuffer bfbs) {
    this.schema = Schema.getRootAsSchema(bfbs.duplicate().order(ByteOrder.LITTLE_ENDIAN));
    Object root = schema.rootTable();
    Field found = null;
    for (int i = 0; i < root.fieldsLength(); i++) {
      Field f = root.fields(i);
      Type t = f.type();
      if (!f.deprecated()
          && t.baseType() == VECTOR
          && t.element() == OBJ
          && !schema.objects(t.index()).isStruct()) {
        found = f;
      }
    }
    if (found == null) {
      throw new ArtifactException("the binary schema's root table has no vector of tables");
    }
    this.records = found;
  }

  /** How many records the shard holds. */
  int count(ByteBuffer shard) {
    ByteBuffer bb = shard.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int v = recordsVector(bb);
    return v == 0 ? 0 : bb.getInt(v);
  }

  /** Record {@code i} of the shard. */
  Map<String, java.lang.Object> record(ByteBuffer shard, int i) {
    ByteBuffer bb = shard.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int e = recordsVector(bb) + 4 + 4 * i;
    return table(bb, schema.objects(records.type().index()), e + bb.getInt(e));
  }

  private int recordsVector(ByteBuffer bb) {
    int root = bb.position() + bb.getInt(bb.position());
    int p = RecordsBuffer.fieldPosition(bb, root, records.offset());
    return p == 0 ? 0 : p + bb.getInt(p);
  }

  private Map<String, java.lang.Object> table(ByteBuffer bb, Object o, int table) {
    Map<String, java.lang.Object> values = new LinkedHashMap<>();
    for (int i = 0; i < o.fieldsLength(); i++) {
      Field f = o.fields(i);
      if (f.deprecated()) {
        continue;
      }
      int p = RecordsBuffer.fieldPosition(bb, table, f.offset());
      if (p != 0 && f.type().baseType() == UNION) {
        values.put(f.name(), union(bb, o, f, table, p + bb.getInt(p)));
      } else {
        values.put(f.name(), p == 0 ? absent(f) : value(bb, f.type(), f.type().baseType(), p));
      }
    }
    return values;
  }

  /**
   * Union field {@code f} of the table at {@code table}, whose value is at {@code at}: the member
   * table its type field (the id before it) names.
   */
  private Map<String, java.lang.Object> union(ByteBuffer bb, Object o, Field f, int table, int at) {
    int member = 0;
    for (int i = 0; i < o.fieldsLength(); i++) {
      if (o.fields(i).id() == f.id() - 1) {
        int p = RecordsBuffer.fieldPosition(bb, table, o.fields(i).offset());
        member = p == 0 ? 0 : bb.get(p) & 0xff;
      }
    }
    dev.flatdump.encode.plan.bfbs.Enum u = schema.enums(f.type().index());
    for (int v = 0; v < u.valuesLength(); v++) {
      if (u.values(v).value() == member && member != 0) {
        return table(bb, schema.objects(u.values(v).unionType().index()), at);
      }
    }
    throw new ArtifactException(
        f.name() + ": a union's value, but its type " + member + " names no member");
  }

  private Map<String, java.lang.Object> struct(ByteBuffer bb, Object o, int at) {
    Map<String, java.lang.Object> values = new LinkedHashMap<>();
    for (int i = 0; i < o.fieldsLength(); i++) {
      Field f = o.fields(i);
      values.put(f.name(), value(bb, f.type(), f.type().baseType(), at + f.offset()));
    }
    return values;
  }

  private java.lang.Object value(ByteBuffer bb, Type t, byte base, int p) {
    return switch (base) {
      case BOOL -> bb.get(p) != 0;
      case 3 -> (long) bb.get(p);
      case 1, 4 -> (long) (bb.get(p) & 0xff); // a union's type is a ubyte
      case 5 -> (long) bb.getShort(p);
      case 6 -> (long) (bb.getShort(p) & 0xffff);
      case 7 -> (long) bb.getInt(p);
      case 8 -> bb.getInt(p) & 0xffff_ffffL;
      case 9, ULONG -> bb.getLong(p);
      case FLOAT -> new SchemaExportVerifier.Real(Double.doubleToRawLongBits(bb.getFloat(p)));
      case DOUBLE -> new SchemaExportVerifier.Real(Double.doubleToRawLongBits(bb.getDouble(p)));
      case STRING -> RecordsBuffer.string(bb, p);
      case OBJ -> {
        Object o = schema.objects(t.index());
        yield o.isStruct() ? struct(bb, o, p) : table(bb, o, p + bb.getInt(p));
      }
      case VECTOR -> vector(bb, t, p + bb.getInt(p));
      default -> throw new ArtifactException("the binary schema has a field of base type " + base);
    };
  }

  private List<java.lang.Object> vector(ByteBuffer bb, Type t, int v) {
    int n = bb.getInt(v);
    byte element = t.element();
    int size =
        element == OBJ && schema.objects(t.index()).isStruct()
            ? schema.objects(t.index()).bytesize()
            : SIZES[element];
    List<java.lang.Object> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(value(bb, t, element, v + 4 + i * size));
    }
    return out;
  }

  /** What a reader gets for a field left out: a scalar's default, else null. */
  private static java.lang.Object absent(Field f) {
    byte base = f.type().baseType();
    if (base > DOUBLE || f.optional()) {
      return null;
    }
    return switch (base) {
      case BOOL -> f.defaultInteger() != 0;
      case FLOAT ->
          new SchemaExportVerifier.Real(Double.doubleToRawLongBits((float) f.defaultReal()));
      case DOUBLE -> new SchemaExportVerifier.Real(Double.doubleToRawLongBits(f.defaultReal()));
      default -> f.defaultInteger();
    };
  }
}
