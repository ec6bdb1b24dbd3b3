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
            "RawOrgDecoder decode (the export's)",
            "FlatBufferOrgsBuilder encode, all de-dup",
            "decode + encode, one document at a time (the export's main thread)",
            "schema-driven engine on organizations.fbs, all de-dup (export --schema)");
    for (CpuRow row : report.rows()) {
      assertThat(row.docs()).as(row.name()).isEqualTo(ORGS);
      assertThat(row.medianNanos()).as(row.name()).isPositive();
      assertThat(row.bestNanos()).as(row.name()).isBetween(1L, row.medianNanos());
      assertThat(row.allocatedBytes()).as(row.name()).isPositive();
    }
    assertThat(report.inconsistencies()).isEmpty();
    assertThat(log).hasSize(1 + 2 * 6); // the generating line, then one per row and run
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
        .containsPattern("\\| RawOrgDecoder decode \\(the export's\\) \\| [0-9,]+ ns \\|");
  }

  @Test
  void rejectsSettingsWithNothingToMeasure() {
    assertThatThrownBy(() -> new CpuBenchmark.Settings(Profile.REALISTIC, 0, 1, 1))
        .hasMessageContaining("orgs must be >= 1, got 0");
    assertThatThrownBy(() -> new CpuBenchmark.Settings(Profile.REALISTIC, 1, 1, 0))
        .hasMessageContaining("runs must be >= 1, got 0");
  }
}
