package dev.flatdump.bench;

import dev.flatdump.artifact.compress.GzipCompression;
import dev.flatdump.artifact.compress.ZstdCompression;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@link CodecBenchmark} measured, with the conditions it measured them in. Immutable.
 *
 * @param settings what was run
 * @param machine see {@link MachineInfo#describe()}
 * @param loadBefore the load average when the benchmark started
 * @param loadAfter the load average when it ended
 * @param rows one per codec, in table order
 */
public record CodecReport(
    CodecBenchmark.Settings settings,
    String machine,
    String loadBefore,
    String loadAfter,
    List<CodecRow> rows) {

  public CodecReport {
    rows = List.copyOf(rows);
  }

  /**
   * Rows that read back other data than the first row: every row encodes the same records, so any
   * difference is a bug in a codec or in the benchmark. Empty when all agree.
   */
  public List<String> inconsistencies() {
    List<String> problems = new ArrayList<>();
    if (rows.isEmpty()) {
      return problems;
    }
    CodecRow first = rows.get(0);
    for (CodecRow row : rows) {
      if (row.someChecksum() != first.someChecksum() || row.allChecksum() != first.allChecksum()) {
        problems.add(row.name() + " reads back other data than " + first.name());
      }
    }
    return problems;
  }

  /** The table in Markdown, with a header line that says how and where it was measured. */
  public String toMarkdown() {
    var md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "Codecs: profile %s, %,d orgs (seed %d); median of %d run%s after a warm-up run;"
                + " load average %s at the start, %s at the end.%n",
            settings.profile().name().toLowerCase(Locale.ROOT),
            settings.orgs(),
            settings.seed(),
            settings.runs(),
            settings.runs() == 1 ? "" : "s",
            loadBefore,
            loadAfter));
    md.append("Machine: ").append(machine).append(".\n\n");
    md.append(
        "| format | write | file | gzip -"
            + GzipCompression.DEFAULT_LEVEL
            + " | zstd -"
            + ZstdCompression.DEFAULT_LEVEL
            + " | peak heap used | peak live heap | read some | read all |\n");
    md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (CodecRow r : rows) {
      md.append("| ")
          .append(r.name())
          .append(" | ")
          .append(Figures.millis(r.writeNanos()))
          .append(" | ")
          .append(Figures.bytes(r.fileBytes()))
          .append(" | ")
          .append(Figures.bytes(r.gzipBytes()))
          .append(" | ")
          .append(Figures.bytes(r.zstdBytes()))
          .append(" | ")
          .append(Figures.bytes(r.peakUsedBytes()))
          .append(" | ")
          .append(Figures.bytes(r.peakLiveBytes()))
          .append(" | ")
          .append(Figures.millis(r.readSomeNanos()))
          .append(" | ")
          .append(Figures.millis(r.readAllNanos()))
          .append(" |\n");
    }
    return md.toString();
  }
}
