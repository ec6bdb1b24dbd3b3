package dev.flatdump.report;

import java.util.EnumSet;
import java.util.Locale;

/**
 * A size baseline that {@code --compare} measures next to the real artifacts: what the same records
 * would take in another encoding.
 */
public enum Baseline {

  /** FlatBuffers without any de-dup: the article's first encoding. */
  PLAIN("plain", "FlatBuffers, no de-dup"),

  /** FlatBuffers sharing equal strings only: the article's second encoding. */
  STRINGS("strings", "FlatBuffers, strings de-dup only"),

  /** Protobuf, one message per record, onto the twin derived from the schema. */
  PROTOBUF("protobuf", "protobuf, one message per record"),

  /** JSON lines as mongoexport writes them. */
  JSON("json", "JSON lines (mongoexport style)");

  private static final String ACCEPTED = "a comma list of plain, strings, protobuf, json, or none";

  private final String id;
  private final String description;

  Baseline(String id, String description) {
    this.id = id;
    this.description = description;
  }

  /**
   * The name users type and reports show: {@code plain}, {@code strings}, {@code protobuf}, {@code
   * json}.
   */
  public String id() {
    return id;
  }

  /** One line saying what the baseline encodes. */
  public String description() {
    return description;
  }

  /**
   * Parses a comma list of baseline names (any order and case, repeats allowed), or {@code none}
   * for the empty set.
   *
   * @return a new, modifiable set that iterates in declaration order
   * @throws IllegalArgumentException naming the bad value and the accepted ones
   */
  public static EnumSet<Baseline> parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("compare must not be empty; expected " + ACCEPTED);
    }
    EnumSet<Baseline> which = EnumSet.noneOf(Baseline.class);
    String[] names = text.split(",", -1);
    boolean none = false;
    for (String raw : names) {
      String name = raw.strip().toLowerCase(Locale.ROOT);
      if (name.equals("none")) {
        none = true;
        continue;
      }
      which.add(byId(name, text, raw));
    }
    if (none && names.length > 1) {
      throw new IllegalArgumentException(
          "compare '" + text + "' combines 'none' with other values; expected " + ACCEPTED);
    }
    return which;
  }

  private static Baseline byId(String name, String text, String raw) {
    for (Baseline baseline : values()) {
      if (baseline.id.equals(name)) {
        return baseline;
      }
    }
    throw new IllegalArgumentException(
        "compare '" + text + "' has unknown value '" + raw.strip() + "'; expected " + ACCEPTED);
  }
}
