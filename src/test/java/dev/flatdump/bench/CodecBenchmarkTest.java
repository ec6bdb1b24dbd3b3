package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.bench.samples.Profile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Smoke tests: the benchmark still runs and its rows agree. Nothing here is timed. */
class CodecBenchmarkTest {

  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class OnRealisticData {

    private Path dir;
    private final List<String> log = new ArrayList<>();
    private CodecReport report;
    private Map<String, CodecRow> rows;

    @BeforeAll
    void runOnce(@TempDir Path dir) throws IOException {
      this.dir = dir;
      report =
          CodecBenchmark.run(
              new CodecBenchmark.Settings(Profile.REALISTIC, 200, 7, 1, dir, false), log::add);
      rows = report.rows().stream().collect(Collectors.toMap(CodecRow::name, Function.identity()));
    }

    @Test
    void measuresEveryRowOfTheArticlesTable() {
      assertThat(report.rows())
          .extracting(CodecRow::name)
          .containsExactly(
              "JSON (Jackson, as the articles)",
              "protobuf (as the articles)",
              "FlatBuffers plain",
              "FlatBuffers + strings de-dup",
              "FlatBuffers + strings + attributes, naive HashMap<Attr,Integer>",
              "flatdump strings only",
              "flatdump strings + tables",
              "flatdump strings + tables + vectors (export default)");
      for (CodecRow row : report.rows()) {
        assertThat(row.fileBytes()).as(row.name()).isPositive();
        assertThat(row.gzipBytes()).as(row.name()).isPositive();
        assertThat(row.zstdBytes()).as(row.name()).isPositive();
        assertThat(row.writeNanos()).as(row.name()).isPositive();
        assertThat(row.readSomeNanos()).as(row.name()).isPositive();
        assertThat(row.readAllNanos()).as(row.name()).isPositive();
        assertThat(row.peakUsedBytes()).as(row.name()).isNotNegative();
        assertThat(row.peakLiveBytes()).as(row.name()).isNotNegative();
      }
    }

    @Test
    void everyRowReadsBackTheSameData() {
      assertThat(report.inconsistencies()).isEmpty();
    }

    @Test
    void flatdumpIsSmallerThanPlainAndStringDedup() {
      long flatdump = rows.get("flatdump strings + tables + vectors (export default)").fileBytes();
      assertThat(flatdump).isLessThan(rows.get("FlatBuffers plain").fileBytes());
      assertThat(flatdump).isLessThan(rows.get("FlatBuffers + strings de-dup").fileBytes());
      assertThat(rows.get("FlatBuffers + strings de-dup").fileBytes())
          .isLessThan(rows.get("FlatBuffers plain").fileBytes());
    }

    @Test
    void naiveAttributeDedupWritesAboutWhatFlatdumpWrites() {
      // the same tables shared; the engine lays some tables out otherwise than generated code
      assertThat(
              rows.get("FlatBuffers + strings + attributes, naive HashMap<Attr,Integer>")
                  .fileBytes())
          .isCloseTo(
              rows.get("flatdump strings + tables").fileBytes(),
              org.assertj.core.data.Percentage.withPercentage(0.5));
    }

    @Test
    void articleStringDedupWritesAboutWhatFlatdumpWritesWithStringsOnly() {
      assertThat(rows.get("FlatBuffers + strings de-dup").fileBytes())
          .isCloseTo(
              rows.get("flatdump strings only").fileBytes(),
              org.assertj.core.data.Percentage.withPercentage(0.5));
    }

    @Test
    void deletesItsFilesWhenNotAskedToKeepThem() throws IOException {
      try (var files = Files.list(dir)) {
        assertThat(files).isEmpty();
      }
    }

    @Test
    void printsAMarkdownTableWithTheLoadAverage() {
      String md = report.toMarkdown();
      assertThat(md).contains("profile realistic, 200 orgs (seed 7)", "load average");
      assertThat(md.lines().filter(l -> l.startsWith("| ")).count()).isEqualTo(1 + 8);
      assertThat(log).anyMatch(l -> l.contains("write run 1"));
    }
  }

  @Test
  void keepsItsFilesWhenAsked(@TempDir Path dir) throws IOException {
    CodecBenchmark.run(
        new CodecBenchmark.Settings(Profile.ARTICLE, 20, 1, 1, dir, true), line -> {});

    try (var files = Files.list(dir)) {
      assertThat(files).hasSize(8);
    }
  }

  @Test
  void rejectsSettingsWithoutOrgsOrRuns(@TempDir Path dir) {
    assertThatThrownBy(() -> new CodecBenchmark.Settings(Profile.ARTICLE, 0, 1, 1, dir, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("orgs must be >= 1, got 0");
    assertThatThrownBy(() -> new CodecBenchmark.Settings(Profile.ARTICLE, 1, 1, 0, dir, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("runs must be >= 1, got 0");
  }
}
