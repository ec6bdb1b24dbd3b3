package dev.flatdump.report;

import java.util.Locale;

/** Formats figures for people: binary byte units, grouped digits, percentages and durations. */
public final class Units {

  private static final String[] BYTE_UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

  private Units() {}

  /** {@code 772800000} → {@code "737 MiB"}: three significant digits, IEC units. */
  public static String bytes(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    double value = bytes;
    int unit = 0;
    while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
      value /= 1024;
      unit++;
    }
    String pattern = value < 10 ? "%.2f %s" : value < 100 ? "%.1f %s" : "%.0f %s";
    return String.format(Locale.ROOT, pattern, value, BYTE_UNITS[unit]);
  }

  /**
   * A size someone chose, such as a shard size: {@code 134217728} → {@code "128 MiB"}, in the
   * largest unit that holds it exactly; else {@link #bytes} followed by the exact bytes.
   */
  static String setting(long bytes) {
    int unit = 0;
    long value = bytes;
    while (value != 0 && value % 1024 == 0 && unit < BYTE_UNITS.length - 1) {
      value /= 1024;
      unit++;
    }
    if (unit > 0) {
      return exact(value) + " " + BYTE_UNITS[unit];
    }
    return bytes < 1024 ? bytes + " B" : bytes(bytes) + " (" + exact(bytes) + " B)";
  }

  /** An instant to the second, in UTC: {@code 2025-03-01T10:00:12Z}. */
  static String second(java.time.Instant instant) {
    return instant.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
  }

  /** {@code 772800000} → {@code "772,800,000"}. */
  static String exact(long value) {
    return String.format(Locale.ROOT, "%,d", value);
  }

  /** {@code 0.0612} → {@code "6.1 %"}; more digits below 1 %; {@code "n/a"} for NaN. */
  static String percent(double fraction) {
    if (Double.isNaN(fraction)) {
      return "n/a";
    }
    double percent = fraction * 100;
    String pattern = percent != 0 && Math.abs(percent) < 1 ? "%.2f %%" : "%.1f %%";
    return String.format(Locale.ROOT, pattern, percent);
  }

  /** {@code 1234.5} → {@code "1,234"}; per-second rates need no decimals above 100. */
  static String rate(double perSecond) {
    return perSecond >= 100
        ? String.format(Locale.ROOT, "%,.0f", perSecond)
        : String.format(Locale.ROOT, "%.1f", perSecond);
  }

  /** {@code 850} → {@code "850 ms"}, {@code 12300} → {@code "12.3 s"}, then minutes, hours. */
  static String millis(long millis) {
    if (millis < 1000) {
      return millis + " ms";
    }
    if (millis < 60_000) {
      return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
    long seconds = millis / 1000;
    if (seconds < 3600) {
      return String.format(Locale.ROOT, "%d min %02d s", seconds / 60, seconds % 60);
    }
    return String.format(Locale.ROOT, "%d h %02d min", seconds / 3600, seconds / 60 % 60);
  }

  /** The fraction saved by de-dup: {@code 1 - unique / total}, 0 when nothing was counted. */
  static double saved(long total, long unique) {
    return total == 0 ? 0 : (double) (total - unique) / total;
  }
}
