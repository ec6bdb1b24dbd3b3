package dev.flatdump.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@link ExportBenchmark} measured, with the conditions it measured them in. The first row is
 * the raw cursor scan, the floor every ratio is taken against. Immutable.
 *
 * @param settings what was run
 * @param machine see {@link MachineInfo#describe()}
 * @param server the mongod measured against, see {@link ExportBenchmark#describeServer}
 * @param loadBefore the load average when the benchmark started
 * @param loadAfter the load average when it ended
 * @param rssPerRow whether the peak RSS could be reset before each row; if not, it is the process's
 *     peak so far
 * @param rows raw scan, Document scan, flatdump cursor + engine, flatdump export, in that order
 */
public record ExportReport(
    ExportBenchmark.Settings settings,
    String machine,
    String server,
    String loadBefore,
    String loadAfter,
    boolean rssPerRow,
    List<ExportRow> rows) {

  /** The export's speed target against the raw scan: at least half its documents per second. */
  public static final double RAW_SCAN_TARGET = 0.5;

  /** The export's speed target against the driver's {@code Document} scan: three times as fast. */
  public static final double DOCUMENT_SCAN_TARGET = 3.0;

  private static final int RAW = 0;
  private static final int DOCUMENT = 1;
  private static final int READER = 2;
  private static final int EXPORT = 3;

  public ExportReport {
    rows = List.copyOf(rows);
    if (rows.size() != 4) {
      throw new IllegalArgumentException(
          "rows must be the raw scan, the Document scan, the cursor + engine and the export, got "
              + rows.size());
    }
  }

  /**
   * The export's documents per second over the raw scan's: its target is {@value #RAW_SCAN_TARGET}.
   */
  public double exportOverRawScan() {
    return speedup(export(), rows.get(RAW));
  }

  /**
   * The export's documents per second over the {@code Document} scan's: its target is {@value
   * #DOCUMENT_SCAN_TARGET}.
   */
  public double exportOverDocumentScan() {
    return speedup(export(), rows.get(DOCUMENT));
  }

  /**
   * The longest the export row could have taken and still been {@value #DOCUMENT_SCAN_TARGET} times
   * as fast as this run's {@code Document} scan, in nanoseconds: a third of that scan's time, since
   * both rows read the same documents ({@link #inconsistencies()} says when they did not).
   */
  public long documentTargetNanos() {
    return (long) (rows.get(DOCUMENT).nanos() / DOCUMENT_SCAN_TARGET);
  }

  /**
   * Where the export stands against its two speed targets in this run. When it misses the {@code
   * Document} scan's, a second line says how fast it would have had to be, beside the two rows that
   * bound it from below: the cursor and engine alone (every document read and encoded, nothing
   * written) and the raw scan. When the {@code Document} scan ran so fast that the target lies
   * below that row's time, no writer, however fast, could have met it in this run.
   */
  public List<String> targets() {
    double raw = exportOverRawScan();
    double document = exportOverDocumentScan();
    boolean documentMet = documentScanTargetMet();
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            Locale.ROOT,
            "Targets: the export at %s the raw scan's docs/s (≥ %s: %s) and %s the Document"
                + " scan's (≥ %s: %s).",
            Figures.ratio(raw),
            Figures.ratio(RAW_SCAN_TARGET),
            rawScanTargetMet() ? "met" : "missed",
            Figures.ratio(document),
            Figures.ratio(DOCUMENT_SCAN_TARGET),
            documentMet ? "met" : "missed"));
    if (!documentMet) {
      long needed = documentTargetNanos();
      ExportRow reader = rows.get(READER);
      lines.add(
          String.format(
                  Locale.ROOT,
                  "%s the Document scan needs the export in %s at most; the cursor and engine"
                      + " alone (reading and encoding, nothing written) took %s and the raw scan %s.",
                  Figures.ratio(DOCUMENT_SCAN_TARGET),
                  Figures.millis(needed),
                  Figures.millis(reader.nanos()),
                  Figures.millis(rows.get(RAW).nanos()))
              + (documentTargetOutOfReach()
                  ? " Out of reach in this run: the export reads and encodes every document as"
                      + " that row does, then writes it."
                  : ""));
    }
    return lines;
  }

  /** Whether the export ran at {@value #RAW_SCAN_TARGET}× the raw scan's docs/s or faster. */
  public boolean rawScanTargetMet() {
    return exportOverRawScan() >= RAW_SCAN_TARGET;
  }

  /** Whether the export ran at {@value #DOCUMENT_SCAN_TARGET}× the Document scan's docs/s. */
  public boolean documentScanTargetMet() {
    return exportOverDocumentScan() >= DOCUMENT_SCAN_TARGET;
  }

  /**
   * Whether the Document-scan target needed the export faster than the cursor and engine alone ran:
   * out of reach in this run, since the export reads and encodes every document as they do.
   */
  public boolean documentTargetOutOfReach() {
    return documentTargetNanos() < rows.get(READER).nanos();
  }

  private ExportRow export() {
    return rows.get(EXPORT);
  }

  private static double speedup(ExportRow row, ExportRow baseline) {
    return row.docsPerSecond() / Math.max(Double.MIN_NORMAL, baseline.docsPerSecond());
  }

  /** Rows that saw another number of documents than the raw scan; empty when all agree. */
  public List<String> inconsistencies() {
    List<String> problems = new ArrayList<>();
    for (ExportRow row : rows) {
      if (row.docs() != rows.get(RAW).docs()) {
        problems.add(
            row.name() + " saw " + row.docs() + " documents, the raw scan " + rows.get(RAW).docs());
      }
    }
    return problems;
  }

  /** The table in Markdown, with a header line that says how and where it was measured. */
  public String toMarkdown() {
    ExportRow floor = rows.get(RAW);
    var md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "Export: %s.%s, %,d documents, %s of BSON; batch size %d; shard size %s; median of %d run%s"
                + " after %s; load average %s at the start, %s at the end.%n",
            settings.database(),
            settings.collection(),
            floor.docs(),
            Figures.bytes(floor.bytes()),
            settings.batchSize(),
            Figures.bytes(settings.shardSize()),
            settings.runs(),
            settings.runs() == 1 ? "" : "s",
            switch (settings.warmups()) {
              case 0 -> "no warm-up run";
              case 1 -> "a warm-up run";
              default -> settings.warmups() + " warm-up runs";
            },
            loadBefore,
            loadAfter));
    md.append("Machine: ").append(machine).append(".\n");
    md.append("Server: ").append(server).append(".\n\n");
    md.append(
        "| what | time | docs/s | × raw scan | peak heap used | peak live heap | peak RSS"
            + (rssPerRow ? "" : " (whole process)")
            + " |\n");
    md.append("|---|---:|---:|---:|---:|---:|---:|\n");
    for (ExportRow r : rows) {
      md.append("| ")
          .append(r.name())
          .append(" | ")
          .append(Figures.millis(r.nanos()))
          .append(" | ")
          .append(Figures.rate(r.docsPerSecond()))
          .append(" | ")
          .append(Figures.ratio((double) r.nanos() / Math.max(1, floor.nanos())))
          .append(" | ")
          .append(Figures.bytes(r.peakUsedBytes()))
          .append(" | ")
          .append(Figures.bytes(r.peakLiveBytes()))
          .append(" | ")
          .append(r.peakRssBytes() < 0 ? "n/a" : Figures.bytes(r.peakRssBytes()))
          .append(" |\n");
    }
    ExportRow export = export();
    md.append('\n')
        .append("The export wrote ")
        .append(Figures.bytes(export.bytes()))
        .append(" of FlatBuffers; its steps in the last run: ")
        .append(export.detail())
        .append(".\n");
    for (String line : targets()) {
      md.append(line).append('\n');
    }
    return md.toString();
  }
}
