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
 * @param rows raw scan, Document scan, flatdump reader, flatdump export
 */
public record ExportReport(
    ExportBenchmark.Settings settings,
    String machine,
    String server,
    String loadBefore,
    String loadAfter,
    boolean rssPerRow,
    List<ExportRow> rows) {

  public ExportReport {
    rows = List.copyOf(rows);
  }

  /** Rows that saw another number of documents than the raw scan; empty when all agree. */
  public List<String> inconsistencies() {
    List<String> problems = new ArrayList<>();
    for (ExportRow row : rows) {
      if (row.docs() != rows.get(0).docs()) {
        problems.add(
            row.name() + " saw " + row.docs() + " documents, the raw scan " + rows.get(0).docs());
      }
    }
    return problems;
  }

  /** The table in Markdown, with a header line that says how and where it was measured. */
  public String toMarkdown() {
    ExportRow floor = rows.get(0);
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
    ExportRow export = rows.get(rows.size() - 1);
    md.append('\n')
        .append("The export wrote ")
        .append(Figures.bytes(export.bytes()))
        .append(" of FlatBuffers; its steps in the last run: ")
        .append(export.detail())
        .append(".\n");
    return md.toString();
  }
}
