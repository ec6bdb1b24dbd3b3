package dev.flatdump.encode.plan;

import java.util.Objects;

/**
 * One field of a table or struct, as the engine writes it.
 *
 * @param name the field's name in the schema
 * @param bsonName the name of the BSON field it is read from: its {@code bson} attribute, else its
 *     name
 * @param id the field's id (its position in the vtable)
 * @param slot for a table's field, its vtable offset ({@code 4 + 2 * id}); for a struct's field,
 *     its byte offset in the struct
 * @param kind what it holds
 * @param element for a {@link FieldKind#VECTOR}, its elements' kind; null otherwise
 * @param typeIndex for a struct or table, or a vector of them: the index of its {@link TablePlan}
 *     in {@link SchemaPlan#tables()}; -1 otherwise
 * @param enumIndex for an enum, or a vector of one, or a union and its type field: the index of its
 *     {@link EnumPlan} in {@link SchemaPlan#enums()}; -1 otherwise
 * @param required whether the schema says {@code (required)}: a missing value rejects the document
 * @param optional what the binary schema says: for a scalar, whether it is optional ({@code =
 *     null}), absent unless given and never its default; for a string, table or vector, whether it
 *     is not required
 * @param deprecated whether the schema says {@code (deprecated)}: never written, its BSON field is
 *     skipped as unknown
 * @param key whether the schema says {@code (key)}: a vector of its table or struct is written
 *     sorted by it, so that generated {@code ...ByKey} lookups find its elements
 * @param map whether the schema says {@code (map)}: a vector of entry tables ({@link
 *     TablePlan#mapValue()}) read from a BSON document, one entry per field, sorted by key
 * @param unionType whether it is the hidden type field of a union ({@code x_type}, the id before
 *     the union's own): written with the union, never read from BSON
 * @param defaultInteger an integer, bool or enum scalar's default
 * @param defaultReal a float or double scalar's default
 */
public record FieldPlan(
    String name,
    String bsonName,
    int id,
    int slot,
    FieldKind kind,
    FieldKind element,
    int typeIndex,
    int enumIndex,
    boolean required,
    boolean optional,
    boolean deprecated,
    boolean key,
    boolean map,
    boolean unionType,
    long defaultInteger,
    double defaultReal) {

  public FieldPlan {
    Objects.requireNonNull(name, "FieldPlan.name");
    Objects.requireNonNull(bsonName, "FieldPlan.bsonName");
    Objects.requireNonNull(kind, "FieldPlan.kind");
    if ((kind == FieldKind.VECTOR) != (element != null)) {
      throw new IllegalArgumentException(
          "FieldPlan " + name + ": element is for vectors only, got " + kind + " of " + element);
    }
  }
}
