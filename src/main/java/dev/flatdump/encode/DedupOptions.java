package dev.flatdump.encode;

import dev.flatdump.encode.engine.Sharing;
import java.util.Locale;

/**
 * Which kinds of FlatBuffers objects the export writes once and shares ({@code --dedup}).
 *
 * <p>Immutable and thread-safe. Its text form ({@link #toString()}, accepted by {@link
 * #parse(String)}) is a comma list of {@code strings}, {@code tables} and {@code vectors}, or
 * {@code none}.
 *
 * @param strings equal strings share one string
 * @param tables equal tables of every type share one table
 * @param vectors equal vectors share one vector; without {@code tables} a vector of tables can
 *     equal another only when both are empty, because every table is written anew
 */
public record DedupOptions(boolean strings, boolean tables, boolean vectors) {

  /** Shares everything it can: the smallest output. */
  public static final DedupOptions ALL = new DedupOptions(true, true, true);

  /**
   * Shares nothing (apart from vtables, which FlatBuffers always shares): the article's encoding.
   */
  public static final DedupOptions NONE = new DedupOptions(false, false, false);

  /** Shares strings only, as {@code FlatBufferBuilder.createSharedString} would. */
  public static final DedupOptions STRINGS_ONLY = new DedupOptions(true, false, false);

  private static final String ACCEPTED = "a comma list of strings, tables, vectors, or none";

  /**
   * Parses the text form: a comma list of {@code strings}, {@code tables} and {@code vectors} (in
   * any order, repeats allowed), or {@code none}. Case and whitespace around names are ignored.
   *
   * @throws IllegalArgumentException naming the bad value and the accepted ones
   */
  public static DedupOptions parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("dedup must not be empty; expected " + ACCEPTED);
    }
    boolean strings = false;
    boolean tables = false;
    boolean vectors = false;
    boolean none = false;
    String[] names = text.split(",", -1);
    for (String raw : names) {
      String name = raw.strip().toLowerCase(Locale.ROOT);
      switch (name) {
        case "strings" -> strings = true;
        case "tables" -> tables = true;
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
    return new DedupOptions(strings, tables, vectors);
  }

  /** The kinds the engine shares. */
  public Sharing.Kinds kinds() {
    return new Sharing.Kinds(strings, tables, vectors);
  }

  /** The canonical text form, e.g. {@code "strings,tables,vectors"} or {@code "none"}. */
  @Override
  public String toString() {
    var text = new StringBuilder();
    append(text, strings, "strings");
    append(text, tables, "tables");
    append(text, vectors, "vectors");
    return text.isEmpty() ? "none" : text.toString();
  }

  private static void append(StringBuilder text, boolean on, String name) {
    if (on) {
      text.append(text.isEmpty() ? "" : ",").append(name);
    }
  }
}
