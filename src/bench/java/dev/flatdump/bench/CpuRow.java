package dev.flatdump.bench;

import java.util.List;

/**
 * One row of the CPU table.
 *
 * @param name the row's label
 * @param docs documents per run
 * @param medianNanos this thread's CPU time for all documents, median over the measured runs
 * @param bestNanos the same, the fastest run
 * @param allocatedBytes bytes this thread allocated in a run, median
 * @param checksum what the row counted in its last run: decoded fields or attributes, or the
 *     finished FlatBuffer's size
 * @param runNanos this thread's CPU time for all documents, per measured run, in order
 */
public record CpuRow(
    String name,
    int docs,
    long medianNanos,
    long bestNanos,
    long allocatedBytes,
    long checksum,
    List<Long> runNanos) {

  public CpuRow {
    runNanos = List.copyOf(runNanos);
  }

  /** CPU nanoseconds per document, median. */
  public double nanosPerDoc() {
    return (double) medianNanos / docs;
  }
}
