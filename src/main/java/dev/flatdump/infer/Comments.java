package dev.flatdump.infer;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.bson.BsonType;

/** The counts the schema's comments show, summed over the paths a table serves. */
final class Comments {

  private Comments() {}

  /** {@code int32: 200, string: 3, null: 2}: the BSON types seen, most frequent first. */
  static String types(List<ValueStats> stats) {
    Map<BsonType, Long> types = new EnumMap<>(BsonType.class);
    long nulls = 0;
    for (ValueStats s : stats) {
      s.types.forEach((t, n) -> types.merge(t, n, Long::sum));
      nulls += s.nulls;
    }
    String text =
        types.entrySet().stream()
            .sorted(Map.Entry.<BsonType, Long>comparingByValue().reversed())
            .map(e -> name(e.getKey()) + ": " + count(e.getValue()))
            .collect(Collectors.joining(", "));
    if (nulls > 0) {
      text = (text.isEmpty() ? "" : text + ", ") + "null: " + count(nulls);
    }
    return text;
  }

  /** How the schema writes a type, for a conflict. */
  static String typeText(FieldType t) {
    return switch (t.form()) {
      case SCALAR -> t.text();
      case TABLE -> "a table";
      case VECTOR -> "a vector";
      case WRAPPER -> "a wrapper";
      case MAP -> "a map";
      case UNION -> "a union";
    };
  }

  static String name(BsonType t) {
    return switch (t) {
      case DATE_TIME -> "date";
      case OBJECT_ID -> "objectId";
      case DECIMAL128 -> "decimal128";
      case JAVASCRIPT_WITH_SCOPE -> "javascriptWithScope";
      case REGULAR_EXPRESSION -> "regex";
      case MIN_KEY -> "minKey";
      case MAX_KEY -> "maxKey";
      case DB_POINTER -> "dbPointer";
      default -> t.name().toLowerCase(Locale.ROOT);
    };
  }

  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
