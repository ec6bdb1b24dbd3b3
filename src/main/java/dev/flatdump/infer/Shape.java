package dev.flatdump.infer;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The documents at one path with their fields' types decided: equal signatures (the same BSON field
 * names with the same types) become one table.
 *
 * @param path where the documents were seen ({@code owner.address}, {@code members[]})
 * @param segment the path's last field name, which names the table
 * @param element whether the documents are the elements of an array (the name is made singular)
 * @param stats what was seen there
 * @param fields the fields kept, in the order they first appeared
 */
record Shape(String path, String segment, boolean element, TableStats stats, List<Field> fields) {

  /** One field kept: its BSON name, its type and what was seen. */
  record Field(String bson, FieldType type, ValueStats stats) {}

  String signature() {
    return fields.stream()
        .map(f -> quoted(f.bson()) + ":" + f.type().signature())
        .sorted()
        .collect(Collectors.joining(","));
  }

  private static String quoted(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
