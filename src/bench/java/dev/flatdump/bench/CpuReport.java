package dev.flatdump.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@link CpuBenchmark} measured. Rows, in order: the driver's Document codec, {@code
 * OrgCodec}, {@code RawOrgDecoder}, the builder alone, decoding and encoding together. Immutable.
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

  private static final int CODEC = 1;
  private static final int RAW = 2;
  private static final int ENCODE = 3;
  private static final int BOTH = 4;
  private static final int ENGINE = 5;

  public CpuReport {
    rows = List.copyOf(rows);
  }

  /**
   * Rows that disagree: both decoders must count the same attributes, and decoding while encoding
   * must finish the same FlatBuffer size as encoding decoded records. Empty when they agree.
   */
  public List<String> inconsistencies() {
    List<String> problems = new ArrayList<>();
    if (rows.get(CODEC).checksum() != rows.get(RAW).checksum()) {
      problems.add(
          "OrgCodec decoded "
              + rows.get(CODEC).checksum()
              + " attributes, RawOrgDecoder "
              + rows.get(RAW).checksum());
    }
    if (rows.get(ENCODE).checksum() != rows.get(BOTH).checksum()) {
      problems.add(
          "encoding decoded records wrote "
              + rows.get(ENCODE).checksum()
              + " bytes, decoding and encoding together "
              + rows.get(BOTH).checksum());
    }
    return problems;
  }

  /**
   * Per measured run, the schema-driven engine's docs per CPU second over the hand-written engine's
   * (decoding and encoding together): the two rows of a run are measured back to back, so each
   * ratio is taken under one state of the machine.
   */
  public double[] engineRatios() {
    return Figures.runRatios(rows.get(BOTH).runNanos(), rows.get(ENGINE).runNanos());
  }

  /** The median of {@link #engineRatios()}. */
  public double engineRatio() {
    return Figures.median(engineRatios());
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
    md.append(
        String.format(
            Locale.ROOT,
            "%nThe schema-driven engine at %s the hand-written engine's docs per CPU second:"
                + " the median of each run's ratio (%s), its two rows measured back to back.%n",
            Figures.ratio(engineRatio()),
            Figures.ratios(engineRatios())));
    return md.toString();
  }
}
