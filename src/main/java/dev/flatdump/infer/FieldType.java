package dev.flatdump.infer;

/**
 * The type chosen for one path: a scalar, {@code string} or {@code [ubyte]} by its schema text, a
 * table by its {@link Shape}, or a vector of another {@code FieldType}; and why, for the comment.
 *
 * @param text the schema text of a scalar, {@code string} or {@code [ubyte]}; null for a table or a
 *     vector
 * @param table the shape of a table, else null
 * @param element the element type of a vector (not {@code [ubyte]}), else null
 * @param optional a scalar that some values of its table lack or hold null: {@code = null}
 * @param note what the comment adds (a date's mapping, the range seen), or null
 */
record FieldType(String text, Shape table, FieldType element, boolean optional, String note) {

  static FieldType of(String text, String note) {
    return new FieldType(text, null, null, false, note);
  }

  boolean scalar() {
    return text != null && !text.equals("string") && !text.startsWith("[");
  }

  FieldType optional(boolean optional) {
    return new FieldType(text, table, element, optional, note);
  }

  /** The structure, for telling equal shapes: tables by their own signatures. */
  String signature() {
    if (table != null) {
      return "{" + table.signature() + "}";
    }
    if (element != null) {
      return "[" + element.signature() + "]";
    }
    return text + (optional ? "?" : "");
  }
}
