package dev.flatdump.report;

import dev.flatdump.encode.engine.EncodeCounts;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.report.SizeReport.Artifact;
import dev.flatdump.report.SizeReport.Options;
import dev.flatdump.report.SizeReport.Records;
import dev.flatdump.report.SizeReport.Source;
import dev.flatdump.report.SizeReport.Step;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Size reports for tests: round figures that are easy to check, and one shaped like the article.
 */
final class SampleReports {

  static final String SHA_A = "a".repeat(64);
  static final String SHA_B = "0123456789abcdef".repeat(4);
  static final Instant STARTED = Instant.parse("2025-03-01T10:00:00Z");
  static final Instant FINISHED = Instant.parse("2025-03-01T10:00:12.500Z");

  private SampleReports() {}

  /** size 1,000, storageSize 500; one 250-byte FlatBuffers file and its 100-byte gzip copy. */
  /** The attribute table type's key in the de-dup counts. */
  static final String ATTRIBUTE = "dev.flatdump.schema.fb.Attribute";

  static SizeReport small(String collection) {
    return new SizeReport(
        new Source(
            "crm", collection, "{\"type\": \"FOO\"}", 10, 1000, 500, 20, 64, "snappy", 100, true),
        List.of(
            new Artifact("orgs.fb", "flatbuffers", 250, SHA_A),
            new Artifact("orgs.fb.gz", "gzip", 100, SHA_B)),
        List.of(new BaselineSize(Baseline.PLAIN, 800, 300, 280)),
        SizeReport.Dedup.of(
            new EncodeCounts(
                List.of(
                    new Sharing.Count("strings", 40, 10, 300),
                    new Sharing.Count(ATTRIBUTE, 30, 15, 420),
                    new Sharing.Count("vectors", 10, 10, 0)),
                Map.of("comment", 3L))),
        new Records(12, 10, 2),
        List.of(new Step("exportStep", 9000), new Step("reportStep", 1500)),
        0.8,
        64L << 20,
        STARTED,
        FINISHED,
        new Options("strings,tables,vectors", "gzip", 256L << 20));
  }

  /** Figures like the article's real collection: 737 MB in MongoDB, two shards, all baselines. */
  static SizeReport articleLike() {
    long mib = 1L << 20;
    return new SizeReport(
        new Source(
            "crm",
            "organizations",
            "{}",
            1_250_000,
            737 * mib,
            510 * mib,
            3 * mib,
            38 * mib,
            "snappy",
            618,
            true),
        List.of(
            new Artifact("organizations-00000.fb", "flatbuffers", 23_600_123, SHA_A, 0),
            new Artifact("organizations-00001.fb", "flatbuffers", 21_580_456, SHA_B, 1),
            new Artifact("organizations-00000.fb.gz", "gzip", 13_100_000, SHA_A, 0),
            new Artifact("organizations-00001.fb.gz", "gzip", 12_050_000, SHA_B, 1),
            new Artifact("organizations-00000.fb.zst", "zstd", 11_900_000, SHA_A, 0),
            new Artifact("organizations-00001.fb.zst", "zstd", 10_970_000, SHA_B, 1)),
        List.of(
            new BaselineSize(Baseline.PLAIN, 390 * mib, 160 * mib, 120 * mib),
            new BaselineSize(Baseline.STRINGS, 186 * mib, 110 * mib, 95 * mib),
            new BaselineSize(Baseline.PROTOBUF, 300 * mib, 130 * mib, 112 * mib),
            new BaselineSize(Baseline.JSON, 1100 * mib, 150 * mib, 118 * mib)),
        SizeReport.Dedup.of(
            new EncodeCounts(
                List.of(
                    new Sharing.Count("strings", 6_100_000, 1_260_000, 61_000_000),
                    new Sharing.Count(ATTRIBUTE, 25_000_000, 310_000, 790_000_000),
                    new Sharing.Count("vectors", 1_249_990, 905_000, 120_000_000)),
                Map.of())),
        new Records(1_250_000, 1_249_990, 10),
        List.of(
            new Step("exportStep", 41_200),
            new Step("compressStep", 9_800),
            new Step("reportStep", 35_100)),
        30_339.6,
        412 * mib,
        Instant.parse("2025-03-01T10:00:00Z"),
        Instant.parse("2025-03-01T10:01:26.400Z"),
        new Options("strings,tables,vectors", "gzip,zstd", 64L << 20));
  }

  /** {@code report} with MongoDB's storageSize, read with a flush or not, and these artifacts. */
  static SizeReport withStorage(
      SizeReport report, long storageSize, boolean flushed, List<Artifact> artifacts) {
    Source s = report.source();
    return new SizeReport(
        new Source(
            s.database(),
            s.collection(),
            s.query(),
            s.count(),
            s.size(),
            storageSize,
            s.freeStorageSize(),
            s.totalIndexSize(),
            s.blockCompressor(),
            s.avgObjSize(),
            flushed),
        artifacts,
        report.baselines(),
        report.dedup(),
        report.records(),
        report.steps(),
        report.docsPerSecond(),
        report.peakHeapBytes(),
        report.startedAt(),
        report.finishedAt(),
        report.options());
  }
}
