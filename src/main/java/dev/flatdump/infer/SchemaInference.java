package dev.flatdump.infer;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.bson.BsonDocument;
import org.bson.BsonType;

/**
 * Infers a FlatBuffers schema from documents: each path gets the type that holds every value seen
 * there without loss by docs/mapping.md's rules, and the schema has the one shape {@code export}
 * needs (a root table with one vector of record tables). Where no one type holds them all, the
 * majority's type is chosen, so that {@code export} rejects the other documents, and the path is
 * listed as a {@link Conflict}. Feed it documents with {@link #add}, then call {@link #schema}; the
 * same documents in the same order give the same bytes. Not thread-safe; holds counts per path,
 * never the documents.
 */
public final class SchemaInference {

  /** The BSON types that one field kind can share, in the order ties are decided. */
  enum Kind {
    NUMBER,
    TEXT,
    BOOL,
    DOCUMENT,
    ARRAY,
    BINARY,
    TIMESTAMP,
    OTHER;

    static Kind of(BsonType t) {
      return switch (t) {
        case INT32, INT64, DOUBLE, DATE_TIME -> NUMBER;
        case STRING, OBJECT_ID, DECIMAL128 -> TEXT;
        case BOOLEAN -> BOOL;
        case DOCUMENT -> DOCUMENT;
        case ARRAY -> ARRAY;
        case BINARY -> BINARY;
        case TIMESTAMP -> TIMESTAMP;
        default -> OTHER;
      };
    }
  }

  /**
   * A path whose values no one type holds without loss, or that this version cannot type.
   *
   * @param path the path ({@code skins[].tone})
   * @param seen the BSON types seen there, with their counts
   * @param chosen what the schema does with it, and what {@code export} then does
   */
  public record Conflict(String path, String seen, String chosen) {
    @Override
    public String toString() {
      return path + ": " + seen + "; " + chosen;
    }
  }

  /**
   * @param fbs the schema's text
   * @param documents how many documents it was inferred from
   * @param conflicts the conflicts, in the order of their paths' first appearance
   */
  public record InferredSchema(String fbs, long documents, List<Conflict> conflicts) {
    public InferredSchema {
      Objects.requireNonNull(fbs, "InferredSchema.fbs");
      conflicts = List.copyOf(conflicts);
    }
  }

  private final TableStats records = new TableStats();
  private final boolean narrowIntegers;
  private final List<Conflict> conflicts = new ArrayList<>();

  /**
   * @param narrowIntegers give integers the smallest signed width that holds the values seen,
   *     instead of {@code int} (int32 only) or {@code long}
   */
  public SchemaInference(boolean narrowIntegers) {
    this.narrowIntegers = narrowIntegers;
  }

  /** Counts one document's paths. */
  public void add(BsonDocument document) {
    records.add(document);
  }

  /** How many documents were added. */
  public long documents() {
    return records.seen;
  }

  /**
   * The schema of the documents added so far.
   *
   * @param collection the collection's name, which names the root table, its vector and the record
   *     table
   * @param source what was read, for the header comment ({@code shop.orgs, every document})
   */
  public InferredSchema schema(String collection, String source) {
    conflicts.clear();
    Shape record = shape(records, "", collection, true);
    String text = new SchemaText(collection, source, records.seen, record, conflicts).render();
    return new InferredSchema(text, records.seen, conflicts);
  }

  private Shape shape(TableStats t, String path, String segment, boolean element) {
    List<Shape.Field> fields = new ArrayList<>();
    for (Map.Entry<String, ValueStats> e : t.fields.entrySet()) {
      String child = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
      if (e.getKey().isEmpty()) {
        // a schema cannot name it: a field's bson attribute may not be empty
        conflicts.add(
            new Conflict(
                child,
                Comments.types(List.of(e.getValue())),
                "a field with an empty name: left out (export skips it; --strict rejects its"
                    + " documents)"));
        continue;
      }
      FieldType type = decide(e.getValue(), child, e.getKey(), t.seen);
      if (type != null) {
        fields.add(new Shape.Field(e.getKey(), type, e.getValue()));
      }
    }
    return new Shape(path, segment, element, t, List.copyOf(fields));
  }

  /**
   * The type of the values at {@code path}, or null when none is written (the path is then a
   * conflict); {@code tableSeen} is how many tables hold the path, 0 for a vector's elements.
   */
  private FieldType decide(ValueStats v, String path, String segment, long tableSeen) {
    if (v.values() == 0) {
      return FieldType.of("string", "always null: any type holds it");
    }
    Map<Kind, Long> kinds = new EnumMap<>(Kind.class);
    v.types.forEach((t, n) -> kinds.merge(Kind.of(t), n, Long::sum));
    Kind chosen = null;
    for (Map.Entry<Kind, Long> k : kinds.entrySet()) {
      if (chosen == null
          || (k.getKey() != Kind.OTHER
              && (chosen == Kind.OTHER || k.getValue() > kinds.get(chosen)))) {
        chosen = k.getKey();
      }
    }
    FieldType type =
        switch (chosen) {
          case NUMBER -> number(v, path);
          case TEXT -> FieldType.of("string", textNote(v));
          case BOOL -> FieldType.of("bool", null);
          case BINARY -> FieldType.of("[ubyte]", "binary: its payload");
          case TIMESTAMP -> FieldType.of("ulong", "timestamp: its 64 bits");
          case DOCUMENT ->
              new FieldType(null, shape(v.table(), path, segment, false), null, false, null);
          case ARRAY -> vector(v, path, segment);
          case OTHER -> null;
        };
    if (type == null && chosen == Kind.OTHER) {
      conflicts.add(
          new Conflict(
              path,
              Comments.types(List.of(v)),
              "no field kind holds it: left out (export skips it; --strict rejects its documents)"));
      return null;
    }
    boolean listed =
        !conflicts.isEmpty() && conflicts.get(conflicts.size() - 1).path().equals(path);
    if (kinds.size() > 1 && type != null && !listed) {
      conflicts.add(
          new Conflict(
              path,
              Comments.types(List.of(v)),
              "chose "
                  + Comments.typeText(type)
                  + ", the majority: export rejects the documents with another type here"));
    }
    if (type != null && type.scalar() && v.values() < tableSeen) {
      type = type.optional(true);
    }
    return type;
  }

  private FieldType vector(ValueStats v, String path, String segment) {
    ValueStats e = v.elements();
    if (e.present == 0) {
      return new FieldType(
          null, null, FieldType.of("string", null), false, "always empty: any vector holds it");
    }
    String elements = path + "[]";
    if (e.nulls > 0) {
      conflicts.add(
          new Conflict(
              elements,
              Comments.types(List.of(e)),
              "a vector holds no null: export rejects the documents with a null element"));
    }
    FieldType element = decide(e, elements, segment, 0);
    if (element == null) {
      return null;
    }
    if (element.element() != null || "[ubyte]".equals(element.text())) {
      conflicts.add(
          new Conflict(
              elements,
              Comments.types(List.of(e)),
              "arrays of arrays or of binary are not inferred yet: left out (export skips it;"
                  + " --strict rejects its documents)"));
      return null;
    }
    if (element.table() != null) {
      Shape s = element.table();
      element =
          new FieldType(
              null, new Shape(s.path(), segment, true, s.stats(), s.fields()), null, false, null);
    }
    return new FieldType(null, null, element, false, null);
  }

  private FieldType number(ValueStats v, String path) {
    long int32 = v.count(BsonType.INT32);
    long int64 = v.count(BsonType.INT64);
    long dates = v.count(BsonType.DATE_TIME);
    long doubles = v.count(BsonType.DOUBLE);
    String dateNote = dates > 0 ? "a date maps to long: ms since the epoch" : null;
    if (doubles == 0) {
      if (dates == 0 && narrowIntegers) {
        return FieldType.of(narrowest(v.minInt, v.maxInt), "range " + v.minInt + ".." + v.maxInt);
      }
      return FieldType.of(int64 == 0 && dates == 0 ? "int" : "long", dateNote);
    }
    if (int32 + int64 + dates == 0) {
      return FieldType.of("double", null);
    }
    if (dates == 0 && v.intsBeyondDouble == 0) {
      return FieldType.of("double", "every integer seen is exactly a double");
    }
    if (v.fractionalDoubles == 0) {
      return FieldType.of("long", join(dateNote, "every double seen is an integer"));
    }
    String seen = Comments.types(List.of(v));
    if (doubles > int32 + int64 + dates) {
      conflicts.add(
          new Conflict(
              path,
              seen,
              "chose double, the majority: export rejects the documents with a date or an"
                  + " integer no double holds exactly"));
      return FieldType.of("double", null);
    }
    conflicts.add(
        new Conflict(
            path,
            seen,
            "chose long, the majority: export rejects the documents with a double that is not"
                + " an integer"));
    return FieldType.of("long", dateNote);
  }

  private static String join(String a, String b) {
    return a == null ? b : a + "; " + b;
  }

  private static String textNote(ValueStats v) {
    List<String> notes = new ArrayList<>();
    if (v.count(BsonType.OBJECT_ID) > 0) {
      notes.add("an ObjectId maps to its 24 hex digits");
    }
    if (v.count(BsonType.DECIMAL128) > 0) {
      notes.add("a decimal128 maps to its canonical text");
    }
    return notes.isEmpty() ? null : String.join("; ", notes);
  }

  static String narrowest(long min, long max) {
    if (min >= Byte.MIN_VALUE && max <= Byte.MAX_VALUE) {
      return "byte";
    }
    if (min >= Short.MIN_VALUE && max <= Short.MAX_VALUE) {
      return "short";
    }
    if (min >= Integer.MIN_VALUE && max <= Integer.MAX_VALUE) {
      return "int";
    }
    return "long";
  }
}
