package dev.flatdump.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses sizes such as {@code 1048576}, {@code 64KiB}, {@code 512MiB}, {@code 1GiB} or {@code
 * 10MB}.
 */
public final class ByteSizes {

  private static final Pattern SIZE =
      Pattern.compile("(\\d+)\\s*([kmg]i?b?|b)?", Pattern.CASE_INSENSITIVE);

  private ByteSizes() {}

  public static long parse(String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "invalid size '"
              + text
              + "' (expected bytes, or a number with KiB, MiB, GiB, KB, MB or GB)");
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
    long factor =
        switch (unit) {
          case "b" -> 1L;
          case "k", "ki", "kib" -> 1L << 10;
          case "m", "mi", "mib" -> 1L << 20;
          case "g", "gi", "gib" -> 1L << 30;
          case "kb" -> 1_000L;
          case "mb" -> 1_000_000L;
          case "gb" -> 1_000_000_000L;
          default -> throw new IllegalArgumentException("invalid size unit in '" + text + "'");
        };
    return Math.multiplyExact(n, factor);
  }
}
