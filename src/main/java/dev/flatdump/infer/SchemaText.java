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

  /** The shapes that became one table. */
  private static final class Group {
    final List<Shape> members = new ArrayList<>();
    String name;
  }

  private final String collection;
  private final String source;
  private final long documents;
  private final Shape record;
  private final List<Conflict> conflicts;
  private final Map<String, Group> bySignature = new LinkedHashMap<>();
  private final Map<Shape, Group> byShape = new IdentityHashMap<>();
  private final List<Group> leavesFirst = new ArrayList<>();
  private final Set<String> usedTypeNames = Names.newUsed();

  SchemaText(
      String collection, String source, long documents, Shape record, List<Conflict> conflicts) {
    this.collection = collection;
    this.source = source;
    this.documents = documents;
    this.record = record;
    this.conflicts = conflicts;
  }

  String render() {
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
    for (Group g : leavesFirst) {
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
    if (conflicts.isEmpty()) {
      out.append("// Conflicts: none.\n");
    } else {
      out.append("// Conflicts: paths whose values no one type holds without loss.\n");
      for (Conflict c : conflicts) {
        out.append("// ").append(comment(c.toString())).append('\n');
      }
    }
    return out.toString();
  }

  /** Groups the tables below {@code shape}, in first-seen order and leaves first. */
  private void visit(Shape shape, List<Group> firstSeen) {
    for (Shape.Field f : shape.fields()) {
      Shape child = tableOf(f.type());
      if (child == null) {
        continue;
      }
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
  }

  private static Shape tableOf(FieldType t) {
    return t.table() != null ? t.table() : t.element() != null ? t.element().table() : null;
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
      if (!field.equals(f.bson())) {
        out.append(" (bson: ").append(quoted(f.bson())).append(')');
      }
      long present = stats.stream().mapToLong(s -> s.present).sum();
      StringBuilder c = new StringBuilder();
      c.append(Comments.count(present))
          .append(" of ")
          .append(Comments.count(seen))
          .append(of)
          .append("; ")
          .append(Comments.types(stats));
      if (f.type().element() != null) {
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
    return t.element() != null ? t.element().note() : null;
  }

  private String typeText(FieldType t) {
    if (t.table() != null) {
      return byShape.get(t.table()).name;
    }
    if (t.element() != null) {
      return "[" + typeText(t.element()) + "]";
    }
    return t.text();
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
