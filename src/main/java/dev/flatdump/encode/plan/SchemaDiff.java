package dev.flatdump.encode.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether code generated for one schema can read data written with another: what FlatBuffers keeps
 * compatible and what it does not, field by field. A reader finds a table's field by its id (its
 * vtable slot) and takes the field's default when the slot is empty, so a field keeps its id, its
 * type and its default for good; new fields come after the old ones; a struct never changes. A
 * change that an old reader survives (a new field, a renamed one, a deprecated one, a new enum
 * value) is listed as compatible.
 *
 * <p>Compared over what the root reaches in each schema, tables and enums matched by their fully
 * qualified names: a renamed type is a type change of every field that holds it.
 */
public final class SchemaDiff {

  /**
   * One difference.
   *
   * @param where the type and field, e.g. {@code geo.State.population (id 3)}
   * @param what what changed, e.g. {@code type int → long}
   * @param breaking whether code generated for the old schema misreads data written with the new
   */
  public record Change(String where, String what, boolean breaking) {
    public Change {
      Objects.requireNonNull(where, "Change.where");
      Objects.requireNonNull(what, "Change.what");
    }

    @Override
    public String toString() {
      return (breaking ? "breaking: " : "compatible: ") + where + ": " + what;
    }
  }

  private final SchemaPlan before;
  private final SchemaPlan after;
  private final List<Change> changes = new ArrayList<>();

  private SchemaDiff(SchemaPlan before, SchemaPlan after) {
    this.before = before;
    this.after = after;
  }

  /** What changed from {@code before} to {@code after}, breaking changes first. */
  public static List<Change> between(SchemaPlan before, SchemaPlan after) {
    SchemaDiff diff = new SchemaDiff(before, after);
    diff.compare();
    List<Change> sorted = new ArrayList<>(diff.changes);
    sorted.sort((a, b) -> Boolean.compare(b.breaking(), a.breaking()));
    return List.copyOf(sorted);
  }

  private void compare() {
    if (!before.root().name().equals(after.root().name())) {
      breaking("root_type", before.root().name() + " → " + after.root().name());
    }
    if (!Objects.equals(before.fileIdentifier(), after.fileIdentifier())) {
      breaking(
          "file_identifier",
          quoted(before.fileIdentifier())
              + " → "
              + quoted(after.fileIdentifier())
              + " (readers that check it refuse the new files)");
    }
    Map<String, TablePlan> afterTables = new HashMap<>();
    after.tables().forEach(t -> afterTables.put(t.name(), t));
    for (TablePlan old : before.tables()) {
      TablePlan now = afterTables.get(old.name());
      if (now == null) {
        continue; // only reachable through a field, whose type change says it
      }
      if (old.struct() || now.struct()) {
        compareStructs(old, now);
      } else {
        compareTables(old, now);
      }
    }
    Map<String, EnumPlan> afterEnums = new HashMap<>();
    after.enums().forEach(e -> afterEnums.put(e.name(), e));
    for (EnumPlan old : before.enums()) {
      EnumPlan now = afterEnums.get(old.name());
      if (now != null) {
        compareEnums(old, now);
      }
    }
  }

  private void compareTables(TablePlan old, TablePlan now) {
    Map<Integer, FieldPlan> byId = new HashMap<>();
    now.fields().forEach(f -> byId.put(f.id(), f));
    for (FieldPlan o : old.fields()) {
      String where = old.name() + "." + o.name() + " (id " + o.id() + ")";
      FieldPlan n = byId.remove(o.id());
      if (o.deprecated()) {
        continue; // old readers never read it
      }
      boolean gone = n == null || n.deprecated();
      if (gone && o.required()) {
        breaking(
            where,
            (n == null ? "no longer in the schema" : "deprecated")
                + ", but required (old readers' verifiers refuse a record without it)");
        continue;
      }
      if (n == null) {
        compatible(where, "no longer in the schema: old readers read its default");
        continue;
      }
      if (!type(before, o).equals(type(after, n))) {
        breaking(where, "type " + type(before, o) + " → " + type(after, n));
        continue;
      }
      if (n.deprecated()) {
        compatible(where, "deprecated: no longer written, old readers read its default");
        continue;
      }
      if (!o.bsonName().equals(n.bsonName())) {
        breaking(
            where,
            "now holds BSON field "
                + n.bsonName()
                + " where it held "
                + o.bsonName()
                + " (old readers would read one field's values as the other's)");
        continue;
      }
      if (!o.name().equals(n.name())) {
        compatible(where, "renamed to " + n.name() + " (the same slot, type and BSON field)");
      }
      if (o.kind().isScalar() && !defaultOf(o).equals(defaultOf(n))) {
        breaking(
            where,
            "default "
                + defaultOf(o)
                + " → "
                + defaultOf(n)
                + " (a value left out for its new default reads as the old one)");
      }
      if (o.key() != n.key()) {
        breaking(
            where,
            (n.key() ? "now" : "no longer")
                + " the key (old readers' ...ByKey lookups expect vectors in the old order)");
      }
      if (o.required() && !n.required()) {
        breaking(where, "no longer required (old readers' verifiers refuse a record without it)");
      } else if (!o.required() && n.required()) {
        compatible(where, "now required");
      }
    }
    byId.values().stream()
        .sorted((a, b) -> Integer.compare(a.id(), b.id()))
        .forEach(
            n ->
                compatible(
                    now.name() + "." + n.name() + " (id " + n.id() + ")",
                    "new field: old readers skip it"));
  }

  private void compareStructs(TablePlan old, TablePlan now) {
    if (old.struct() != now.struct()) {
      breaking(old.name(), (old.struct() ? "a struct" : "a table") + " becomes the other");
      return;
    }
    boolean same = old.byteSize() == now.byteSize() && old.fields().size() == now.fields().size();
    for (int i = 0; same && i < old.fields().size(); i++) {
      FieldPlan o = old.fields().get(i);
      FieldPlan n = now.fields().get(i);
      same =
          o.slot() == n.slot()
              && o.bsonName().equals(n.bsonName())
              && type(before, o).equals(type(after, n));
    }
    if (!same) {
      breaking(old.name(), "the struct's layout changed (a struct can never change)");
    }
  }

  private void compareEnums(EnumPlan old, EnumPlan now) {
    if (old.underlying() != now.underlying()) {
      breaking(
          old.name(),
          "underlying type "
              + old.underlying().name().toLowerCase(java.util.Locale.ROOT)
              + " → "
              + now.underlying().name().toLowerCase(java.util.Locale.ROOT));
      return;
    }
    old.byName().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> {
              Long value = now.byName().get(e.getKey());
              if (value == null) {
                compatible(old.name() + "." + e.getKey(), "no longer a value");
              } else if (!value.equals(e.getValue())) {
                breaking(old.name() + "." + e.getKey(), "value " + e.getValue() + " → " + value);
              }
            });
    now.byName().entrySet().stream()
        .filter(e -> !old.byName().containsKey(e.getKey()))
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e ->
                compatible(
                    old.name() + "." + e.getKey(),
                    "new value " + e.getValue() + ": old readers see a number they do not name"));
  }

  /** A field's type as a reader sees it, e.g. {@code int}, {@code [geo.City]}, {@code Color}. */
  private static String type(SchemaPlan plan, FieldPlan f) {
    FieldKind kind = f.kind() == FieldKind.VECTOR ? f.element() : f.kind();
    String name;
    if (f.enumIndex() >= 0) {
      name = plan.enums().get(f.enumIndex()).name() + ":" + kindName(kind);
    } else if (f.typeIndex() >= 0) {
      name = plan.tables().get(f.typeIndex()).name();
    } else {
      name = kindName(kind);
    }
    return f.kind() == FieldKind.VECTOR ? "[" + name + "]" : name;
  }

  private static String kindName(FieldKind kind) {
    return kind.name().toLowerCase(java.util.Locale.ROOT);
  }

  private static String defaultOf(FieldPlan f) {
    if (f.optional()) {
      return "null";
    }
    return f.kind() == FieldKind.FLOAT || f.kind() == FieldKind.DOUBLE
        ? String.valueOf(f.defaultReal())
        : String.valueOf(f.defaultInteger());
  }

  private static String quoted(String s) {
    return s == null ? "none" : "\"" + s + "\"";
  }

  private void breaking(String where, String what) {
    changes.add(new Change(where, what, true));
  }

  private void compatible(String where, String what) {
    changes.add(new Change(where, what, false));
  }
}
