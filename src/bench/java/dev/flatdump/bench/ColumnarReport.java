package dev.flatdump.bench;

import dev.flatdump.bench.ColumnarBenchmark.Row;
import dev.flatdump.bench.samples.Profile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@link ColumnarBenchmark} measured, a table per profile, with the two targets of the
 * columnar copy: making it costs at most {@value #COPY_SHARE_TARGET} of {@code exportStep}'s time,
 * and rebuilding runs at {@value #REBUILD_SPEED_TARGET} or more of zstd -d's speed on the same
 * shard. Immutable.
 *
 * @param settings what was run
 * @param machine see {@link MachineInfo#describe()}
 * @param server the mongod exported from
 * @param profiles one result per profile, in the order run
 */
public record ColumnarReport(
    ColumnarBenchmark.Settings settings, String machine, String server, List<Profiled> profiles) {

  /** Making the copy, as compressStep does, against exportStep's time: at most this share. */
  public static final double COPY_SHARE_TARGET = 0.30;

  /** Rebuilding's speed against zstd -d's on the same shard: at least this. */
  public static final double REBUILD_SPEED_TARGET = 0.5;

  public ColumnarReport {
    profiles = List.copyOf(profiles);
  }

  /**
   * One profile's figures.
   *
   * @param docs documents the exports read
   * @param shards shards of the last export
   * @param shardBytes their bytes; every speed is of these bytes
   * @param zstBytes their {@code .zst} copies' bytes
   * @param fbcBytes their {@code .fbc} copies' bytes
   * @param exportStep each measured export's {@code exportStep}, in nanoseconds
   * @param compressStep each measured export's {@code compressStep}
   * @param nanos each {@link Row}'s measured runs, by ordinal, all shards summed
   */
  public record Profiled(
      Profile profile,
      String collection,
      long docs,
      int shards,
      long shardBytes,
      long zstBytes,
      long fbcBytes,
      long[] exportStep,
      long[] compressStep,
      long[][] nanos,
      String loadBefore,
      String loadAfter) {

    /** A row's median time. */
    public long median(Row row) {
      return Figures.median(nanos[row.ordinal()]);
    }

    public long exportStepMedian() {
      return Figures.median(exportStep);
    }

    /** Making the copy as compressStep does, over exportStep's time (medians). */
    public double copyShare() {
      return (double) median(Row.COPY) / Math.max(1, exportStepMedian());
    }

    /** Rebuilding's speed over zstd -d's (medians). */
    public double rebuildSpeed() {
      return (double) median(Row.ZSTD_DECOMPRESS) / Math.max(1, median(Row.REBUILD));
    }

    /** The same in each run, rebuild against the zstd -d run just before it: lowest and highest. */
    double[] rebuildSpeedRange() {
      double lo = Double.MAX_VALUE;
      double hi = 0;
      for (int i = 0; i < nanos[0].length; i++) {
        double r =
            (double) nanos[Row.ZSTD_DECOMPRESS.ordinal()][i]
                / Math.max(1, nanos[Row.REBUILD.ordinal()][i]);
        lo = Math.min(lo, r);
        hi = Math.max(hi, r);
      }
      return new double[] {lo, hi};
    }

    double megabytesPerSecond(long nanos) {
      return shardBytes * 1e3 / Math.max(1, nanos);
    }
  }

  /** The tables in Markdown, each with header lines that say how and where it was measured. */
  public String toMarkdown() {
    var md = new StringBuilder();
    md.append("Machine: ").append(machine).append(".\n");
    md.append("Server: ").append(server).append(".\n");
    for (Profiled p : profiles) {
      md.append('\n').append(table(p));
    }
    return md.toString();
  }

  private String table(Profiled p) {
    var md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "Columnar copy, %s: %s.%s, %,d documents, %d shard%s of %s (%,d bytes; .zst %s, .fbc"
                + " %s); exports with --compress zstd,columnar and shards of %s: median of %d"
                + " after a warm-up; the rows below on the last export's files: median of %d"
                + " alternating runs after %d warm-up run(s); load average %s at the start, %s at"
                + " the end.%n%n",
            p.profile().name().toLowerCase(Locale.ROOT),
            settings.database(),
            p.collection(),
            p.docs(),
            p.shards(),
            p.shards() == 1 ? "" : "s",
            Figures.bytes(p.shardBytes()),
            p.shardBytes(),
            Figures.bytes(p.zstBytes()),
            Figures.bytes(p.fbcBytes()),
            Figures.bytes(settings.shardSize()),
            settings.exports(),
            settings.runs(),
            settings.warmups(),
            p.loadBefore(),
            p.loadAfter()));
    md.append("| what | time | MB/s of shard | against |\n");
    md.append("|---|---:|---:|---:|\n");
    long exportStep = p.exportStepMedian();
    long compressStep = Figures.median(p.compressStep());
    row(md, "exportStep (the export's own step time)", exportStep, p, "reference");
    row(
        md,
        "compressStep (zstd -3 on the compression threads, then the columnar copy)",
        compressStep,
        p,
        share(compressStep, exportStep) + " of exportStep");
    for (Row r : List.of(Row.COPY, Row.WRITE, Row.ZSTD_COMPRESS)) {
      row(md, r.label, p.median(r), p, share(p.median(r), exportStep) + " of exportStep");
    }
    long zstd = p.median(Row.ZSTD_DECOMPRESS);
    row(md, Row.ZSTD_DECOMPRESS.label, zstd, p, "1.00× its speed");
    for (Row r : List.of(Row.REBUILD, Row.SHA256)) {
      row(md, r.label, p.median(r), p, speed(zstd, p.median(r)));
    }
    long unchecked = Math.max(1, p.median(Row.REBUILD) - p.median(Row.SHA256));
    row(
        md,
        "rebuild without its SHA-256 (the two rows above subtracted)",
        unchecked,
        p,
        speed(zstd, unchecked));
    md.append('\n');
    for (String line : targets(p)) {
      md.append(line).append('\n');
    }
    return md.toString();
  }

  /** Where the profile stands against the two targets in this run. */
  public List<String> targets(Profiled p) {
    double[] range = p.rebuildSpeedRange();
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            Locale.ROOT,
            "Targets: making the copy took %s of exportStep (≤ %s: %s); rebuilding ran at %s"
                + " zstd -d's speed (≥ %s: %s; %s–%s in the single runs).",
            share(p.median(Row.COPY), p.exportStepMedian()),
            share(COPY_SHARE_TARGET),
            p.copyShare() <= COPY_SHARE_TARGET ? "met" : "missed",
            Figures.ratio(p.rebuildSpeed()),
            Figures.ratio(REBUILD_SPEED_TARGET),
            p.rebuildSpeed() >= REBUILD_SPEED_TARGET ? "met" : "missed",
            Figures.ratio(range[0]),
            Figures.ratio(range[1])));
    return lines;
  }

  private static void row(StringBuilder md, String what, long nanos, Profiled p, String against) {
    md.append("| ")
        .append(what)
        .append(" | ")
        .append(Figures.millis(nanos))
        .append(" | ")
        .append(String.format(Locale.ROOT, "%,.0f", p.megabytesPerSecond(nanos)))
        .append(" | ")
        .append(against)
        .append(" |\n");
  }

  private static String share(long nanos, long of) {
    return share((double) nanos / Math.max(1, of));
  }

  private static String share(double share) {
    return String.format(Locale.ROOT, "%.0f %%", share * 100);
  }

  /** The speed of a row that took {@code nanos} against the reference's {@code reference}. */
  private static String speed(long reference, long nanos) {
    return Figures.ratio((double) reference / Math.max(1, nanos)) + " its speed";
  }
}
