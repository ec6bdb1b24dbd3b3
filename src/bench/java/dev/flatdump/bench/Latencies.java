package dev.flatdump.bench;

import java.util.Arrays;

/**
 * A summary of timed operations, in nanoseconds: mean, percentiles by nearest rank (the smallest
 * sample that at least that share of the samples do not exceed) and maximum.
 *
 * @param count the samples
 */
record Latencies(int count, double meanNanos, long p50, long p99, long p999, long max) {

  /**
   * Summarizes the first {@code count} samples of {@code nanos} (sorts that part of the array).
   *
   * @throws IllegalArgumentException when {@code count} is 0 or more than the array holds
   */
  static Latencies of(long[] nanos, int count) {
    if (count < 1 || count > nanos.length) {
      throw new IllegalArgumentException("count must be in 1.." + nanos.length + ", got " + count);
    }
    Arrays.sort(nanos, 0, count);
    long sum = 0;
    for (int i = 0; i < count; i++) {
      sum += nanos[i];
    }
    return new Latencies(
        count,
        (double) sum / count,
        rank(nanos, count, 0.50),
        rank(nanos, count, 0.99),
        rank(nanos, count, 0.999),
        nanos[count - 1]);
  }

  /** Summarizes every sample of {@code nanos}. */
  static Latencies of(long[] nanos) {
    return of(nanos, nanos.length);
  }

  /** The nearest-rank percentile {@code p} (0 < p <= 1) of the sorted first {@code count}. */
  static long rank(long[] sorted, int count, double p) {
    int index = (int) Math.ceil(p * count) - 1;
    return sorted[Math.max(0, Math.min(count - 1, index))];
  }
}
