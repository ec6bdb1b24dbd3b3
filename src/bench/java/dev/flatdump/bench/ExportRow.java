package dev.flatdump.bench;

import java.util.List;

/**
 * One row of the export table: medians over the measured runs.
 *
 * @param name the row's label
 * @param docs documents through the row in its last run
 * @param bytes what the row counts in bytes: BSON for the raw scan, the artifact for the export,
 *     fields for the Document scan, 0 otherwise
 * @param nanos wall time of the whole row, connection pool warm (and for the export, the Spring
 *     context started and closed inside it)
 * @param peakUsedBytes heap used at the peak, garbage included, above the live heap before
 * @param peakLiveBytes heap live at the peak (after collections), above the live heap before
 * @param peakRssBytes the process's resident set at its peak during the row ({@code VmHWM} reset
 *     before the row where Linux allows), or -1 off Linux
 * @param detail what else the row reported in its last run, or empty
 * @param runNanos the wall time of each measured run, in order
 */
public record ExportRow(
    String name,
    long docs,
    long bytes,
    long nanos,
    long peakUsedBytes,
    long peakLiveBytes,
    long peakRssBytes,
    String detail,
    List<Long> runNanos) {

  public ExportRow {
    runNanos = List.copyOf(runNanos);
  }

  /** Documents per second. */
  public double docsPerSecond() {
    return nanos == 0 ? 0 : docs * 1e9 / nanos;
  }
}
