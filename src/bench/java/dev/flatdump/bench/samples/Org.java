package dev.flatdump.bench.samples;

import java.util.List;
import java.util.Objects;

/**
 * One organization: the record that flatdump reads from MongoDB and writes as a FlatBuffers table.
 *
 * <p>Immutable and thread-safe. Every field is required: a document that lacks one is rejected by
 * the reader, never exported with a made-up value.
 *
 * @param name never null, may be empty
 * @param category never null, may be empty
 * @param country never null, may be empty
 * @param type never null
 * @param attributes never null, may be empty; kept in document order
 */
public record Org(
    String name, String category, String country, OrgType type, List<Attr> attributes) {

  public Org {
    Objects.requireNonNull(name, "Org.name must not be null");
    Objects.requireNonNull(category, "Org.category must not be null");
    Objects.requireNonNull(country, "Org.country must not be null");
    Objects.requireNonNull(type, "Org.type must not be null");
    attributes = List.copyOf(attributes);
  }
}
