package dev.flatdump.encode.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What an export's encoding counted, summed over its shards: per kind of shared object ({@code
 * strings}, {@code vectors}, then each table type) how many were made, written and the bytes saved,
 * and the BSON fields the schema does not name, by path, with how many documents had each.
 *
 * @param sharing in the order {@link Sharing#counts()} gives them
 * @param unknownFields by path, sorted
 */
public record EncodeCounts(List<Sharing.Count> sharing, Map<String, Long> unknownFields) {

  public static final EncodeCounts EMPTY = new EncodeCounts(List.of(), Map.of());

  public EncodeCounts {
    sharing = List.copyOf(sharing);
    unknownFields = java.util.Collections.unmodifiableMap(new TreeMap<>(unknownFields));
  }

  /**
   * The sum of both, kind by kind and path by path; kinds keep this one's order, then the other's.
   */
  public EncodeCounts plus(EncodeCounts other) {
    Objects.requireNonNull(other, "other");
    Map<String, Sharing.Count> byKind = new LinkedHashMap<>();
    for (Sharing.Count c : sharing) {
      byKind.put(c.kind(), c);
    }
    for (Sharing.Count c : other.sharing) {
      byKind.merge(
          c.kind(),
          c,
          (a, b) ->
              new Sharing.Count(
                  a.kind(),
                  a.total() + b.total(),
                  a.unique() + b.unique(),
                  a.bytesSaved() + b.bytesSaved()));
    }
    Map<String, Long> unknown = new TreeMap<>(unknownFields);
    other.unknownFields.forEach((k, v) -> unknown.merge(k, v, Long::sum));
    return new EncodeCounts(new ArrayList<>(byKind.values()), unknown);
  }
}
