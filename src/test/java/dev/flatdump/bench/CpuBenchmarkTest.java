package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Smoke tests: the benchmark still runs and its rows agree with each other. Nothing is timed. */
class CpuBenchmarkTest {

  private static final int ORGS = 300;

  @Test
  void measuresEveryRowAndTheRowsAgree() {
    List<String> log = new ArrayList<>();
    CpuReport report =
        CpuBenchmark.run(new CpuBenchmark.Settings(Profile.REALISTIC, ORGS, 7, 2), log::add);

    assertThat(report.rows())
        .extracting(CpuRow::name)
        .containsExactly(
            "driver Document decode (DocumentCodec)",
            "OrgCodec decode into records (BsonBinaryReader)",
            "flatdump engine on organizations.fbs, all de-dup (the export's)",
            "flatdump engine on organizations.fbs, strings only",
            "protobuf: the decoded records built and serialized (as the articles)",
            "flatdump engine, all de-dup, tables through the builder's puts (no BuilderSpace)");
    for (CpuRow row : report.rows()) {
      assertThat(row.docs()).as(row.name()).isEqualTo(ORGS);
      assertThat(row.medianNanos()).as(row.name()).isPositive();
      assertThat(row.bestNanos()).as(row.name()).isBetween(1L, row.medianNanos());
      assertThat(row.allocatedBytes()).as(row.name()).isPositive();
    }
    assertThat(report.inconsistencies()).isEmpty();
    assertThat(log).hasSize(1 + 2 * 6); // the generating line, then one per row and run
    for (CpuRow row : report.rows()) {
      assertThat(row.runNanos()).as(row.name()).hasSize(2).contains(row.bestNanos());
    }
  }

  @Test
  void reportsTheEngineWritingMoreWithEveryDeDupThanWithStringsOnly() {
    List<CpuRow> rows = new ArrayList<>(List.of(row("a", 1), row("b", 1)));
    rows.add(new CpuRow("all", 10, 1, 1, 1, 500, List.of(1L)));
    rows.add(new CpuRow("strings", 10, 1, 1, 1, 400, List.of(1L)));
    CpuReport report =
        new CpuReport(new CpuBenchmark.Settings(Profile.ARTICLE, 10, 1, 1), 1, "m", "l", rows);

    assertThat(report.inconsistencies())
        .containsExactly(
            "the engine wrote 500 bytes with every de-dup, more than with strings only: 400");
  }

  private static CpuRow row(String name, long... runs) {
    long[] r = runs.length == 0 ? new long[] {1, 1, 1} : runs;
    return new CpuRow(name, 10, r[0], r[0], 1, 1, java.util.Arrays.stream(r).boxed().toList());
  }

  @Test
  void checksumsAreWhatTheRowsDid() {
    CpuReport report =
        CpuBenchmark.run(new CpuBenchmark.Settings(Profile.ARTICLE, ORGS, 9, 1), line -> {});
    List<Org> orgs = new OrgGenerator(Profile.ARTICLE, 9).stream().limit(ORGS).toList();
    long attributes = orgs.stream().mapToLong(o -> o.attributes().size()).sum();

    // the Document codec counts the top-level fields: _id and the org's five
    assertThat(report.rows().get(0).checksum()).isEqualTo(6L * ORGS);
    assertThat(report.rows().get(1).checksum()).isEqualTo(attributes);
    // the finished buffers: each holds at least every attribute's six fields
    assertThat(report.rows().get(2).checksum()).isGreaterThan(attributes * 6);
    assertThat(report.rows().get(2).checksum())
        .isLessThanOrEqualTo(report.rows().get(3).checksum());
    assertThat(report.rows().get(4).checksum())
        .isEqualTo(dev.flatdump.testing.ProtobufOrgs.of(orgs).getSerializedSize());
    // the same bytes, whichever way the tables were written
    assertThat(report.rows().get(5).checksum()).isEqualTo(report.rows().get(2).checksum());
  }

  @Test
  void printsOneTableRowPerRow() {
    CpuReport report =
        CpuBenchmark.run(new CpuBenchmark.Settings(Profile.REALISTIC, 20, 1, 1), line -> {});

    assertThat(report.toMarkdown())
        .contains("CPU per document: profile realistic, 20 orgs (seed 1)")
        .contains("| what | CPU per doc | fastest run | docs per CPU second | allocated per doc |")
        .containsPattern(
            "\\| OrgCodec decode into records \\(BsonBinaryReader\\) \\| [0-9,]+ ns \\|");
  }

  @Test
  void rejectsSettingsWithNothingToMeasure() {
    assertThatThrownBy(() -> new CpuBenchmark.Settings(Profile.REALISTIC, 0, 1, 1))
        .hasMessageContaining("orgs must be >= 1, got 0");
    assertThatThrownBy(() -> new CpuBenchmark.Settings(Profile.REALISTIC, 1, 1, 0))
        .hasMessageContaining("runs must be >= 1, got 0");
  }
}
