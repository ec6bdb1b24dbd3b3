package dev.flatdump.infer;

import java.util.LinkedHashMap;
import java.util.Map;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * The documents seen at one path, merged: how many, and each field's {@link ValueStats} in the
 * order fields first appeared. Beyond {@link #MAX_FIELDS} distinct field names the keys are data,
 * not fields: the values of further names are counted together in {@link #rest}, so that a document
 * keyed by ids or dates costs bounded memory (such a path becomes a map). Not thread-safe.
 */
final class TableStats {

  /** Distinct field names counted one by one; past them, a table is a map whatever its keys. */
  static final int MAX_FIELDS = 1000;

  long seen;
  final Map<String, ValueStats> fields = new LinkedHashMap<>();

  /** The values of the field names beyond {@link #MAX_FIELDS}, or null while there are none. */
  ValueStats rest;

  void add(BsonDocument doc) {
    seen++;
    for (Map.Entry<String, BsonValue> e : doc.entrySet()) {
      ValueStats s = fields.get(e.getKey());
      if (s == null) {
        if (fields.size() >= MAX_FIELDS) {
          s = rest == null ? rest = new ValueStats() : rest;
        } else {
          s = new ValueStats();
          fields.put(e.getKey(), s);
        }
      }
      s.add(e.getValue());
    }
  }

  /** Adds what {@code other} saw, its field names after this one's. */
  void merge(TableStats other) {
    seen += other.seen;
    for (Map.Entry<String, ValueStats> e : other.fields.entrySet()) {
      ValueStats s = fields.get(e.getKey());
      if (s == null && fields.size() >= MAX_FIELDS) {
        s = rest == null ? rest = new ValueStats() : rest;
      } else if (s == null) {
        s = new ValueStats();
        fields.put(e.getKey(), s);
      }
      s.merge(e.getValue());
    }
    if (other.rest != null) {
      (rest == null ? rest = new ValueStats() : rest).merge(other.rest);
    }
  }

  /** Every value of every field, merged: what a map's values are. */
  ValueStats values() {
    ValueStats all = new ValueStats();
    fields.values().forEach(all::merge);
    if (rest != null) {
      all.merge(rest);
    }
    return all;
  }
}
