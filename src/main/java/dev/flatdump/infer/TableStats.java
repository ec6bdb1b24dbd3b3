package dev.flatdump.infer;

import java.util.LinkedHashMap;
import java.util.Map;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * The documents seen at one path, merged: how many, and each field's {@link ValueStats} in the
 * order fields first appeared. Not thread-safe.
 */
final class TableStats {

  long seen;
  final Map<String, ValueStats> fields = new LinkedHashMap<>();

  void add(BsonDocument doc) {
    seen++;
    for (Map.Entry<String, BsonValue> e : doc.entrySet()) {
      fields.computeIfAbsent(e.getKey(), k -> new ValueStats()).add(e.getValue());
    }
  }
}
