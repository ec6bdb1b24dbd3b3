package dev.flatdump.bench;

import dev.flatdump.report.Units;
import java.util.Arrays;
import java.util.Locale;

/** Formats benchmark figures for people, and takes medians. Stateless. */
final class Figures {

  private Figures() {}

  /** {@code 1536} → {@code "1.50 KiB"}: as the size report prints sizes. */
  static String bytes(long bytes) {
    return Units.bytes(bytes);
  }

  /** Nanoseconds as grouped milliseconds, as the articles print them: {@code "11,718 ms"}. */
  static String millis(long nanos) {
    double ms = nanos / 1e6;
    return ms < 10
        ? String.format(Locale.ROOT, "%.2f ms", ms)
        : String.format(Locale.ROOT, "%,.0f ms", ms);
  }

  /** {@code 12345.6} → {@code "12,346"}. */
  static String rate(double perSecond) {
    return String.format(Locale.ROOT, "%,.0f", perSecond);
  }

  /** {@code 2.345} → {@code "2.35×"}. */
  static String ratio(double ratio) {
    return String.format(Locale.ROOT, ratio < 10 ? "%.2f×" : "%.1f×", ratio);
  }

  /** The median; the mean of the two middle values for an even count. */
  static long median(long[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values to take the median of");
    }
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }
}
