package dev.flatdump.infer;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The type chosen for one path, and why, for the comment. One of the {@link Form}s: a scalar,
 * {@code string} or {@code [ubyte]} by its schema text; a table by its {@link Shape}; a vector of
 * another {@code FieldType}; a {@code (wrapper)} table holding one value; a {@code (map)} vector of
 * entry tables; or a union of wrappers. Wrappers, maps and unions carry a name hint taken from
 * their path ({@code CreatedAt}), which names their types in the schema; tables are named by {@link
 * SchemaText}.
 *
 * @param form which of the forms
 * @param text the schema text of a scalar, {@code string} or {@code [ubyte]}; else null
 * @param table the shape of a table, else null
 * @param element a vector's element type, a wrapper's value type or a map's value type; else null
 * @param members a union's members, each a wrapper, in their declared order; else empty
 * @param hint the name a wrapper, a map's entry table or a union is given, before it is made unique
 * @param optional a scalar that some values of its table lack or hold null: {@code = null}
 * @param note what the comment adds (a date's mapping, the range seen), or null
 * @param stats the values a wrapper, map or union holds, for its comment; else null
 */
record FieldType(
    Form form,
    String text,
    Shape table,
    FieldType element,
    List<FieldType> members,
    String hint,
    boolean optional,
    String note,
    ValueStats stats) {

  enum Form {
    SCALAR,
    TABLE,
    VECTOR,
    WRAPPER,
    MAP,
    UNION
  }

  FieldType {
    members = List.copyOf(members);
  }

  static FieldType of(String text, String note) {
    return new FieldType(Form.SCALAR, text, null, null, List.of(), null, false, note, null);
  }

  static FieldType table(Shape shape) {
    return new FieldType(Form.TABLE, null, shape, null, List.of(), null, false, null, null);
  }

  static FieldType vector(FieldType element, String note) {
    return new FieldType(Form.VECTOR, null, null, element, List.of(), null, false, note, null);
  }

  /** A {@code (wrapper)} table named {@code hint} holding one value of type {@code value}. */
  static FieldType wrapper(String hint, FieldType value, ValueStats stats) {
    return new FieldType(Form.WRAPPER, null, null, value, List.of(), hint, false, null, stats);
  }

  /** A {@code (map)}: entry tables named {@code hint}, {@code { key: string (key); value: T; }}. */
  static FieldType map(String hint, FieldType value, ValueStats stats, String note) {
    return new FieldType(Form.MAP, null, null, value, List.of(), hint, false, note, stats);
  }

  static FieldType union(String hint, List<FieldType> members, ValueStats stats) {
    return new FieldType(Form.UNION, null, null, null, members, hint, false, null, stats);
  }

  boolean scalar() {
    return form == Form.SCALAR && !text.equals("string") && !text.startsWith("[");
  }

  boolean vector() {
    return form == Form.VECTOR || (form == Form.SCALAR && text.startsWith("["));
  }

  FieldType optional(boolean optional) {
    return new FieldType(form, text, table, element, members, hint, optional, note, stats);
  }

  FieldType withTable(Shape shape) {
    return new FieldType(form, text, shape, element, members, hint, optional, note, stats);
  }

  /**
   * The structure, for telling equal shapes: tables by their own signatures; wrappers, maps and
   * unions by their name hints too, so that each keeps the name of its path.
   */
  String signature() {
    return switch (form) {
      case SCALAR -> text + (optional ? "?" : "");
      case TABLE -> "{" + table.signature() + "}";
      case VECTOR -> "[" + element.signature() + "]";
      case WRAPPER -> "W:" + hint + "(" + element.signature() + ")";
      case MAP -> "M:" + hint + "(" + element.signature() + ")";
      case UNION ->
          "U:"
              + hint
              + "("
              + members.stream().map(FieldType::signature).collect(Collectors.joining("|"))
              + ")";
    };
  }
}
