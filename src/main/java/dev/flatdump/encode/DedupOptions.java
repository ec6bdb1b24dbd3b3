package dev.flatdump.encode;

import dev.flatdump.encode.engine.Sharing;
import java.util.Locale;

/**
 * Which kinds of FlatBuffers objects {@link FlatBufferOrgsBuilder} writes once and shares.
 *
 * <p>Immutable and thread-safe. Its text form ({@link #toString()}, accepted by {@link
 * #parse(String)}) is a comma list of {@code strings}, {@code attributes} and {@code vectors}, or
 * {@code none}.
 *
 * @param strings equal strings (names, categories, countries, attribute ids) share one string
 * @param attributes equal attributes share one {@code Attribute} table
 * @param vectors equal attribute lists share one vector; without {@code attributes} only empty
 *     lists can be equal, because every attribute gets a table of its own
 */
public record DedupOptions(boolean strings, boolean attributes, boolean vectors) {

  /** Shares everything it can: the smallest output. */
  public static final DedupOptions ALL = new DedupOptions(true, true, true);

  /**
   * Shares nothing (apart from vtables, which FlatBuffers always shares): the article's encoding.
   */
  public static final DedupOptions NONE = new DedupOptions(false, false, false);

  /** Shares strings only, as {@code FlatBufferBuilder.createSharedString} would. */
  public static final DedupOptions STRINGS_ONLY = new DedupOptions(true, false, false);

  private static final String ACCEPTED =
      "a comma list of strings, tables (or attributes), vectors, or none";

  /**
   * Parses the text form: a comma list of {@code strings}, {@code attributes} (or {@code tables},
   * the schema-driven engine's word for it) and {@code vectors} (in any order, repeats allowed), or
   * {@code none}. Case and whitespace around names are ignored.
   *
   * @throws IllegalArgumentException naming the bad value and the accepted ones
   */
  public static DedupOptions parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("dedup must not be empty; expected " + ACCEPTED);
    }
    boolean strings = false;
    boolean attributes = false;
    boolean vectors = false;
    boolean none = false;
    String[] names = text.split(",", -1);
    for (String raw : names) {
      String name = raw.strip().toLowerCase(Locale.ROOT);
      switch (name) {
        case "strings" -> strings = true;
        case "attributes", "tables" -> attributes = true;
        case "vectors" -> vectors = true;
        case "none" -> none = true;
        default ->
            throw new IllegalArgumentException(
                "dedup '"
                    + text
                    + "' has unknown value '"
                    + raw.strip()
                    + "'; expected "
                    + ACCEPTED);
      }
    }
    if (none && names.length > 1) {
      throw new IllegalArgumentException(
          "dedup '" + text + "' combines 'none' with other values; expected " + ACCEPTED);
    }
    return new DedupOptions(strings, attributes, vectors);
  }

  /**
   * The kinds the schema-driven engine shares: {@code attributes} are tables there, of every type.
   */
  public Sharing.Kinds kinds() {
    return new Sharing.Kinds(strings, attributes, vectors);
  }

  /** The text form in the schema-driven engine's words, e.g. {@code "strings,tables,vectors"}. */
  public String tablesText() {
    return toString().replace("attributes", "tables");
  }

  /** The canonical text form, e.g. {@code "strings,attributes,vectors"} or {@code "none"}. */
  @Override
  public String toString() {
    var text = new StringBuilder();
    append(text, strings, "strings");
    append(text, attributes, "attributes");
    append(text, vectors, "vectors");
    return text.isEmpty() ? "none" : text.toString();
  }

  private static void append(StringBuilder text, boolean on, String name) {
    if (on) {
      text.append(text.isEmpty() ? "" : ",").append(name);
    }
  }
}
