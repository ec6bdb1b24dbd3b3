package dev.flatdump.bench;

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
 */
public record CpuRow(
    String name, int docs, long medianNanos, long bestNanos, long allocatedBytes, long checksum) {

  /** CPU nanoseconds per document, median. */
  public double nanosPerDoc() {
    return (double) medianNanos / docs;
  }
}
