package dev.flatdump.infer;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.bson.BsonDocument;
import org.bson.BsonType;

/**
 * Infers a FlatBuffers schema from documents: each path gets the type that holds every value seen
 * there without loss by docs/mapping.md's rules, and the schema has the one shape {@code export}
 * needs (a root table with one vector of record tables). Where no one type holds them all, a union
 * of wrappers holds each value in its own type, and the path is listed as a {@link Conflict}. Feed
 * it documents with {@link #add}, then call {@link #schema}; the same documents in the same order
 * give the same bytes. Not thread-safe; holds counts per path, never the documents.
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
   * @param maps the paths written as maps, each with why ({@code currencies: 162 keys, each a
   *     code})
   * @param unusedOverrides {@code --map} and {@code --no-map} paths that named no sub-document
   * @param nullOnly the paths that held only nulls (written as {@code string}, which holds them),
   *     which {@code --evolve} leaves to the earlier schema's field
   */
  public record InferredSchema(
      String fbs,
      long documents,
      List<Conflict> conflicts,
      List<String> maps,
      List<String> unusedOverrides,
      Set<String> nullOnly) {
    public InferredSchema {
      Objects.requireNonNull(fbs, "InferredSchema.fbs");
      conflicts = List.copyOf(conflicts);
      maps = List.copyOf(maps);
      unusedOverrides = List.copyOf(unusedOverrides);
      nullOnly = Set.copyOf(nullOnly);
    }
  }

  /**
   * What {@code infer} decides beside the data.
   *
   * @param narrowIntegers give integers the smallest signed width that holds the values seen,
   *     instead of {@code int} (int32 only) or {@code long}
   * @param maps paths written as maps whatever their keys ({@code --map}), as infer prints paths
   *     ({@code name.native}, {@code items[].attrs}, {@code currencies.*.names})
   * @param noMaps paths written as tables whatever their keys ({@code --no-map})
   * @param noId whether the record table leaves out the documents' {@code _id} ({@code --no-id}),
   *     which export then skips
   */
  public record Options(
      boolean narrowIntegers, Set<String> maps, Set<String> noMaps, boolean noId) {
    public Options(boolean narrowIntegers, Set<String> maps, Set<String> noMaps) {
      this(narrowIntegers, maps, noMaps, false);
    }

    public Options {
      maps = Set.copyOf(maps);
      noMaps = Set.copyOf(noMaps);
      Set<String> both = new TreeSet<>(maps);
      both.retainAll(noMaps);
      if (!both.isEmpty()) {
        throw new IllegalArgumentException(
            "--map and --no-map both name " + String.join(", ", both));
      }
    }

    public static Options defaults() {
      return new Options(false, Set.of(), Set.of());
    }
  }

  private final TableStats records = new TableStats();
  private final Options options;
  private final List<Conflict> conflicts = new ArrayList<>();

  /** The union each conflict chose, by the conflict's index, named once the schema is written. */
  private final Map<Integer, FieldType> conflictUnions = new HashMap<>();

  private final List<String> maps = new ArrayList<>();

  /**
   * The paths that held only nulls, which {@code --evolve} keeps as the earlier schema has them.
   */
  private final Set<String> nullOnly = new java.util.TreeSet<>();

  private final Set<String> overridesUsed = new HashSet<>();

  /**
   * @param narrowIntegers give integers the smallest signed width that holds the values seen,
   *     instead of {@code int} (int32 only) or {@code long}
   */
  public SchemaInference(boolean narrowIntegers) {
    this(new Options(narrowIntegers, Set.of(), Set.of()));
  }

  public SchemaInference(Options options) {
    this.options = Objects.requireNonNull(options, "options");
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
    conflictUnions.clear();
    maps.clear();
    nullOnly.clear();
    overridesUsed.clear();
    Shape record = shape(records, "", collection, true);
    SchemaText text = new SchemaText(collection, source, records.seen, record, conflicts, maps);
    String fbs = text.render(this::conflictText);
    List<String> unused = new ArrayList<>();
    for (String p : new TreeSet<>(options.maps())) {
      if (!overridesUsed.contains(p)) {
        unused.add("--map " + p);
      }
    }
    for (String p : new TreeSet<>(options.noMaps())) {
      if (!overridesUsed.contains(p)) {
        unused.add("--no-map " + p);
      }
    }
    List<Conflict> named = new ArrayList<>();
    for (int i = 0; i < conflicts.size(); i++) {
      named.add(conflictText(i, text));
    }
    return new InferredSchema(fbs, records.seen, named, maps, unused, nullOnly);
  }

  /** Conflict {@code i} with the union it chose named as the schema names it. */
  private Conflict conflictText(int i, SchemaText text) {
    Conflict c = conflicts.get(i);
    FieldType union = conflictUnions.get(i);
    return union == null
        ? c
        : new Conflict(c.path(), c.seen(), c.chosen().replace(UNION, text.declaration(union)));
  }

  /** Where a conflict's text names its union, until the schema has named it. */
  private static final String UNION = "\u0000union";

  private Shape shape(TableStats t, String path, String segment, boolean element) {
    List<Shape.Field> fields = new ArrayList<>();
    for (Map.Entry<String, ValueStats> e : t.fields.entrySet()) {
      String child = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
      if (options.noId() && t == records && e.getKey().equals("_id")) {
        continue; // --no-id: export skips a record's _id the schema does not name
      }
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
      FieldType type = decide(e.getValue(), child, e.getKey(), Names.table(e.getKey(), false));
      if (type != null) {
        if (type.scalar() && e.getValue().values() < t.seen) {
          type = type.optional(true);
        }
        fields.add(new Shape.Field(e.getKey(), type, e.getValue()));
      }
    }
    if (t.rest != null) {
      conflicts.add(
          new Conflict(
              path + ".*",
              Comments.types(List.of(t.rest)),
              "more than "
                  + TableStats.MAX_FIELDS
                  + " distinct field names and --no-map: the fields past them are left out"
                  + " (export skips them; --strict rejects their documents)"));
    }
    return new Shape(path, segment, element, t, List.copyOf(fields));
  }

  /**
   * The type of the values at {@code path}, or null when none is written (the path is then a
   * conflict). {@code segment} is the path's last field name, which names its tables; {@code hint}
   * names a union written here and its members ({@code CreatedAt}).
   */
  private FieldType decide(ValueStats v, String path, String segment, String hint) {
    if (v.values() == 0) {
      nullOnly.add(path);
      return FieldType.of("string", "always null: any type holds it");
    }
    Map<Kind, Long> kinds = new EnumMap<>(Kind.class);
    v.types.forEach((t, n) -> kinds.merge(Kind.of(t), n, Long::sum));
    Long other = kinds.remove(Kind.OTHER);
    String seen = Comments.types(List.of(v));
    if (kinds.isEmpty()) {
      conflicts.add(
          new Conflict(
              path,
              seen,
              "no field kind holds it: left out (export skips it; --strict rejects its documents)"));
      return null;
    }
    FieldType type;
    if (kinds.size() == 1) {
      type = single(kinds.keySet().iterator().next(), v, path, segment, hint);
    } else {
      type = union(kinds.keySet(), v, path, segment, hint);
    }
    if (type.form() == FieldType.Form.UNION) {
      conflictUnions.put(conflicts.size(), type);
      conflicts.add(
          new Conflict(
              path,
              seen,
              "a "
                  + UNION
                  + ": each value keeps its own type, no document is rejected for it"
                  + (other == null ? "" : "; export rejects the documents with the others")));
    } else if (other != null) {
      conflicts.add(
          new Conflict(
              path,
              seen,
              "chose "
                  + Comments.typeText(type)
                  + ": no field kind holds the others, export rejects their documents"));
    }
    return type;
  }

  /** The type of values of one kind. */
  private FieldType single(Kind kind, ValueStats v, String path, String segment, String hint) {
    return switch (kind) {
      case NUMBER -> number(v, path, hint);
      case TEXT -> FieldType.of("string", textNote(v));
      case BOOL -> FieldType.of("bool", null);
      case BINARY -> FieldType.of("[ubyte]", "binary: its payload");
      case TIMESTAMP -> FieldType.of("ulong", "timestamp: its 64 bits");
      case DOCUMENT -> document(v.table(), path, segment);
      case ARRAY -> vector(v, path, segment);
      case OTHER -> throw new IllegalStateException("no type for " + path);
    };
  }

  /**
   * A union of one wrapper per kind, in {@link Kind}'s order (numbers first), each named {@code
   * hint} and what it holds ({@code CreatedAtString}): export chooses the member by the BSON type
   * of each value, which these members take exactly or, for int32 in a {@code long} or {@code
   * double}, without loss (docs/mapping.md).
   */
  private FieldType union(Set<Kind> kinds, ValueStats v, String path, String segment, String hint) {
    List<FieldType> members = new ArrayList<>();
    for (Kind k : kinds) {
      // a member's table is named apart from the union, which takes the path's name
      String named = k == Kind.DOCUMENT ? segment + "_object" : segment;
      FieldType value = single(k, v, path, named, hint);
      if (value.form() == FieldType.Form.UNION) {
        members.addAll(value.members()); // numbers no one type holds: their long and double
      } else {
        members.add(FieldType.wrapper(hint + memberSuffix(k, value), value, null));
      }
    }
    return FieldType.union(hint, members, v);
  }

  private static String memberSuffix(Kind k, FieldType value) {
    return switch (k) {
      case NUMBER -> Character.toUpperCase(value.text().charAt(0)) + value.text().substring(1);
      case TEXT -> "String";
      case BOOL -> "Bool";
      case BINARY -> "Bytes";
      case TIMESTAMP -> "Timestamp";
      case DOCUMENT -> value.form() == FieldType.Form.MAP ? "Map" : "Document";
      case ARRAY -> "List";
      case OTHER -> "Other";
    };
  }

  /** A table, or a map when the keys are data (or {@code --map} says so). */
  private FieldType document(TableStats t, String path, String segment) {
    String why = null;
    if (options.maps().contains(path)) {
      overridesUsed.add(path);
      why = "--map";
    } else if (options.noMaps().contains(path)) {
      overridesUsed.add(path);
    } else {
      why = MapKeys.why(t);
      if (why != null && t.rest == null && !MapKeys.onlyData(t) && !alike(t)) {
        why = null; // field names after all (codes, rare keys): their values are of several kinds
      }
    }
    if (why == null) {
      return FieldType.table(shape(t, path, segment, false));
    }
    ValueStats values = t.values();
    String valuePath = path + ".*";
    String valueHint = Names.table(segment, true) + "Value";
    FieldType value = decide(values, valuePath, segment, valueHint);
    if (value == null) {
      value = FieldType.of("string", "no field kind holds its values: left out");
    }
    if (value.form() == FieldType.Form.TABLE) {
      Shape s = value.table();
      value = value.withTable(new Shape(s.path(), segment, true, s.stats(), s.fields()));
    }
    if (value.form() == FieldType.Form.UNION) {
      // an entry table holds its key and one field: a union is two (its type and its value)
      value = FieldType.wrapper(Names.table(segment, true) + "Item", value, values);
    } else if (value.scalar() && values.nulls > 0) {
      value = value.optional(true); // a null value is written absent, not as 0
    }
    maps.add(path + ": " + why);
    return FieldType.map(Names.table(segment, false) + "Entry", value, values, "a map: " + why);
  }

  /** Whether a document's values are of one kind (nulls aside), as a map's values are. */
  private static boolean alike(TableStats t) {
    Set<Kind> kinds = EnumSet.noneOf(Kind.class);
    for (ValueStats s : t.fields.values()) {
      s.types.keySet().forEach(b -> kinds.add(Kind.of(b)));
    }
    return kinds.size() <= 1;
  }

  /**
   * A vector of the elements' type; of wrappers where a vector cannot hold them as they are: arrays
   * (arrays of arrays), binaries, nulls (a wrapper holds a null as an absent value), elements of
   * several types (a wrapper holding a union), maps.
   */
  private FieldType vector(ValueStats v, String path, String segment) {
    ValueStats e = v.elements();
    if (e.present == 0) {
      return FieldType.vector(FieldType.of("string", null), "always empty: any vector holds it");
    }
    String elements = path + "[]";
    String singular = Names.table(segment, true);
    FieldType element = decide(e, elements, segment, singular);
    if (element == null) {
      return null;
    }
    if (element.form() == FieldType.Form.TABLE) {
      Shape s = element.table();
      element = element.withTable(new Shape(s.path(), segment, true, s.stats(), s.fields()));
    }
    boolean wrapped =
        e.nulls > 0
            || element.vector()
            || element.form() == FieldType.Form.UNION
            || element.form() == FieldType.Form.MAP;
    if (!wrapped) {
      return FieldType.vector(element, null);
    }
    if (element.scalar() && e.nulls > 0) {
      element = element.optional(true); // a null element is a wrapper with its value absent
    }
    String suffix =
        element.form() == FieldType.Form.UNION ? "Item" : element.vector() ? "List" : "Value";
    String note =
        e.nulls > 0
            ? "a null element is a wrapper with no value"
            : element.form() == FieldType.Form.UNION
                ? "elements of several types: each wraps a union"
                : element.vector() ? "an array of arrays: each element wrapped" : null;
    return FieldType.vector(FieldType.wrapper(singular + suffix, element, e), note);
  }

  private FieldType number(ValueStats v, String path, String hint) {
    long int32 = v.count(BsonType.INT32);
    long int64 = v.count(BsonType.INT64);
    long dates = v.count(BsonType.DATE_TIME);
    long doubles = v.count(BsonType.DOUBLE);
    String dateNote = dates > 0 ? "a date maps to long: ms since the epoch" : null;
    if (doubles == 0) {
      if (dates == 0 && options.narrowIntegers()) {
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
    // neither holds them all: a union of both, chosen per value by its BSON type (int32, int64
    // and dates into the long, doubles into the double)
    return FieldType.union(
        hint,
        List.of(
            FieldType.wrapper(hint + "Long", FieldType.of("long", dateNote), null),
            FieldType.wrapper(hint + "Double", FieldType.of("double", null), null)),
        v);
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
