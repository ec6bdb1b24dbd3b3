package dev.flatdump.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@link CpuBenchmark} measured. Rows, in order: the driver's Document codec, {@code
 * OrgCodec}, the export's engine with all de-dup, and with strings only, and protobuf serializing
 * the records. Immutable.
 *
 * @param settings what was run
 * @param bsonBytes the documents' total size
 * @param machine see {@link MachineInfo#describe()}
 * @param load the load average at the end
 * @param rows the rows
 */
public record CpuReport(
    CpuBenchmark.Settings settings,
    long bsonBytes,
    String machine,
    String load,
    List<CpuRow> rows) {

  private static final int ALL = 2;
  private static final int STRINGS = 3;
  private static final int PUTS_ONLY = 5;

  public CpuReport {
    rows = List.copyOf(rows);
  }

  /**
   * Rows that disagree: the engine with every de-dup must not write more bytes than with strings
   * only, nor other bytes with its tables through the builder's puts. Empty when they agree.
   */
  public List<String> inconsistencies() {
    List<String> problems = new ArrayList<>();
    if (rows.size() > PUTS_ONLY && rows.get(PUTS_ONLY).checksum() != rows.get(ALL).checksum()) {
      problems.add(
          "the engine wrote "
              + rows.get(PUTS_ONLY).checksum()
              + " bytes with tables through the builder's puts, not the "
              + rows.get(ALL).checksum()
              + " it writes straight into the builder's array");
    }
    if (rows.get(ALL).checksum() > rows.get(STRINGS).checksum()) {
      problems.add(
          "the engine wrote "
              + rows.get(ALL).checksum()
              + " bytes with every de-dup, more than with strings only: "
              + rows.get(STRINGS).checksum());
    }
    return problems;
  }

  /** The table in Markdown, with a header line that says how and where it was measured. */
  public String toMarkdown() {
    var md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "CPU per document: profile %s, %,d orgs (seed %d), %s of BSON in memory; this thread's"
                + " CPU time, median of %d run%s after a warm-up run; load average %s at the"
                + " end.%n",
            settings.profile().name().toLowerCase(Locale.ROOT),
            settings.orgs(),
            settings.seed(),
            Figures.bytes(bsonBytes),
            settings.runs(),
            settings.runs() == 1 ? "" : "s",
            load));
    md.append("Machine: ").append(machine).append(".\n\n");
    md.append("| what | CPU per doc | fastest run | docs per CPU second | allocated per doc |\n");
    md.append("|---|---:|---:|---:|---:|\n");
    for (CpuRow r : rows) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %,.0f ns | %,.0f ns | %s | %s |%n",
              r.name(),
              r.nanosPerDoc(),
              (double) r.bestNanos() / r.docs(),
              Figures.rate(1e9 / Math.max(1, r.nanosPerDoc())),
              Figures.bytes(r.allocatedBytes() / r.docs())));
    }
    return md.toString();
  }
}
