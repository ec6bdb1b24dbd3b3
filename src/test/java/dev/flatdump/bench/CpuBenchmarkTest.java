package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.Org;
import dev.flatdump.encode.DedupOptions;
import dev.flatdump.encode.FlatBufferOrgsBuilder;
import dev.flatdump.sample.OrgGenerator;
import dev.flatdump.sample.Profile;
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
            "OrgCodec decode (BsonBinaryReader)",
            "RawOrgDecoder decode (the hand-written engine's)",
            "FlatBufferOrgsBuilder encode, all de-dup",
            "hand-written engine: decode + encode, one document at a time",
            "schema-driven engine on organizations.fbs, all de-dup (the export's)");
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
  void comparesTheEnginesRunByRun() {
    CpuRow hand = row("decode + encode", 100, 300, 200);
    CpuRow engine = row("schema-driven", 200, 200, 400);
    List<CpuRow> rows = new ArrayList<>(List.of(row("a"), row("b"), row("c"), row("d")));
    rows.add(hand);
    rows.add(engine);
    CpuReport report =
        new CpuReport(new CpuBenchmark.Settings(Profile.ARTICLE, 10, 1, 3), 1, "m", "l", rows);

    assertThat(report.engineRatios()).containsExactly(0.5, 1.5, 0.5);
    assertThat(report.engineRatio()).isEqualTo(0.5);
    assertThat(report.toMarkdown())
        .contains(
            "The schema-driven engine at 0.50× the hand-written engine's docs per CPU second:"
                + " the median of each run's ratio (0.50×, 1.50×, 0.50×)");
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
    var builder = new FlatBufferOrgsBuilder(DedupOptions.ALL, 1024);
    orgs.forEach(builder::add);

    // the Document codec counts the top-level fields: _id and the org's five
    assertThat(report.rows().get(0).checksum()).isEqualTo(6L * ORGS);
    assertThat(report.rows().get(1).checksum()).isEqualTo(attributes);
    assertThat(report.rows().get(2).checksum()).isEqualTo(attributes);
    assertThat(report.rows().get(3).checksum()).isEqualTo(builder.finish().remaining());
    assertThat(report.rows().get(4).checksum()).isEqualTo(report.rows().get(3).checksum());
    // the schema engine's artifact is within 0.5 % of the hand-written engine's
    assertThat(report.rows().get(5).checksum())
        .isCloseTo(
            report.rows().get(3).checksum(), org.assertj.core.data.Percentage.withPercentage(0.5));
  }

  @Test
  void printsOneTableRowPerRow() {
    CpuReport report =
        CpuBenchmark.run(new CpuBenchmark.Settings(Profile.REALISTIC, 20, 1, 1), line -> {});

    assertThat(report.toMarkdown())
        .contains("CPU per document: profile realistic, 20 orgs (seed 1)")
        .contains("| what | CPU per doc | fastest run | docs per CPU second | allocated per doc |")
        .containsPattern(
            "\\| RawOrgDecoder decode \\(the hand-written engine's\\) \\| [0-9,]+ ns \\|");
  }

  @Test
  void rejectsSettingsWithNothingToMeasure() {
    assertThatThrownBy(() -> new CpuBenchmark.Settings(Profile.REALISTIC, 0, 1, 1))
        .hasMessageContaining("orgs must be >= 1, got 0");
    assertThatThrownBy(() -> new CpuBenchmark.Settings(Profile.REALISTIC, 1, 1, 0))
        .hasMessageContaining("runs must be >= 1, got 0");
  }
}
