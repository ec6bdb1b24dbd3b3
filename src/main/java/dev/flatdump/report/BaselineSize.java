package dev.flatdump.report;

import static dev.flatdump.report.Checks.nonNegative;
import static dev.flatdump.report.Checks.notBlank;
import static dev.flatdump.report.Checks.notNull;

/**
 * What one {@link Baseline} measured: its raw, gzip and zstd bytes for the exported records.
 *
 * <p>Immutable and thread-safe.
 *
 * @param baseline which encoding was measured; shown by its {@link Baseline#id()}
 * @param description what was measured, for readers of the report
 * @param bytes the encoding's raw bytes
 * @param gzipBytes the same bytes gzip-compressed
 * @param zstdBytes the same bytes zstd-compressed
 */
public record BaselineSize(
    Baseline baseline, String description, long bytes, long gzipBytes, long zstdBytes) {

  public BaselineSize {
    notNull("BaselineSize.baseline", baseline);
    notBlank("BaselineSize.description", description);
    nonNegative("BaselineSize.bytes", bytes);
    nonNegative("BaselineSize.gzipBytes", gzipBytes);
    nonNegative("BaselineSize.zstdBytes", zstdBytes);
  }

  /** A size described by the baseline's own {@link Baseline#description()}. */
  public BaselineSize(Baseline baseline, long bytes, long gzipBytes, long zstdBytes) {
    this(
        baseline,
        notNull("BaselineSize.baseline", baseline).description(),
        bytes,
        gzipBytes,
        zstdBytes);
  }
}
