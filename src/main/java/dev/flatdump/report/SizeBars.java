package dev.flatdump.report;

import dev.flatdump.report.SizeReport.Artifact;
import dev.flatdump.report.SizeReport.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The sizes the HTML chart draws, grouped: MongoDB's three figures, the artifacts, then each
 * baseline raw, gzip and zstd. Past {@link #MAX_ARTIFACT_BARS} artifacts (many shards) the chart
 * shows one total per format instead of one bar per file, so that it stays readable.
 */
final class SizeBars {

  static final int MAX_ARTIFACT_BARS = 12;

  private SizeBars() {}

  /** What a bar stands for; the chart colours bars by it. */
  enum Kind {
    MONGODB("MongoDB", "#4f7d5c"),
    FLATBUFFERS("FlatBuffers", "#1f5fbf"),
    GZIP("gzip", "#4f8fe0"),
    ZSTD("zstd", "#8cb8ef"),
    COLUMNAR("columnar", "#2e8a9a"),
    BASELINE("baseline raw", "#c9731e"),
    BASELINE_GZIP("baseline gzip", "#e39b4f"),
    BASELINE_ZSTD("baseline zstd", "#f0c28e");

    final String legend;
    final String colour;

    Kind(String legend, String colour) {
      this.legend = legend;
      this.colour = colour;
    }

    static Kind ofFormat(String format) {
      return switch (format) {
        case "gzip" -> GZIP;
        case "zstd" -> ZSTD;
        case "columnar" -> COLUMNAR;
        default -> FLATBUFFERS;
      };
    }
  }

  /** One bar: its label, its size in bytes and what it stands for. */
  record Bar(String label, long bytes, Kind kind) {}

  /** The bars in groups; groups are drawn with a gap between them, empty ones are left out. */
  static List<List<Bar>> of(SizeReport report) {
    Source s = report.source();
    List<List<Bar>> groups = new ArrayList<>();
    groups.add(
        List.of(
            new Bar("MongoDB size (BSON)", s.size(), Kind.MONGODB),
            new Bar(
                "MongoDB storageSize (" + s.blockCompressor() + ")", s.storageSize(), Kind.MONGODB),
            new Bar("MongoDB totalIndexSize", s.totalIndexSize(), Kind.MONGODB)));
    List<Bar> artifacts = new ArrayList<>();
    if (report.artifacts().size() <= MAX_ARTIFACT_BARS) {
      for (Artifact a : report.artifacts()) {
        artifacts.add(new Bar(a.name(), a.bytes(), Kind.ofFormat(a.format())));
      }
    } else {
      for (Map.Entry<String, int[]> format : ReportTables.filesPerFormat(report).entrySet()) {
        String label = "all " + format.getKey() + " (" + format.getValue()[0] + " files)";
        artifacts.add(
            new Bar(label, report.totalBytes(format.getKey()), Kind.ofFormat(format.getKey())));
      }
    }
    if (!artifacts.isEmpty()) {
      groups.add(artifacts);
    }
    for (BaselineSize b : report.baselines()) {
      String id = b.baseline().id();
      groups.add(
          List.of(
              new Bar("baseline " + id, b.bytes(), Kind.BASELINE),
              new Bar("baseline " + id + " · gzip", b.gzipBytes(), Kind.BASELINE_GZIP),
              new Bar("baseline " + id + " · zstd", b.zstdBytes(), Kind.BASELINE_ZSTD)));
    }
    return groups;
  }
}
