package dev.flatdump.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The sentences that open every rendering and make up the terminal summary. Plain, unescaped text.
 */
final class Lead {

  private Lead() {}

  /** The lead of report.md and report.html: records and time, one line per format, the options. */
  static List<String> lines(SizeReport report) {
    List<String> lines = new ArrayList<>();
    lines.add(records(report) + "; took " + time(report) + ".");
    formats(report).forEach(line -> lines.add(line + "."));
    SizeReport.Options o = report.options();
    lines.add(
        "Run "
            + Units.second(report.startedAt())
            + " to "
            + Units.second(report.finishedAt())
            + " with dedup "
            + o.dedup()
            + ", compress "
            + o.compress()
            + ", shard size "
            + Units.setting(o.shardSize())
            + ".");
    return lines;
  }

  /** The terminal summary: about ten lines, ending in a line break. */
  static String summary(SizeReport report) {
    SizeReport.Source s = report.source();
    var out = new StringBuilder();
    out.append("flatdump size report for ")
        .append(s.database())
        .append('.')
        .append(s.collection())
        .append('\n');
    out.append("  ").append(records(report)).append('\n');
    out.append("  MongoDB: size ")
        .append(Units.bytes(s.size()))
        .append(", storageSize ")
        .append(Units.bytes(s.storageSize()))
        .append(" (")
        .append(s.blockCompressor())
        .append(storageNote(report))
        .append("), indexes ")
        .append(Units.bytes(s.totalIndexSize()))
        .append('\n');
    for (String line : formats(report)) {
      out.append("  ").append(line).append('\n');
    }
    out.append("  De-dup saved:");
    String kindSep = " ";
    for (SizeReport.Shared k : report.dedup().kinds()) {
      out.append(kindSep).append(k.label()).append(' ').append(saved(k));
      kindSep = ", ";
    }
    out.append('\n');
    if (!report.dedup().unknownFields().isEmpty()) {
      out.append("  Fields the schema does not name (skipped): ")
          .append(String.join(", ", report.dedup().unknownFields().keySet()))
          .append('\n');
    }
    if (!report.baselines().isEmpty()) {
      out.append("  Baselines (raw / gzip):");
      String sep = " ";
      for (BaselineSize b : report.baselines()) {
        out.append(sep)
            .append(b.baseline().id())
            .append(' ')
            .append(Units.bytes(b.bytes()))
            .append(" / ")
            .append(Units.bytes(b.gzipBytes()));
        sep = ", ";
      }
      out.append('\n');
    }
    out.append("  Time: ").append(time(report)).append('\n');
    return out.toString();
  }

  private static String records(SizeReport report) {
    SizeReport.Records r = report.records();
    return "Read "
        + Units.exact(r.read())
        + " documents, exported "
        + Units.exact(r.exported())
        + ", rejected "
        + Units.exact(r.rejected());
  }

  private static String time(SizeReport report) {
    return Units.millis(report.duration().toMillis())
        + " in all, the export step at "
        + Units.rate(report.docsPerSecond())
        + " documents/s, peak heap "
        + Units.bytes(report.peakHeapBytes());
  }

  /** One line per artifact format: its total bytes and their ratios to MongoDB's figures. */
  private static List<String> formats(SizeReport report) {
    SizeReport.Source s = report.source();
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, int[]> format : ReportTables.filesPerFormat(report).entrySet()) {
      long bytes = report.totalBytes(format.getKey());
      int files = format.getValue()[0];
      lines.add(
          format.getKey()
              + ": "
              + Units.bytes(bytes)
              + " in "
              + files
              + (files == 1 ? " file" : " files")
              + ", "
              + Units.percent(s.ratioToSize(bytes))
              + " of MongoDB's size, "
              + (report.storageNotCheckpointed()
                  ? "its storageSize not yet checkpointed"
                  : Units.percent(s.ratioToStorageSize(bytes)) + " of its storageSize"));
    }
    if (lines.isEmpty()) {
      lines.add("No artifacts were written");
    }
    return lines;
  }

  /** What the summary says of a storageSize read without a flush; empty when flushed. */
  private static String storageNote(SizeReport report) {
    if (report.source().storageFlushed()) {
      return "";
    }
    return report.storageNotCheckpointed()
        ? "; not yet checkpointed: smaller than the export's compressed copy, flush with"
            + " --fsync-source"
        : "; not flushed first, so it can lag the last checkpoint";
  }

  private static String saved(SizeReport.Shared k) {
    return Units.percent(Units.saved(k.total(), k.unique()));
  }
}
