package dev.flatdump.example.lookup;

/**
 * A JSON object written member by member, for the service's answers: strings are escaped as RFC
 * 8259 says, numbers and booleans written as they are, a nested {@link Json} as an object. Not
 * thread-safe: one per answer.
 */
final class Json {
  private final StringBuilder out = new StringBuilder("{");

  /**
   * Adds a member whose value is null, a {@link String}, a {@link Number}, a {@link Boolean} or a
   * {@link Json}; a double that is not finite is written as a string ({@code "NaN"}), as JSON has
   * no number for it.
   */
  Json put(String name, Object value) {
    if (out.length() > 1) {
      out.append(',');
    }
    quote(name, out).append(':');
    if (value == null || value instanceof Boolean || value instanceof Json) {
      out.append(value);
    } else if (value instanceof Double d && !Double.isFinite(d)) {
      quote(d.toString(), out);
    } else if (value instanceof Number n) {
      out.append(n);
    } else {
      quote(value.toString(), out);
    }
    return this;
  }

  @Override
  public String toString() {
    return out + "}";
  }

  /** Appends {@code s} to {@code out} as a JSON string, quotes included. */
  static StringBuilder quote(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || Character.isSurrogate(c) && !pairedAt(s, i)) {
            out.append(String.format("\\u%04x", (int) c)); // controls; a lone surrogate stays
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"');
  }

  /** Whether the surrogate at {@code i} is half of a pair. */
  private static boolean pairedAt(String s, int i) {
    return Character.isHighSurrogate(s.charAt(i))
        ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
        : i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }
}
