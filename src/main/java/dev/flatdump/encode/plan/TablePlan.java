package dev.flatdump.encode.plan;

import java.util.List;
import java.util.Objects;

/**
 * A table or struct of the schema, as the engine builds it.
 *
 * @param name its fully qualified name in the schema, e.g. {@code geo.State}
 * @param struct whether it is a struct (written inline, every field present) rather than a table
 * @param byteSize a struct's size in bytes; 0 for a table
 * @param minAlign a struct's alignment; 1 for a table
 * @param fields its fields, by id (a binary schema lists them by name)
 * @param lookup its fields by BSON name
 * @param wrapper whether the schema says {@code (wrapper)}: the table holds one BSON value, not a
 *     document, in its one field ({@link #wrapped()}); a union's members are wrappers
 */
public record TablePlan(
    String name,
    boolean struct,
    int byteSize,
    int minAlign,
    List<FieldPlan> fields,
    FieldLookup lookup,
    boolean wrapper) {

  public TablePlan {
    Objects.requireNonNull(name, "TablePlan.name");
    fields = List.copyOf(fields);
    Objects.requireNonNull(lookup, "TablePlan.lookup");
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).id() != i) {
        throw new IllegalArgumentException(
            "TablePlan "
                + name
                + ": fields must be by id, got id "
                + fields.get(i).id()
                + " at "
                + i);
      }
    }
  }

  /** The field the schema marks {@code (key)}, or null. */
  public FieldPlan key() {
    for (FieldPlan f : fields) {
      if (f.key() && !f.deprecated()) {
        return f;
      }
    }
    return null;
  }

  /** A wrapper's one field (not deprecated), which takes the value; null for another table. */
  public FieldPlan wrapped() {
    return wrapper ? live(null) : null;
  }

  /** A map entry's value: its one field besides the {@code (key)} (not deprecated). */
  public FieldPlan mapValue() {
    return live(key());
  }

  /** The one field not deprecated besides {@code except}, or null if there is not exactly one. */
  FieldPlan live(FieldPlan except) {
    FieldPlan one = null;
    for (FieldPlan f : fields) {
      if (!f.deprecated() && f != except && !f.unionType()) {
        if (one != null) {
          return null;
        }
        one = f;
      }
    }
    return one;
  }

  /** {@code Table.field}, as messages name a field. */
  public String path(FieldPlan field) {
    return name + "." + field.name();
  }
}
