package dev.flatdump.encode.plan;

import dev.flatdump.encode.plan.bfbs.Enum;
import dev.flatdump.encode.plan.bfbs.EnumVal;
import dev.flatdump.encode.plan.bfbs.Field;
import dev.flatdump.encode.plan.bfbs.KeyValue;
import dev.flatdump.encode.plan.bfbs.Object;
import dev.flatdump.encode.plan.bfbs.Schema;
import dev.flatdump.encode.plan.bfbs.Type;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a binary schema into a {@link SchemaPlan}: from the root table, every table, struct, enum
 * and union it reaches, re-indexed in the order they are reached (a binary schema sorts objects and
 * fields by name). Refuses, naming the field, what BSON cannot be mapped onto.
 */
final class BinarySchemaReader {

  /** The attribute that names a field's BSON field, declared {@code attribute "bson";}. */
  static final String BSON_ATTRIBUTE = "bson";

  /** The attribute that reads a vector of entry tables from a BSON document, one per field. */
  static final String MAP_ATTRIBUTE = "map";

  /** The attribute of a table that holds one BSON value, not a document. */
  static final String WRAPPER_ATTRIBUTE = "wrapper";

  private static final byte BASE_UTYPE = 1;
  private static final byte BASE_UNION = 16;
  private static final byte BASE_ARRAY = 17;

  private final Schema schema;
  private final String source;
  private final Map<Integer, Integer> tableIndex = new HashMap<>();
  private final List<Integer> tableOrder = new ArrayList<>();
  private final Map<Integer, Integer> enumIndex = new HashMap<>();
  private final List<Integer> enumOrder = new ArrayList<>();

  BinarySchemaReader(ByteBuffer bfbs, String source) {
    this.source = source;
    ByteBuffer bb = bfbs.duplicate();
    if (bb.remaining() < 8 || !Schema.SchemaBufferHasIdentifier(bb)) {
      throw new SchemaException(
          source + " is not a binary FlatBuffers schema (no BFBS identifier)");
    }
    this.schema = Schema.getRootAsSchema(bb);
  }

  SchemaPlan plan() {
    Object root = schema.rootTable();
    if (root == null) {
      throw new SchemaException(source + ": the schema declares no root_type");
    }
    int rootObject = objectIndex(root.name());
    if (root.isStruct()) {
      throw new SchemaException(source + ": the root type " + root.name() + " is a struct");
    }
    List<Field> vectorsOfTables = new ArrayList<>();
    for (int i = 0; i < root.fieldsLength(); i++) {
      Field f = root.fields(i);
      Type t = f.type();
      if (!f.deprecated()
          && t.baseType() == 14
          && t.element() == 15
          && !schema.objects(t.index()).isStruct()) {
        vectorsOfTables.add(f);
      }
    }
    if (vectorsOfTables.size() != 1) {
      List<String> names = vectorsOfTables.stream().map(Field::name).toList();
      throw new SchemaException(
          source
              + ": the root table "
              + root.name()
              + " must have exactly one vector of tables, whose elements are the records; it has "
              + (names.isEmpty() ? "none" : names.size() + " (" + String.join(", ", names) + ")"));
    }
    for (int i = 0; i < root.fieldsLength(); i++) {
      Field f = root.fields(i);
      if (!f.name().equals(vectorsOfTables.get(0).name()) && f.required() && !f.deprecated()) {
        throw new SchemaException(
            source
                + ": "
                + root.name()
                + "."
                + f.name()
                + " is (required), but flatdump writes only the root's records ("
                + vectorsOfTables.get(0).name()
                + "): every shard would lack it");
      }
    }
    int recordObject = vectorsOfTables.get(0).type().index();
    Object record = schema.objects(recordObject);
    for (int i = 0; i < record.fieldsLength(); i++) {
      Field f = record.fields(i);
      byte base = f.type().baseType();
      boolean orderable = base == 13 || (base >= 3 && base <= 10 && f.type().index() < 0);
      if (f.key() && !f.deprecated() && !orderable) {
        throw new SchemaException(
            source
                + ": "
                + record.name()
                + "."
                + f.name()
                + " is a (key) of the records, which lookups by key binary-search: it must be a"
                + " string or an integer (not an enum, a float or a bool)");
      }
    }
    reach(rootObject);
    List<TablePlan> tables = new ArrayList<>();
    for (int i = 0; i < tableOrder.size(); i++) {
      tables.add(table(schema.objects(tableOrder.get(i))));
    }
    List<EnumPlan> enums = new ArrayList<>();
    for (int e : enumOrder) {
      enums.add(enumPlan(schema.enums(e)));
    }
    refuseMalformed(tables, tables.get(tableIndex.get(recordObject)), tableIndex.get(rootObject));
    int rootIndex = tableIndex.get(rootObject);
    FieldPlan records = tables.get(rootIndex).fields().get(vectorsOfTables.get(0).id());
    String ident = schema.fileIdent();
    return new SchemaPlan(
        source,
        ident == null || ident.isEmpty() ? null : ident,
        rootIndex,
        records,
        tableIndex.get(recordObject),
        tables,
        enums);
  }

  /**
   * Numbers every object and enum reachable from {@code start}, breadth first (a union's members
   * too), refusing what BSON cannot be mapped onto.
   */
  private void reach(int start) {
    Deque<Integer> todo = new ArrayDeque<>();
    number(start, todo);
    while (!todo.isEmpty()) {
      Object o = schema.objects(todo.poll());
      for (int i = 0; i < o.fieldsLength(); i++) {
        Field f = o.fields(i);
        Type t = f.type();
        refuseUnmappable(o, f, t);
        boolean objectType = t.baseType() == 15 || (t.baseType() == 14 && t.element() == 15);
        if (objectType) {
          number(t.index(), todo);
        } else if (t.index() >= 0) {
          enumIndex.computeIfAbsent(
              t.index(),
              e -> {
                enumOrder.add(e);
                return enumOrder.size() - 1;
              });
          if (t.baseType() == BASE_UNION) {
            Enum u = schema.enums(t.index());
            for (int v = 0; v < u.valuesLength(); v++) {
              Type member = u.values(v).unionType();
              if (member != null && member.baseType() == 15) {
                number(member.index(), todo);
              }
            }
          }
        }
      }
    }
  }

  /**
   * Refuses, naming the table or field, a {@code (wrapper)} that is not a table of one field (or is
   * the record or the root), a {@code (map)} that is not a vector of entry tables, and a union
   * whose type field is not the id just before it.
   */
  private void refuseMalformed(List<TablePlan> tables, TablePlan record, int root) {
    for (int i = 0; i < tables.size(); i++) {
      TablePlan t = tables.get(i);
      if (t.wrapper()) {
        if (t.struct() || t.wrapped() == null) {
          throw new SchemaException(
              source
                  + ": "
                  + t.name()
                  + " is a (wrapper), which holds one value: it must be a table with exactly one"
                  + " field that is not deprecated");
        }
        if (t == record || i == root) {
          throw new SchemaException(
              source
                  + ": "
                  + t.name()
                  + " is a (wrapper), but the "
                  + (t == record ? "records" : "root")
                  + " are documents");
        }
      }
      for (FieldPlan f : t.fields()) {
        List<FieldPlan> readers = t.lookup().readersOf(f);
        FieldPlan first = readers.isEmpty() ? f : readers.get(0);
        if (t.struct() && first != f) {
          throw new SchemaException(
              source
                  + ": "
                  + t.path(first)
                  + " and "
                  + t.path(f)
                  + " both read the BSON field '"
                  + f.bsonName()
                  + "', which only a table's fields may");
        }
        if (f.map() && !f.deprecated()) {
          TablePlan entry =
              f.kind() == FieldKind.VECTOR && f.element() == FieldKind.TABLE
                  ? tables.get(f.typeIndex())
                  : null;
          if (entry == null
              || entry.wrapper()
              || entry.key() == null
              || entry.key().kind() != FieldKind.STRING
              || entry.mapValue() == null) {
            throw new SchemaException(
                source
                    + ": "
                    + t.path(f)
                    + " is a (map): it must be a vector of entry tables, each with a string (key)"
                    + " field and exactly one other field, the value, e.g. table Entry { key:"
                    + " string (key); value: ...; }");
          }
        }
        if (f.kind() == FieldKind.UNION) {
          FieldPlan type = f.id() > 0 ? t.fields().get(f.id() - 1) : null;
          if (type == null || !type.unionType() || type.enumIndex() != f.enumIndex()) {
            throw new SchemaException(
                source + ": " + t.path(f) + " is a union whose type field is not the id before it");
          }
        }
      }
    }
  }

  private void number(int object, Deque<Integer> todo) {
    if (!tableIndex.containsKey(object)) {
      tableIndex.put(object, tableOrder.size());
      tableOrder.add(object);
      todo.add(object);
    }
  }

  private void refuseUnmappable(Object o, Field f, Type t) {
    String path = o.name() + "." + f.name();
    byte base = t.baseType();
    byte element = t.element();
    if (base == 14 && (element == BASE_UNION || element == BASE_UTYPE)) {
      throw new SchemaException(
          source
              + ": "
              + path
              + " is a vector of unions, for which flatc 2.0.8 generates no Python; declare a"
              + " vector of (wrapper) tables whose value is the union instead");
    }
    if (base == BASE_UNION) {
      Enum u = schema.enums(t.index());
      for (int v = 0; v < u.valuesLength(); v++) {
        Type member = u.values(v).unionType();
        if (u.values(v).value() == 0) {
          continue; // NONE
        }
        if (member == null
            || member.baseType() != 15
            || schema.objects(member.index()).isStruct()) {
          throw new SchemaException(
              source
                  + ": "
                  + path
                  + ": union "
                  + u.name()
                  + "'s member "
                  + u.values(v).name()
                  + " is not a table; flatdump maps a value onto a (wrapper) table");
        }
        Object m = schema.objects(member.index());
        if (m.attributesByKey(WRAPPER_ATTRIBUTE) == null) {
          throw new SchemaException(
              source
                  + ": "
                  + path
                  + ": union "
                  + u.name()
                  + "'s member "
                  + m.name()
                  + " must be a (wrapper) table, which holds the value in its one field: declare"
                  + " attribute \"wrapper\"; and table "
                  + m.name()
                  + " (wrapper) { value: ...; }");
        }
      }
    }
    if (base == BASE_ARRAY) {
      throw new SchemaException(
          source + ": " + path + " is a fixed-length array, which flatdump cannot map BSON onto");
    }
    for (String unsupported : List.of("nested_flatbuffer", "flexbuffer")) {
      if (f.attributesByKey(unsupported) != null) {
        throw new SchemaException(
            source
                + ": "
                + path
                + " has ("
                + unsupported
                + "), which flatdump cannot map BSON onto");
      }
    }
  }

  private TablePlan table(Object o) {
    FieldPlan[] byId = new FieldPlan[o.fieldsLength()];
    for (int i = 0; i < o.fieldsLength(); i++) {
      FieldPlan p = field(o, o.fields(i));
      if (p.id() < 0 || p.id() >= byId.length || byId[p.id()] != null) {
        throw new SchemaException(source + ": " + o.name() + " has field ids that do not count up");
      }
      byId[p.id()] = p;
    }
    List<FieldPlan> fields = List.of(byId);
    return new TablePlan(
        o.name(),
        o.isStruct(),
        o.isStruct() ? o.bytesize() : 0,
        o.isStruct() ? o.minalign() : 1,
        fields,
        new FieldLookup(fields),
        o.attributesByKey(WRAPPER_ATTRIBUTE) != null);
  }

  private FieldPlan field(Object o, Field f) {
    Type t = f.type();
    boolean vector = t.baseType() == 14;
    byte valueType = vector ? t.element() : t.baseType();
    boolean struct = valueType == 15 && schema.objects(t.index()).isStruct();
    FieldKind kind = FieldKind.of(t.baseType(), struct);
    FieldKind element = vector ? FieldKind.of(t.element(), struct) : null;
    boolean objectType = valueType == 15;
    KeyValue bson = f.attributesByKey(BSON_ATTRIBUTE);
    String bsonName = f.name();
    if (bson != null) {
      if (bson.value() == null || bson.value().isEmpty()) {
        throw new SchemaException(
            source + ": " + o.name() + "." + f.name() + " has an empty (bson) name");
      }
      bsonName = bson.value();
    }
    return new FieldPlan(
        f.name(),
        bsonName,
        f.id(),
        f.offset(),
        kind,
        element,
        objectType ? tableIndex.get(t.index()) : -1,
        !objectType && t.index() >= 0 ? enumIndex.get(t.index()) : -1,
        // flatc's code requires a string key; a deprecated field reads nothing, so never
        (f.required() || (f.key() && kind == FieldKind.STRING)) && !f.deprecated(),
        f.optional(),
        f.deprecated(),
        f.key(),
        f.attributesByKey(MAP_ATTRIBUTE) != null,
        t.baseType() == BASE_UTYPE,
        f.defaultInteger(),
        f.defaultReal());
  }

  private EnumPlan enumPlan(Enum e) {
    Map<String, Long> byName = new LinkedHashMap<>();
    List<Long> values = new ArrayList<>();
    List<Integer> members = new ArrayList<>();
    for (int i = 0; i < e.valuesLength(); i++) {
      EnumVal v = e.values(i);
      byName.put(v.name(), v.value());
      values.add(v.value());
    }
    if (e.isUnion()) {
      for (int i = 0; i < e.valuesLength(); i++) {
        members.add(-1);
      }
      for (int i = 0; i < e.valuesLength(); i++) {
        EnumVal v = e.values(i);
        Type member = v.unionType();
        if (v.value() > 0 && member != null && member.baseType() == 15) {
          members.set((int) v.value(), tableIndex.get(member.index()));
        }
      }
    }
    return new EnumPlan(
        e.name(), FieldKind.of(e.underlyingType().baseType(), false), byName, values, members);
  }

  private int objectIndex(String name) {
    for (int i = 0; i < schema.objectsLength(); i++) {
      if (schema.objects(i).name().equals(name)) {
        return i;
      }
    }
    throw new SchemaException(source + ": the root type " + name + " is not among its objects");
  }
}
