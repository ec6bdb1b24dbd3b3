package dev.flatdump.infer;

import dev.flatdump.infer.SchemaInference.Conflict;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes the decided shapes as a schema: the tables that documents use, leaves first, each shape
 * shared by every path with the same signature; then the record table, the root and the conflicts.
 * Fields keep the order they first appeared in; tables are named after the first path they appear
 * at. Each field's comment says in how many of its table's values it was present and the BSON types
 * seen, summed over the paths the table serves.
 */
final class SchemaText {

  /**
   * The shapes that became one table, or the wrappers, maps' entry tables or unions that became one
   * type: {@code types} holds each path's type, {@code members} the shapes of a table.
   */
  private static final class Group {
    final List<Shape> members = new ArrayList<>();
    final List<FieldType> types = new ArrayList<>();
    String name;
  }

  private final String collection;
  private final String source;
  private final long documents;
  private final Shape record;
  private final List<Conflict> conflicts;
  private final List<String> maps;
  private final Map<FieldType, Group> byType = new IdentityHashMap<>();
  private final Map<String, Group> bySignature = new LinkedHashMap<>();
  private final Map<Shape, Group> byShape = new IdentityHashMap<>();
  private final List<Group> leavesFirst = new ArrayList<>();
  private final Set<String> usedTypeNames = Names.newUsed();

  SchemaText(
      String collection,
      String source,
      long documents,
      Shape record,
      List<Conflict> conflicts,
      List<String> maps) {
    this.collection = collection;
    this.source = source;
    this.documents = documents;
    this.record = record;
    this.conflicts = conflicts;
    this.maps = maps;
  }

  /** The schema; {@code named} gives conflict {@code i} as the schema names the types it chose. */
  String render(java.util.function.BiFunction<Integer, SchemaText, Conflict> named) {
    String rootName = Names.table(collection, false);
    String recordName = Names.table(collection, true);
    if (recordName.equals(rootName)) {
      recordName = rootName + "Record";
    }
    rootName = Names.unique(rootName, usedTypeNames, "");
    recordName = Names.unique(recordName, usedTypeNames, "");
    List<Group> firstSeen = new ArrayList<>();
    visit(record, firstSeen);
    for (Group g : firstSeen) {
      if (g.members.isEmpty()) {
        g.name = Names.unique(g.types.get(0).hint(), usedTypeNames, "");
        continue;
      }
      Shape first = g.members.get(0);
      String name = Names.table(first.segment(), first.element());
      if (usedTypeNames.contains(Names.collisionKey(name))) {
        String whole = Names.table(first.path().replace("[]", "").replace('.', '_'), false);
        name = usedTypeNames.contains(Names.collisionKey(whole)) ? name : whole;
      }
      g.name = Names.unique(name, usedTypeNames, "");
    }

    StringBuilder out = new StringBuilder();
    out.append("// Inferred by flatdump infer from ")
        .append(Comments.count(documents))
        .append(documents == 1 ? " document: " : " documents: ")
        .append(comment(source))
        .append(".\n")
        .append("// Each field's comment: in how many of its table's values it was present, and")
        .append(" the BSON types seen.\n")
        .append("namespace inferred;\n\nattribute \"bson\";\n");
    boolean anyWrapper = leavesFirst.stream().anyMatch(g -> kind(g) == FieldType.Form.WRAPPER);
    boolean anyMap = leavesFirst.stream().anyMatch(g -> kind(g) == FieldType.Form.MAP);
    if (anyMap) {
      out.append("attribute \"map\";\n");
    }
    if (anyWrapper) {
      out.append("attribute \"wrapper\";\n");
    }
    for (Group g : leavesFirst) {
      if (!g.types.isEmpty()) {
        declare(out, g);
        continue;
      }
      Set<String> paths = new LinkedHashSet<>();
      long seen = 0;
      for (Shape s : g.members) {
        paths.add(s.path());
        seen += s.stats().seen;
      }
      out.append("\n// ")
          .append(Comments.count(seen))
          .append(seen == 1 ? " value at: " : " values at: ")
          .append(comment(abbreviated(paths)))
          .append('\n');
      table(out, g.name, g.members, "", false);
    }
    out.append("\n// one record per document, in _id order\n");
    table(out, recordName, List.of(record), " documents", true);
    out.append("\ntable ")
        .append(rootName)
        .append(" {\n  ")
        .append(Names.field(collection))
        .append(": [")
        .append(recordName)
        .append("];\n}\n\nroot_type ")
        .append(rootName)
        .append(";\n\n");
    if (!maps.isEmpty()) {
      out.append("// Maps: documents whose keys are data (docs/infer.md).\n");
      for (String m : maps) {
        out.append("// ").append(comment(m)).append('\n');
      }
    }
    if (conflicts.isEmpty()) {
      out.append("// Conflicts: none.\n");
    } else {
      out.append("// Conflicts: paths whose values no one type holds without loss.\n");
      for (int i = 0; i < conflicts.size(); i++) {
        out.append("// ").append(comment(named.apply(i, this).toString())).append('\n');
      }
    }
    return out.toString();
  }

  private static FieldType.Form kind(Group g) {
    return g.types.isEmpty() ? FieldType.Form.TABLE : g.types.get(0).form();
  }

  /** {@code union CreatedAt { CreatedAtString, CreatedAtLong }}, once the schema is rendered. */
  String declaration(FieldType union) {
    Group g = byType.get(union);
    StringBuilder b = new StringBuilder("union ").append(g.name).append(" { ");
    for (int i = 0; i < union.members().size(); i++) {
      b.append(i == 0 ? "" : ", ").append(byType.get(union.members().get(i)).name);
    }
    return b.append(" }").toString();
  }

  /** A wrapper, a map's entry table or a union. */
  private void declare(StringBuilder out, Group g) {
    FieldType t = g.types.get(0);
    List<ValueStats> stats = new ArrayList<>();
    for (FieldType each : g.types) {
      if (each.stats() != null) {
        stats.add(each.stats());
      }
    }
    String types = stats.isEmpty() ? "a member of a union" : Comments.types(stats);
    switch (t.form()) {
      case WRAPPER -> {
        out.append("\n// holds one value; ").append(comment(types)).append('\n');
        out.append("table ").append(g.name).append(" (wrapper) {\n  value: ");
        out.append(typeText(t.element()));
        if (t.element().optional()) {
          out.append(" = null");
        }
        out.append(";\n}\n");
      }
      case MAP -> {
        long entries = stats.stream().mapToLong(s -> s.present).sum();
        out.append("\n// an entry of a map: ")
            .append(Comments.count(entries))
            .append(entries == 1 ? " value; " : " values; ")
            .append(comment(types))
            .append('\n');
        out.append("table ").append(g.name).append(" {\n  key: string (key);\n  value: ");
        out.append(typeText(t.element()));
        if (t.element().optional()) {
          out.append(" = null");
        }
        out.append(";\n}\n");
      }
      case UNION -> {
        out.append("\n// ").append(comment(types)).append(": each value by its BSON type\n");
        out.append(declaration(t)).append('\n');
      }
      default -> throw new IllegalStateException("not declared here: " + t.form());
    }
  }

  /** Groups the types below {@code shape}, in first-seen order and leaves first. */
  private void visit(Shape shape, List<Group> firstSeen) {
    for (Shape.Field f : shape.fields()) {
      visit(f.type(), firstSeen);
    }
  }

  private void visit(FieldType t, List<Group> firstSeen) {
    switch (t.form()) {
      case SCALAR -> {}
      case VECTOR -> visit(t.element(), firstSeen);
      case TABLE -> {
        Shape child = t.table();
        Group g = bySignature.get(child.signature());
        boolean fresh = g == null;
        if (fresh) {
          g = new Group();
          bySignature.put(child.signature(), g);
          firstSeen.add(g);
        }
        g.members.add(child);
        byShape.put(child, g);
        visit(child, firstSeen);
        if (fresh) {
          leavesFirst.add(g);
        }
      }
      case WRAPPER, MAP, UNION -> {
        Group g = bySignature.get(t.signature());
        boolean fresh = g == null;
        if (fresh) {
          g = new Group();
          bySignature.put(t.signature(), g);
          firstSeen.add(g);
        }
        g.types.add(t);
        byType.put(t, g);
        if (t.form() == FieldType.Form.UNION) {
          t.members().forEach(m -> visit(m, firstSeen));
        } else {
          visit(t.element(), firstSeen);
        }
        if (fresh) {
          leavesFirst.add(g);
        }
      }
    }
  }

  private void table(
      StringBuilder out, String name, List<Shape> members, String of, boolean records) {
    out.append("table ").append(name).append(" {\n");
    long seen = members.stream().mapToLong(s -> s.stats().seen).sum();
    Set<String> used = Names.newUsed();
    used.add(Names.collisionKey(name)); // C# refuses a member named as its type
    Shape first = members.get(0);
    for (int i = 0; i < first.fields().size(); i++) {
      Shape.Field f = first.fields().get(i);
      List<ValueStats> stats = new ArrayList<>();
      for (Shape s : members) {
        stats.add(s.stats().fields.get(f.bson()));
      }
      String field = Names.unique(Names.field(f.bson()), used, "_");
      out.append("  ").append(field).append(": ").append(typeText(f.type()));
      if (f.type().optional()) {
        out.append(" = null");
      }
      boolean map = f.type().form() == FieldType.Form.MAP;
      if (!field.equals(f.bson())) {
        out.append(map ? " (map, bson: " : " (bson: ").append(quoted(f.bson())).append(')');
      } else if (map) {
        out.append(" (map)");
      }
      long present = stats.stream().mapToLong(s -> s.present).sum();
      StringBuilder c = new StringBuilder();
      c.append(Comments.count(present))
          .append(" of ")
          .append(Comments.count(seen))
          .append(of)
          .append("; ")
          .append(Comments.types(stats));
      if (f.type().form() == FieldType.Form.VECTOR) {
        List<ValueStats> elements = new ArrayList<>();
        for (ValueStats s : stats) {
          elements.add(s.elements());
        }
        String types = Comments.types(elements);
        c.append("; elements: ").append(types.isEmpty() ? "none" : types);
      }
      String note = f.type().note() != null ? f.type().note() : elementNote(f.type());
      if (note != null) {
        c.append("; ").append(note);
      }
      if (records && f.bson().equals("_id")) {
        c.append("; no (key): the records stay in _id order (docs/mapping.md)");
      }
      out.append(";  // ").append(comment(c.toString())).append('\n');
    }
    out.append("}\n");
  }

  private static String elementNote(FieldType t) {
    return t.form() == FieldType.Form.VECTOR ? t.element().note() : null;
  }

  private String typeText(FieldType t) {
    return switch (t.form()) {
      case SCALAR -> t.text();
      case TABLE -> byShape.get(t.table()).name;
      case VECTOR -> "[" + typeText(t.element()) + "]";
      case MAP -> "[" + byType.get(t).name + "]";
      case WRAPPER, UNION -> byType.get(t).name;
    };
  }

  private static String abbreviated(Set<String> paths) {
    List<String> list = new ArrayList<>(paths);
    if (list.size() <= 6) {
      return String.join(", ", list);
    }
    return String.join(", ", list.subList(0, 5)) + " and " + (list.size() - 5) + " more";
  }

  /** A flatc string literal: quotes, backslashes and control characters escaped. */
  static String quoted(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20 || c == 0x7f) {
        b.append(String.format("\\x%02X", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }

  /** Text safe on one comment line: no line breaks. */
  private static String comment(String s) {
    return s.replaceAll("[\\p{Cntrl}\\u2028\\u2029\\u0085]", "?");
  }
}
