package dev.flatdump.encode.plan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A schema for data as it is now that code generated for an earlier schema still reads: the earlier
 * schema with what the data now needs appended, never changed. Every earlier field keeps its id,
 * type, default and BSON name; a table gets the new fields after its old ones; a union gets new
 * members after its old ones, an enum new values. A field whose values no longer fit its type (an
 * int where a string was) keeps its place and the values it still takes, and a new field after it
 * reads the same BSON name with the type the data needs: each value goes to the field whose type
 * takes it (docs/mapping.md). A type the new data brings whose name an earlier type holds, and
 * whose shape cannot merge into it, gets a free name.
 *
 * <p>Both schemas are plans: the earlier one as its export or file gave it, the one inferred from
 * the data as {@code infer} wrote it. Names pair up by BSON name, from the records down.
 */
public final class SchemaEvolution {

  /**
   * The evolved schema.
   *
   * @param schema its text, a {@code .fbs}
   * @param changes what was appended, deprecated or kept, one line each
   */
  public record Result(String schema, List<String> changes) {
    public Result {
      changes = List.copyOf(changes);
    }
  }

  private final SchemaPlan old;
  private final SchemaPlan now;
  private final boolean deprecateMissing;

  /** The paths where the new data held only nulls, as {@code infer} prints paths. */
  private final Set<String> nullOnly;

  private final List<String> changes = new ArrayList<>();

  /** Every declaration of the evolved schema, by fully qualified name, in the order written. */
  private final Map<String, Decl> decls = new LinkedHashMap<>();

  /** The declaration each table or enum of the new schema went into, by its index there. */
  private final Map<Integer, String> tableOf = new HashMap<>();

  private final Map<Integer, String> enumOf = new HashMap<>();

  /** Pairs of (evolved table, new table index) merged or to merge. */
  private final Set<String> paired = new HashSet<>();

  private final Deque<Object[]> pairs = new ArrayDeque<>();

  /** Per old table, the BSON names some paired new table still has. */
  private final Map<String, Set<String>> stillGiven = new HashMap<>();

  private SchemaEvolution(
      SchemaPlan old, SchemaPlan now, boolean deprecateMissing, Set<String> nullOnly) {
    this.old = old;
    this.now = now;
    this.deprecateMissing = deprecateMissing;
    this.nullOnly = Set.copyOf(nullOnly);
  }

  /**
   * Evolves {@code old} to hold what {@code inferred} describes.
   *
   * @param deprecateMissing whether a field the new data no longer has is deprecated (never when it
   *     is required or a key: old readers need it); else it stays
   */
  public static Result evolve(SchemaPlan old, SchemaPlan inferred, boolean deprecateMissing) {
    return evolve(old, inferred, deprecateMissing, Set.of());
  }

  /**
   * {@link #evolve(SchemaPlan, SchemaPlan, boolean)}, where the new data held only nulls at the
   * paths {@code nullOnly} (as {@code infer} prints paths: {@code a.b}, {@code items[].x}): an
   * earlier field there holds them as it is, whatever type the inferred schema gives the path.
   */
  public static Result evolve(
      SchemaPlan old, SchemaPlan inferred, boolean deprecateMissing, Set<String> nullOnly) {
    SchemaEvolution e = new SchemaEvolution(old, inferred, deprecateMissing, nullOnly);
    e.run();
    String text = e.render();
    List<SchemaDiff.Change> breaking =
        SchemaDiff.between(old, compiled(text)).stream()
            .filter(SchemaDiff.Change::breaking)
            .toList();
    if (!breaking.isEmpty()) { // a defect here, never the user's: say what it would break
      throw new IllegalStateException(
          "the evolved schema would break readers of the earlier one: " + breaking + "\n" + text);
    }
    return new Result(text, e.changes);
  }

  /** {@link #evolve(SchemaPlan, SchemaPlan, boolean)} to the schema text {@code inferred}. */
  public static Result evolve(SchemaPlan old, String inferred, boolean deprecateMissing) {
    return evolve(old, compiled(inferred), deprecateMissing, Set.of());
  }

  /** {@link #evolve(SchemaPlan, SchemaPlan, boolean, Set)} to the schema text {@code inferred}. */
  public static Result evolve(
      SchemaPlan old, String inferred, boolean deprecateMissing, Set<String> nullOnly) {
    return evolve(old, compiled(inferred), deprecateMissing, nullOnly);
  }

  /** The plan of a schema's text, compiled by flatc in a directory of its own. */
  private static SchemaPlan compiled(String text) {
    try {
      java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("flatdump-evolve-");
      try {
        java.nio.file.Path fbs = dir.resolve("evolved.fbs");
        java.nio.file.Files.writeString(fbs, text);
        return SchemaPlan.load(fbs);
      } finally {
        try (var files = java.nio.file.Files.list(dir)) {
          for (java.nio.file.Path f : files.toList()) {
            java.nio.file.Files.deleteIfExists(f);
          }
        }
        java.nio.file.Files.deleteIfExists(dir);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private enum Sort {
    TABLE,
    STRUCT,
    ENUM,
    UNION
  }

  /** A declaration of the evolved schema. */
  private static final class Decl {
    final String name;
    final Sort sort;
    final boolean wrapper;
    final List<Field> fields = new ArrayList<>();
    FieldKind underlying;
    final Map<String, Long> values = new LinkedHashMap<>();
    final List<String> members = new ArrayList<>();

    /**
     * An earlier union's members as it wrote them, where that was not in full: flatc names a
     * union's value after the member as written ({@code geo_v1_WS} for {@code geo.v1.WS}), so
     * writing it otherwise renames the value for readers of JSON and generated code.
     */
    final Map<String, String> memberText = new HashMap<>();

    int forceAlign;
    final boolean fromOld;

    Decl(String name, Sort sort, boolean wrapper, boolean fromOld) {
      this.name = name;
      this.sort = sort;
      this.wrapper = wrapper;
      this.fromOld = fromOld;
    }
  }

  /** A field of the evolved schema, and the plan field it was written from. */
  private static final class Field {
    final String name;
    final String type;
    final String bson;
    final FieldPlan source;
    final SchemaPlan sourcePlan;
    boolean deprecated;
    final boolean key;
    final boolean required;
    final String defaultText;

    Field(String name, String type, FieldPlan source, SchemaPlan sourcePlan, boolean copyRules) {
      this.name = name;
      this.type = type;
      this.bson = source.bsonName();
      this.source = source;
      this.sourcePlan = sourcePlan;
      this.deprecated = source.deprecated();
      this.key = copyRules && source.key();
      this.required = copyRules && source.required() && !source.key();
      this.defaultText = defaultText(sourcePlan, source);
    }
  }

  private void run() {
    for (EnumPlan e : old.enums()) {
      Decl d = new Decl(e.name(), e.union() ? Sort.UNION : Sort.ENUM, false, true);
      d.underlying = e.underlying();
      if (e.union()) {
        for (int v = 1; v < e.members().size(); v++) {
          if (e.members().get(v) >= 0) {
            String member = old.tables().get(e.members().get(v)).name();
            d.members.add(member);
            String simple = member.substring(member.lastIndexOf('.') + 1);
            if (e.nameOf(v).equals(simple)) {
              d.memberText.put(member, simple); // its namespace's, as the union's is
            }
          }
        }
      } else {
        d.values.putAll(e.byName());
      }
      decls.put(d.name, d);
    }
    for (TablePlan t : old.tables()) {
      Decl d = new Decl(t.name(), t.struct() ? Sort.STRUCT : Sort.TABLE, t.wrapper(), true);
      if (t.struct()) {
        int natural = 1;
        for (FieldPlan f : t.fields()) {
          natural = Math.max(natural, old.alignment(f, f.kind()));
        }
        d.forceAlign = t.minAlign() > natural ? t.minAlign() : 0;
      }
      for (FieldPlan f : t.fields()) {
        if (!f.unionType()) {
          d.fields.add(new Field(f.name(), typeText(old, f), f, old, true));
        }
      }
      decls.put(d.name, d);
    }
    pair(old.record().name(), now.recordIndex(), "");
    while (!pairs.isEmpty()) {
      Object[] p = pairs.poll();
      merge((String) p[0], (Integer) p[1], (String) p[2]);
    }
    if (deprecateMissing) {
      deprecateMissing();
    }
  }

  /**
   * Merges the new table {@code newTable} into {@code into}, once; {@code path} is where the new
   * table's documents are in the data, as {@code infer} prints paths ({@code ""} for the records,
   * {@code a.b}, {@code items[]}), or null where the pairing does not follow the data.
   */
  private void pair(String into, int newTable, String path) {
    if (paired.add(into + "\u0000" + newTable)) {
      pairs.add(new Object[] {into, newTable, path});
    }
  }

  /** Appends to table {@code into} what the new table {@code newIndex} has that it lacks. */
  private void merge(String into, int newIndex, String path) {
    Decl d = decls.get(into);
    TablePlan t = now.tables().get(newIndex);
    Set<String> given = stillGiven.computeIfAbsent(into, k -> new HashSet<>());
    for (FieldPlan g : t.fields()) {
      if (g.deprecated() || g.unionType()) {
        continue;
      }
      given.add(g.bsonName());
      String at = path == null ? null : path.isEmpty() ? g.bsonName() : path + "." + g.bsonName();
      List<Field> group = new ArrayList<>();
      for (Field f : d.fields) {
        if (!f.deprecated && f.bson.equals(g.bsonName())) {
          group.add(f);
        }
      }
      if (!group.isEmpty() && at != null && nullOnly.contains(at)) {
        continue; // only nulls there now: any earlier field holds them
      }
      if (group.isEmpty()) {
        Field added =
            new Field(freeField(d, g.name()), translate(g), g, now, !d.fromOld && !d.wrapper);
        d.fields.add(added);
        if (d.fromOld) {
          changes.add("new field " + into + "." + added.name + ": " + added.type);
        }
        continue;
      }
      Field fits = null;
      boolean kept = false;
      for (Field f : group) {
        if (compatible(f.sourcePlan, f.source, g)) {
          fits = f;
          break;
        }
        FieldPlan member = keptMember(f.sourcePlan, f.source, g);
        if (member != null) {
          mergeInto(f, member, null); // it keeps the documents or arrays, with their new fields
          kept = true;
        }
      }
      FieldKind was = group.get(0).source.kind();
      Field added =
          fits != null
              ? null
              : new Field(freeField(d, group.get(0).name + "_v2"), translate(g), g, now, false);
      boolean routes = was.isScalar() || was == FieldKind.STRING || was == FieldKind.UNION;
      boolean pinned = group.stream().anyMatch(f -> f.required || f.key);
      if (fits != null) {
        mergeInto(fits, g, at);
      } else if (!routes && !pinned && !kept) {
        // a document or an array goes to the first field that takes documents or arrays, whatever
        // it holds: the earlier field cannot keep some of them, so it gives way
        for (Field f : group) {
          f.deprecated = true;
        }
        Field replacement = added;
        d.fields.add(replacement);
        changes.add(
            "deprecated "
                + into
                + "."
                + group.get(0).name
                + " ("
                + group.get(0).type
                + "), whose values no longer fit it, for new field "
                + into
                + "."
                + replacement.name
                + ": "
                + replacement.type
                + " (readers of the earlier schema find it absent)");
      } else {
        Field alternate = added;
        d.fields.add(alternate);
        changes.add(
            "new field "
                + into
                + "."
                + alternate.name
                + ": "
                + alternate.type
                + " for the values of '"
                + g.bsonName()
                + "' that "
                + into
                + "."
                + group.get(0).name
                + " ("
                + group.get(0).type
                + ") cannot hold; it keeps the ones it can");
      }
    }
  }

  /**
   * Where new field {@code g} is a union and earlier field {@code o} is a table, struct, map or
   * vector: the member that holds {@code o}'s BSON kind (documents, or arrays), when {@code o}
   * holds it and no other member takes that kind. The export gives every value of that kind to
   * {@code o}, the first field taking it (docs/mapping.md, "Names"), so {@code o} keeps them; else
   * null.
   */
  private FieldPlan keptMember(SchemaPlan op, FieldPlan o, FieldPlan g) {
    String kind = takes(op, o);
    if (g.kind() != FieldKind.UNION || kind == null) {
      return null;
    }
    EnumPlan u = now.enums().get(g.enumIndex());
    FieldPlan kept = null;
    for (int v = 1; v < u.members().size(); v++) {
      int m = u.members().get(v);
      if (m < 0) {
        continue;
      }
      FieldPlan w = now.tables().get(m).wrapped();
      if (!kind.equals(takes(now, w))) {
        continue;
      }
      if (kept != null || !compatible(op, o, w)) {
        return null;
      }
      kept = w;
    }
    return kept;
  }

  /** The BSON kind field {@code f} takes by type alone: "document", "array", or null. */
  private static String takes(SchemaPlan plan, FieldPlan f) {
    if (f.kind() == FieldKind.VECTOR) {
      return f.map() ? "document" : "array";
    }
    if ((f.kind() == FieldKind.TABLE || f.kind() == FieldKind.STRUCT)
        && !plan.tables().get(f.typeIndex()).wrapper()) {
      return "document";
    }
    return null;
  }

  /**
   * Merges into the evolved field {@code f} the types of new field {@code g}, which it holds;
   * {@code at} is {@code g}'s path in the data, or null.
   */
  private void mergeInto(Field f, FieldPlan g, String at) {
    FieldPlan o = f.source;
    SchemaPlan op = f.sourcePlan;
    if (o.kind() == FieldKind.UNION) {
      Decl u = decls.get(enumName(op, o));
      if (g.kind() == FieldKind.UNION) {
        EnumPlan gu = now.enums().get(g.enumIndex());
        for (int v = 1; v < gu.members().size(); v++) {
          int m = gu.members().get(v);
          if (m < 0 || shadowed(op, op.enums().get(o.enumIndex()), now.tables().get(m))) {
            continue; // an earlier member takes its values already: it would never be chosen
          }
          String member = translateTable(m);
          if (!u.members.contains(member)) {
            u.members.add(member);
            changes.add("new member " + member + " of union " + u.name);
          }
        }
      }
      return;
    }
    String table = objectName(op, o);
    if (table != null && g.typeIndex() >= 0 && !now.tables().get(g.typeIndex()).struct()) {
      TablePlan ot = op.tables().get(o.typeIndex());
      TablePlan gt = now.tables().get(g.typeIndex());
      if (ot.wrapper() && gt.wrapper()) {
        mergeInto(fieldOf(table, ot.wrapped()), gt.wrapped(), null);
      } else if (o.map() && g.map()) {
        mergeInto(fieldOf(table, ot.mapValue()), gt.mapValue(), null);
      } else if (!ot.wrapper() && !gt.wrapper()) {
        String inner = at == null ? null : g.kind() == FieldKind.VECTOR ? at + "[]" : at;
        pair(table, g.typeIndex(), inner);
      }
    }
    if (o.enumIndex() >= 0 && g.enumIndex() >= 0) {
      Decl e = decls.get(enumName(op, o));
      EnumPlan ge = now.enums().get(g.enumIndex());
      long next = e.values.values().stream().mapToLong(Long::longValue).max().orElse(-1) + 1;
      for (Map.Entry<String, Long> v : ge.byName().entrySet()) {
        if (!e.values.containsKey(v.getKey())) {
          long value = e.values.containsValue(v.getValue()) ? next++ : v.getValue();
          e.values.put(v.getKey(), value);
          changes.add("new value " + e.name + "." + v.getKey() + " = " + value);
        }
      }
    }
  }

  /** Whether a member of the earlier union {@code u} holds every value the new member holds. */
  private boolean shadowed(SchemaPlan op, EnumPlan u, TablePlan member) {
    if (decls.containsKey(member.name()) && decls.get(member.name()).fromOld) {
      return false; // the same member by name: merged as it is
    }
    for (int v = 1; v < u.members().size(); v++) {
      int table = u.members().get(v);
      if (table >= 0 && compatible(op, op.tables().get(table).wrapped(), member.wrapped())) {
        return true;
      }
    }
    return false;
  }

  private Field fieldOf(String table, FieldPlan source) {
    for (Field f : decls.get(table).fields) {
      if (f.source == source) {
        return f;
      }
    }
    throw new IllegalStateException(table + " has no field " + source.name());
  }

  /**
   * Whether field {@code o} of plan {@code op} holds every value new field {@code g} holds, once
   * merged into: a table takes any table (new fields are appended), a wider number a narrower one,
   * a union any value a member takes.
   */
  private boolean compatible(SchemaPlan op, FieldPlan o, FieldPlan g) {
    if (o.kind() == FieldKind.UNION) {
      if (g.kind() == FieldKind.UNION) {
        return true;
      }
      EnumPlan u = op.enums().get(o.enumIndex());
      for (int v = 1; v < u.members().size(); v++) {
        if (u.members().get(v) >= 0
            && compatible(op, op.tables().get(u.members().get(v)).wrapped(), g)) {
          return true;
        }
      }
      return false;
    }
    if (g.kind() == FieldKind.UNION) {
      return false;
    }
    if (o.kind() == FieldKind.VECTOR) {
      if (g.kind() != FieldKind.VECTOR || o.map() != g.map()) {
        return false;
      }
      if (o.map()) {
        return compatible(
            op,
            op.tables().get(o.typeIndex()).mapValue(),
            now.tables().get(g.typeIndex()).mapValue());
      }
      return element(op, o, o.element(), g, g.element());
    }
    if (g.kind() == FieldKind.VECTOR) {
      return false;
    }
    return element(op, o, o.kind(), g, g.kind());
  }

  /** {@link #compatible} of one value (a field's, or a vector's element's) of kinds given. */
  private boolean element(SchemaPlan op, FieldPlan o, FieldKind ok, FieldPlan g, FieldKind gk) {
    if ((o.enumIndex() >= 0) != (g.enumIndex() >= 0)) {
      return false;
    }
    if (o.enumIndex() >= 0) {
      return op.enums().get(o.enumIndex()).underlying()
              == now.enums().get(g.enumIndex()).underlying()
          && enumName(op, o).equals(now.enums().get(g.enumIndex()).name());
    }
    if (ok.isScalar() || gk.isScalar()) {
      return ok.isScalar() && gk.isScalar() && holds(ok, gk);
    }
    if (ok != gk) {
      return false;
    }
    return switch (ok) {
      case STRING -> true;
      case STRUCT -> sameStruct(op.tables().get(o.typeIndex()), now.tables().get(g.typeIndex()));
      case TABLE -> {
        TablePlan ot = op.tables().get(o.typeIndex());
        TablePlan gt = now.tables().get(g.typeIndex());
        yield ot.wrapper() == gt.wrapper()
            && (!ot.wrapper() || compatible(op, ot.wrapped(), gt.wrapped()));
      }
      default -> false;
    };
  }

  /** Whether a scalar of kind {@code wide} holds every value of kind {@code narrow}, exactly. */
  static boolean holds(FieldKind wide, FieldKind narrow) {
    if (wide == narrow) {
      return true;
    }
    if (wide.isInteger() && narrow.isInteger()) {
      boolean ulong = narrow == FieldKind.ULONG;
      return wide.min() <= narrow.min()
          && (wide == FieldKind.ULONG || (!ulong && narrow.max() <= wide.max()));
    }
    return switch (wide) {
      case DOUBLE -> narrow == FieldKind.FLOAT || (narrow.isInteger() && narrow.inlineSize() <= 4);
      case FLOAT -> narrow.isInteger() && narrow.inlineSize() <= 2;
      default -> false;
    };
  }

  private boolean sameStruct(TablePlan a, TablePlan b) {
    if (a.byteSize() != b.byteSize() || a.fields().size() != b.fields().size()) {
      return false;
    }
    for (int i = 0; i < a.fields().size(); i++) {
      FieldPlan x = a.fields().get(i);
      FieldPlan y = b.fields().get(i);
      if (x.slot() != y.slot() || x.kind() != y.kind() || !x.bsonName().equals(y.bsonName())) {
        return false;
      }
      if (x.kind() == FieldKind.STRUCT
          && !sameStruct(old.tables().get(x.typeIndex()), now.tables().get(y.typeIndex()))) {
        return false;
      }
    }
    return true;
  }

  /** Deprecates the old fields no paired new table gives, unless required or a key. */
  private void deprecateMissing() {
    for (Map.Entry<String, Set<String>> e : stillGiven.entrySet()) {
      Decl d = decls.get(e.getKey());
      for (Field f : d.fields) {
        if (f.deprecated || !d.fromOld || f.source.unionType() || e.getValue().contains(f.bson)) {
          continue;
        }
        if (f.required || f.key || f.source.required()) {
          changes.add(
              "kept "
                  + d.name
                  + "."
                  + f.name
                  + ": no document has it now, but it is required or a key, which old readers"
                  + " need");
          continue;
        }
        f.deprecated = true;
        changes.add("deprecated " + d.name + "." + f.name + ": no document has it now");
      }
    }
  }

  /** The evolved type text of new field {@code g}, its types translated into the evolved schema. */
  private String translate(FieldPlan g) {
    FieldKind kind = g.kind() == FieldKind.VECTOR ? g.element() : g.kind();
    String name;
    if (g.kind() == FieldKind.UNION) {
      name = translateEnum(g.enumIndex());
    } else if (g.enumIndex() >= 0) {
      name = translateEnum(g.enumIndex());
    } else if (g.typeIndex() >= 0) {
      name = translateTable(g.typeIndex());
    } else {
      name = kind.name().toLowerCase(Locale.ROOT);
    }
    return g.kind() == FieldKind.VECTOR ? "[" + name + "]" : name;
  }

  /** The evolved declaration the new table {@code index} goes into, made if needed. */
  private String translateTable(int index) {
    String done = tableOf.get(index);
    if (done != null) {
      return done;
    }
    TablePlan t = now.tables().get(index);
    Decl same = decls.get(t.name());
    if (isEntry(t)) { // a map's entry keeps two fields: an earlier one must hold its values
      TablePlan o = same == null ? null : oldTable(same.name);
      if (o != null && isEntry(o) && compatible(old, o.mapValue(), t.mapValue())) {
        tableOf.put(index, same.name);
        mergeInto(fieldOf(same.name, o.mapValue()), t.mapValue(), null);
        return same.name;
      }
      same = null;
    }
    if (same != null
        && same.sort == (t.struct() ? Sort.STRUCT : Sort.TABLE)
        && same.wrapper == t.wrapper()
        && (!t.struct() || sameStructDecl(same, t))
        && (!t.wrapper() || wrapperFits(same, t))) {
      tableOf.put(index, same.name);
      if (!t.struct() && !t.wrapper()) {
        pair(same.name, index, null);
      }
      return same.name;
    }
    String name = freeType(t.name());
    Decl d = new Decl(name, t.struct() ? Sort.STRUCT : Sort.TABLE, t.wrapper(), false);
    decls.put(name, d);
    tableOf.put(index, name);
    if (t.struct() || t.wrapper()) {
      for (FieldPlan f : t.fields()) {
        if (!f.unionType()) {
          d.fields.add(new Field(f.name(), translate(f), f, now, true));
        }
      }
    } else {
      pair(name, index, null);
    }
    return name;
  }

  /** Whether a table is a map's entry: a string key and one value. */
  private static boolean isEntry(TablePlan t) {
    return !t.struct()
        && t.key() != null
        && t.key().kind() == FieldKind.STRING
        && t.mapValue() != null
        && t.fields().stream().filter(f -> !f.deprecated()).count() == 2;
  }

  private boolean sameStructDecl(Decl d, TablePlan t) {
    TablePlan o = oldTable(d.name);
    return o != null && o.struct() && sameStruct(o, t);
  }

  /** Whether the old wrapper {@code d} holds what the new wrapper {@code t} holds. */
  private boolean wrapperFits(Decl d, TablePlan t) {
    TablePlan o = oldTable(d.name);
    return o != null ? compatible(old, o.wrapped(), t.wrapped()) : false;
  }

  private TablePlan oldTable(String name) {
    for (TablePlan t : old.tables()) {
      if (t.name().equals(name)) {
        return t;
      }
    }
    return null;
  }

  /** The evolved enum or union the new one {@code index} goes into, made or extended. */
  private String translateEnum(int index) {
    String done = enumOf.get(index);
    if (done != null) {
      return done;
    }
    EnumPlan e = now.enums().get(index);
    Decl same = decls.get(e.name());
    Sort sort = e.union() ? Sort.UNION : Sort.ENUM;
    String name;
    if (same != null && same.sort == sort && (e.union() || same.underlying == e.underlying())) {
      name = same.name;
      enumOf.put(index, name);
    } else {
      name = freeType(e.name());
      same = new Decl(name, sort, false, false);
      same.underlying = e.underlying();
      decls.put(name, same);
      enumOf.put(index, name);
    }
    if (e.union()) {
      for (int v = 1; v < e.members().size(); v++) {
        if (e.members().get(v) >= 0) {
          String member = translateTable(e.members().get(v));
          if (!same.members.contains(member)) {
            same.members.add(member);
            if (same.fromOld) {
              changes.add("new member " + member + " of union " + name);
            }
          }
        }
      }
    } else {
      long next = same.values.values().stream().mapToLong(Long::longValue).max().orElse(-1) + 1;
      for (Map.Entry<String, Long> v : e.byName().entrySet()) {
        if (!same.values.containsKey(v.getKey())) {
          same.values.put(
              v.getKey(), same.values.containsValue(v.getValue()) ? next++ : v.getValue());
        }
      }
    }
    return name;
  }

  /**
   * A name for a new type, free in every namespace: flatc resolves a name from a declaration's own
   * namespace outwards, so a new {@code E} referred to from {@code namespace geo.v1} would be an
   * earlier {@code geo.v1.E}.
   */
  private String freeType(String name) {
    if (!typeNameTaken(name)) {
      return name;
    }
    for (int n = 2; ; n++) {
      if (!typeNameTaken(name + n)) {
        return name + n;
      }
    }
  }

  private boolean typeNameTaken(String name) {
    String simple = name.substring(name.lastIndexOf('.') + 1);
    for (String taken : decls.keySet()) {
      if (taken.equals(name) || taken.substring(taken.lastIndexOf('.') + 1).equals(simple)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A field name of {@code d} free for {@code wanted}, also beside the names flatc derives ({@code
   * x_type} of a union, {@code x_length} ...).
   */
  private static String freeField(Decl d, String wanted) {
    Set<String> taken = new HashSet<>();
    for (Field f : d.fields) {
      taken.add(f.name);
      taken.add(f.name + "_type");
    }
    String base = wanted;
    String name = base;
    for (int n = 2; taken.contains(name) || taken.contains(name + "_type"); n++) {
      name = base.replaceFirst("_v\\d+$", "") + "_v" + n;
    }
    return name;
  }

  private static String typeText(SchemaPlan plan, FieldPlan f) {
    FieldKind kind = f.kind() == FieldKind.VECTOR ? f.element() : f.kind();
    String name;
    if (f.enumIndex() >= 0) {
      name = plan.enums().get(f.enumIndex()).name();
    } else if (f.typeIndex() >= 0) {
      name = plan.tables().get(f.typeIndex()).name();
    } else {
      name = kind.name().toLowerCase(Locale.ROOT);
    }
    return f.kind() == FieldKind.VECTOR ? "[" + name + "]" : name;
  }

  private static String enumName(SchemaPlan plan, FieldPlan f) {
    return plan.enums().get(f.enumIndex()).name();
  }

  private static String objectName(SchemaPlan plan, FieldPlan f) {
    return f.typeIndex() >= 0 ? plan.tables().get(f.typeIndex()).name() : null;
  }

  /** {@code = default} as the schema declares it, or "" for a default of zero. */
  private static String defaultText(SchemaPlan plan, FieldPlan f) {
    if (!f.kind().isScalar() || f.unionType()) {
      return "";
    }
    if (f.optional()) {
      return " = null";
    }
    if (f.kind() == FieldKind.FLOAT || f.kind() == FieldKind.DOUBLE) {
      double d = f.defaultReal();
      if (d == 0 && Double.doubleToRawLongBits(d) == 0) {
        return "";
      }
      return " = "
          + (Double.isNaN(d)
              ? "nan"
              : Double.isInfinite(d) ? (d > 0 ? "inf" : "-inf") : Double.toString(d));
    }
    long v = f.defaultInteger();
    if (v == 0) {
      return "";
    }
    if (f.enumIndex() >= 0) {
      String name = plan.enums().get(f.enumIndex()).nameOf(v);
      if (name != null) {
        return " = " + name;
      }
    }
    if (f.kind() == FieldKind.BOOL) {
      return " = true";
    }
    return " = " + (f.kind() == FieldKind.ULONG ? Long.toUnsignedString(v) : Long.toString(v));
  }

  private String render() {
    StringBuilder out = new StringBuilder();
    out.append("// Evolved by flatdump infer --evolve: every field of the earlier schema keeps its")
        .append(" id and type;\n// what the data now needs comes after it.\n");
    out.append("attribute \"bson\";\nattribute \"map\";\nattribute \"wrapper\";\n");
    List<Decl> ordered = new ArrayList<>(decls.values());
    // by namespace; in each, enums and unions before the tables (flatc needs them declared first)
    ordered.sort(
        java.util.Comparator.comparing((Decl d) -> namespace(d.name))
            .thenComparingInt(d -> d.sort == Sort.ENUM ? 0 : d.sort == Sort.UNION ? 1 : 2));
    String ns = "";
    for (Decl d : ordered) {
      String n = namespace(d.name);
      if (!n.equals(ns)) {
        out.append("\nnamespace ").append(n).append(";\n");
        ns = n;
      }
      out.append('\n');
      renderDecl(d, out);
    }
    out.append("\nroot_type ").append(old.root().name()).append(";\n");
    if (old.fileIdentifier() != null) {
      out.append("file_identifier \"").append(old.fileIdentifier()).append("\";\n");
    }
    return out.toString();
  }

  private static void renderDecl(Decl d, StringBuilder out) {
    String simple = d.name.substring(d.name.lastIndexOf('.') + 1);
    switch (d.sort) {
      case ENUM -> {
        out.append("enum ")
            .append(simple)
            .append(" : ")
            .append(d.underlying.name().toLowerCase(Locale.ROOT))
            .append(" {\n");
        List<Map.Entry<String, Long>> values = new ArrayList<>(d.values.entrySet());
        values.sort(Map.Entry.comparingByValue());
        for (int i = 0; i < values.size(); i++) {
          out.append("  ")
              .append(values.get(i).getKey())
              .append(" = ")
              .append(values.get(i).getValue())
              .append(i + 1 < values.size() ? ",\n" : "\n");
        }
        out.append("}\n");
      }
      case UNION -> {
        out.append("union ").append(simple).append(" { ");
        out.append(
            String.join(
                ", ", d.members.stream().map(m -> d.memberText.getOrDefault(m, m)).toList()));
        out.append(" }\n");
      }
      case TABLE, STRUCT -> {
        out.append(d.sort == Sort.STRUCT ? "struct " : "table ").append(simple);
        List<String> attributes = new ArrayList<>();
        if (d.wrapper) {
          attributes.add("wrapper");
        }
        if (d.forceAlign > 0) {
          attributes.add("force_align: " + d.forceAlign);
        }
        if (!attributes.isEmpty()) {
          out.append(" (").append(String.join(", ", attributes)).append(')');
        }
        out.append(" {\n");
        for (Field f : d.fields) {
          out.append("  ").append(f.name).append(": ").append(f.type); // names in full
          out.append(f.defaultText);
          List<String> a = new ArrayList<>();
          if (!f.bson.equals(f.name)) {
            a.add("bson: \"" + f.bson.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
          }
          if (f.key) {
            a.add("key");
          }
          if (f.required) {
            a.add("required");
          }
          if (f.source.map()) {
            a.add("map");
          }
          if (f.deprecated) {
            a.add("deprecated");
          }
          if (!a.isEmpty()) {
            out.append(" (").append(String.join(", ", a)).append(')');
          }
          out.append(";\n");
        }
        out.append("}\n");
      }
      default -> throw new IllegalStateException(d.sort.toString());
    }
  }

  private static String namespace(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "" : name.substring(0, dot);
  }
}
