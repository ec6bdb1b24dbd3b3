package dev.flatdump.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.report.SizeReport.Artifact;
import dev.flatdump.report.SizeReport.Records;
import dev.flatdump.report.SizeReport.Source;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class SizeReportTest {

  private static final SizeReport SMALL = SampleReports.small("organizations");

  @Nested
  class RecordCounts {

    @Test
    void acceptsReadEqualToExportedPlusRejected() {
      assertThat(new Records(12, 10, 2).read()).isEqualTo(12);
    }

    @Test
    void rejectsReadDifferentFromExportedPlusRejected() {
      assertThatThrownBy(() -> new Records(13, 10, 2))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Records.read must equal exported + rejected = 12, was 13");
    }

    @Test
    void rejectsNegativeCounts() {
      assertThatThrownBy(() -> new Records(0, 1, -1))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Records.rejected must be >= 0, was -1");
    }
  }

  @Nested
  class Ratios {

    @Test
    void dividesBySizeAndStorageSize() {
      Source source = SMALL.source();

      assertThat(source.ratioToSize(250)).isEqualTo(0.25);
      assertThat(source.ratioToStorageSize(250)).isEqualTo(0.5);
    }

    @Test
    void areNaNForAnEmptyCollection() {
      var empty = new Source("crm", "orgs", "{}", 0, 0, 0, 0, 0, "zstd", 0, true);

      assertThat(empty.ratioToSize(10)).isNaN();
      assertThat(empty.ratioToStorageSize(10)).isNaN();
    }

    @Test
    void callStorageNotCheckpointedOnlyWhenUnflushedAndBelowTheSmallestCompressedCopy() {
      // SMALL: a 250-byte FlatBuffers file and its 100-byte gzip copy
      List<Artifact> all = SMALL.artifacts();
      List<Artifact> fbOnly = all.subList(0, 1);

      assertThat(SampleReports.withStorage(SMALL, 99, false, all).storageNotCheckpointed())
          .isTrue();
      assertThat(SampleReports.withStorage(SMALL, 0, false, all).storageNotCheckpointed()).isTrue();
      assertThat(SampleReports.withStorage(SMALL, 100, false, all).storageNotCheckpointed())
          .isFalse();
      assertThat(SampleReports.withStorage(SMALL, 99, true, all).storageNotCheckpointed())
          .as("flushed figures are what the disk holds")
          .isFalse();
      assertThat(SampleReports.withStorage(SMALL, 99, false, fbOnly).storageNotCheckpointed())
          .as("no compressed copy to compare with")
          .isFalse();
    }

    @Test
    void sumBytesPerFormat() {
      assertThat(SampleReports.articleLike().totalBytes("flatbuffers")).isEqualTo(45_180_579);
      assertThat(SMALL.totalBytes("zstd")).isZero();
    }
  }

  @Nested
  class Validation {

    @Test
    void namesTheBadSourceField() {
      assertThatThrownBy(() -> new Source("crm", "orgs", "{}", 1, 1, -5, 0, 0, "snappy", 1, true))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Source.storageSize must be >= 0, was -5");
      assertThatThrownBy(() -> new Source("crm", " ", "{}", 1, 1, 1, 0, 0, "snappy", 1, true))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Source.collection must not be blank, was ' '");
    }

    @Test
    void rejectsAnUnknownArtifactFormat() {
      assertThatThrownBy(() -> new Artifact("a.lz4", "lz4", 1, SampleReports.SHA_A))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Artifact.format must be flatbuffers, columnar, gzip or zstd, was 'lz4'");
    }

    @Test
    void rejectsAMalformedSha256AndLowerCasesAGoodOne() {
      assertThatThrownBy(() -> new Artifact("a.fb", "flatbuffers", 1, "abc"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Artifact.sha256 must be 64 hex digits, was 'abc'");
      assertThat(new Artifact("a.fb", "flatbuffers", 1, "AB".repeat(32)).sha256())
          .isEqualTo("ab".repeat(32));
    }

    @Test
    void rejectsANegativeShard() {
      assertThatThrownBy(() -> new Artifact("a.fb", "flatbuffers", 1, SampleReports.SHA_A, -1))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Artifact.shard must be >= 0, was -1");
    }

    @Test
    void rejectsAFinishBeforeTheStart() {
      Instant before = SMALL.startedAt().minusSeconds(1);

      assertThatThrownBy(() -> withTimes(SMALL.startedAt(), before))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("SizeReport.finishedAt must not be before startedAt");
    }

    @Test
    void rejectsANonFiniteRate() {
      assertThatThrownBy(() -> withRate(Double.NaN))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("SizeReport.docsPerSecond must be finite and >= 0, was NaN");
    }

    @Test
    void rejectsNullListElementsNamingTheIndex() {
      List<Artifact> artifacts = new ArrayList<>(SMALL.artifacts());
      artifacts.add(null);

      assertThatThrownBy(
              () ->
                  new SizeReport(
                      SMALL.source(),
                      artifacts,
                      SMALL.baselines(),
                      SMALL.dedup(),
                      SMALL.records(),
                      SMALL.steps(),
                      1,
                      1,
                      SMALL.startedAt(),
                      SMALL.finishedAt(),
                      SMALL.options()))
          .isInstanceOf(NullPointerException.class)
          .hasMessage("SizeReport.artifacts[2] must not be null");
    }

    @Test
    void copiesItsLists() {
      List<BaselineSize> baselines = new ArrayList<>(SMALL.baselines());
      SizeReport report =
          new SizeReport(
              SMALL.source(),
              SMALL.artifacts(),
              baselines,
              SMALL.dedup(),
              SMALL.records(),
              SMALL.steps(),
              1,
              1,
              SMALL.startedAt(),
              SMALL.finishedAt(),
              SMALL.options());

      baselines.clear();

      assertThat(report.baselines()).hasSize(1);
      assertThatThrownBy(() -> report.baselines().clear())
          .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void rejectsNegativeBaselineBytes() {
      assertThatThrownBy(() -> new BaselineSize(Baseline.JSON, 1, -2, 1))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("BaselineSize.gzipBytes must be >= 0, was -2");
    }

    private SizeReport withTimes(Instant startedAt, Instant finishedAt) {
      return new SizeReport(
          SMALL.source(),
          SMALL.artifacts(),
          SMALL.baselines(),
          SMALL.dedup(),
          SMALL.records(),
          SMALL.steps(),
          1,
          1,
          startedAt,
          finishedAt,
          SMALL.options());
    }

    private SizeReport withRate(double docsPerSecond) {
      return new SizeReport(
          SMALL.source(),
          SMALL.artifacts(),
          SMALL.baselines(),
          SMALL.dedup(),
          SMALL.records(),
          SMALL.steps(),
          docsPerSecond,
          1,
          SMALL.startedAt(),
          SMALL.finishedAt(),
          SMALL.options());
    }
  }
}
