package dev.flatdump.infer;

import java.util.EnumMap;
import java.util.Map;
import org.bson.BsonType;
import org.bson.BsonValue;

/**
 * What was seen at one path: how often it was present (null included), its nulls, a count per BSON
 * type, the range of its integers, the documents seen there (merged into one {@link TableStats})
 * and the elements of its arrays (merged into one {@code ValueStats}). Not thread-safe.
 */
final class ValueStats {

  final Map<BsonType, Long> types = new EnumMap<>(BsonType.class);
  long present;
  long nulls;
  long minInt = Long.MAX_VALUE;
  long maxInt = Long.MIN_VALUE;

  /** int64 values a double does not hold exactly. */
  long intsBeyondDouble;

  /** Doubles with a fraction, NaN or infinite: a long does not hold them. */
  long fractionalDoubles;

  private TableStats table;
  private ValueStats elements;

  void add(BsonValue v) {
    present++;
    BsonType t = v.getBsonType();
    if (t == BsonType.NULL) {
      nulls++;
      return;
    }
    types.merge(t, 1L, Long::sum);
    switch (t) {
      case INT32 -> integer(v.asInt32().getValue());
      case INT64 -> {
        long l = v.asInt64().getValue();
        integer(l);
        if (!exactInDouble(l)) {
          intsBeyondDouble++;
        }
      }
      case DOUBLE -> {
        double d = v.asDouble().getValue();
        // what a long cannot hold exactly: a fraction, NaN, the infinities, -0.0 (its sign) and
        // integers from 2^63 up or below -2^63
        if (Double.isNaN(d)
            || Double.isInfinite(d)
            || d != Math.rint(d)
            || Double.doubleToRawLongBits(d) == Long.MIN_VALUE
            || d >= 0x1p63
            || d < -0x1p63) {
          fractionalDoubles++;
        }
      }
      case DOCUMENT -> table().add(v.asDocument());
      case ARRAY -> {
        ValueStats e = elements();
        for (BsonValue element : v.asArray()) {
          e.add(element);
        }
      }
      default -> {}
    }
  }

  /** Non-null values seen. */
  long values() {
    return present - nulls;
  }

  long count(BsonType t) {
    return types.getOrDefault(t, 0L);
  }

  TableStats table() {
    if (table == null) {
      table = new TableStats();
    }
    return table;
  }

  ValueStats elements() {
    if (elements == null) {
      elements = new ValueStats();
    }
    return elements;
  }

  /** Adds what {@code other} saw, as if its values had been added here too. */
  void merge(ValueStats other) {
    other.types.forEach((t, n) -> types.merge(t, n, Long::sum));
    present += other.present;
    nulls += other.nulls;
    minInt = Math.min(minInt, other.minInt);
    maxInt = Math.max(maxInt, other.maxInt);
    intsBeyondDouble += other.intsBeyondDouble;
    fractionalDoubles += other.fractionalDoubles;
    if (other.table != null) {
      table().merge(other.table);
    }
    if (other.elements != null) {
      elements().merge(other.elements);
    }
  }

  private void integer(long v) {
    minInt = Math.min(minInt, v);
    maxInt = Math.max(maxInt, v);
  }

  /** Whether a double holds {@code v} exactly (2^63, which a long cannot be, aside). */
  static boolean exactInDouble(long v) {
    double d = v;
    return d != 0x1p63 && (long) d == v;
  }
}
