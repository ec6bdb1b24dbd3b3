package dev.flatdump.report;

import static dev.flatdump.report.Table.Column.code;
import static dev.flatdump.report.Table.Column.number;
import static dev.flatdump.report.Table.Column.text;

import dev.flatdump.report.SizeReport.Artifact;
import dev.flatdump.report.SizeReport.Source;
import dev.flatdump.report.SizeReport.Step;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The report's tables, shared by the Markdown and HTML renderings so that both show the same. */
final class ReportTables {

  private static final int SHA256_SHOWN = 12;

  private ReportTables() {}

  /** All tables, in reading order. */
  static List<Table> all(SizeReport report) {
    List<Table> tables = new ArrayList<>();
    tables.addAll(
        List.of(source(report), artifacts(report), baselines(report), dedup(report.dedup())));
    if (report.dedup().fieldsCounted()) {
      tables.add(unknownFields(report.dedup()));
    }
    if (!report.dedup().unions().isEmpty()) {
      tables.add(unions(report.dedup()));
    }
    tables.addAll(List.of(records(report.records()), timings(report), run(report)));
    return List.copyOf(tables);
  }

  static Table source(SizeReport report) {
    Source s = report.source();
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("database", s.database(), ""));
    rows.add(List.of("collection", s.collection(), ""));
    rows.add(List.of("query", s.query(), ""));
    rows.add(List.of("count (documents)", Units.exact(s.count()), ""));
    rows.add(byteRow("size (BSON, uncompressed)", s.size()));
    rows.add(byteRow("storageSize (on disk, " + s.blockCompressor() + ")", s.storageSize()));
    rows.add(byteRow("freeStorageSize", s.freeStorageSize()));
    rows.add(byteRow("totalIndexSize", s.totalIndexSize()));
    rows.add(byteRow("avgObjSize", s.avgObjSize()));
    return new Table(
        "MongoDB",
        List.of(text("Figure"), text("Value"), number("Bytes")),
        rows,
        "From $collStats; storageSize is what WiredTiger occupies on disk, indexes excluded"
            + (s.storageFlushed() ? "." : "; " + s.storageCaveat() + "."));
  }

  static Table artifacts(SizeReport report) {
    Source s = report.source();
    List<List<String>> rows = new ArrayList<>();
    for (Artifact a : report.artifacts()) {
      String shard = a.shard() == null ? "" : String.valueOf(a.shard());
      String sha = a.sha256().substring(0, SHA256_SHOWN) + "…";
      rows.add(artifactRow(a.name(), a.format(), shard, a.bytes(), s, sha));
    }
    int totals = 0;
    for (Map.Entry<String, int[]> group : filesPerFormat(report).entrySet()) {
      if (group.getValue()[0] > 1) {
        totals++;
        String format = group.getKey();
        long total = report.totalBytes(format);
        String label = "all " + format + " (" + group.getValue()[0] + " files)";
        rows.add(artifactRow(label, format, "", total, s, ""));
      }
    }
    String note =
        rows.isEmpty()
            ? "No artifacts were written."
            : "Ratios are artifact bytes / MongoDB size and / storageSize; full SHA-256 in"
                + " report.json.";
    return new Table(
        "Artifacts",
        List.of(
            code("Name"),
            text("Format"),
            number("Shard"),
            number("Size"),
            number("Bytes"),
            number("of size"),
            number("of storageSize"),
            code("SHA-256")),
        rows,
        note,
        totals);
  }

  static Table baselines(SizeReport report) {
    Source s = report.source();
    long ours = report.totalBytes("flatbuffers");
    List<List<String>> rows = new ArrayList<>();
    for (BaselineSize b : report.baselines()) {
      rows.add(
          List.of(
              b.baseline().id(),
              b.description(),
              Units.bytes(b.bytes()),
              Units.exact(b.bytes()),
              Units.bytes(b.gzipBytes()),
              Units.bytes(b.zstdBytes()),
              Units.percent(s.ratioToSize(b.bytes())),
              ours == 0 ? "n/a" : String.format(Locale.ROOT, "%.2f×", (double) b.bytes() / ours)));
    }
    String note =
        rows.isEmpty()
            ? "No baselines were measured (run with --compare plain,strings,protobuf,json)."
            : "The same records in other encodings; \"vs flatdump\" is raw bytes / our FlatBuffers"
                + " bytes.";
    return new Table(
        "Baselines",
        List.of(
            text("Baseline"),
            text("What"),
            number("Raw"),
            number("Raw bytes"),
            number("gzip"),
            number("zstd"),
            number("of size"),
            number("vs flatdump")),
        rows,
        note);
  }

  static Table dedup(SizeReport.Dedup dedup) {
    boolean bytes = dedup.kinds().stream().anyMatch(k -> k.bytesSaved() != null);
    List<Table.Column> columns = new ArrayList<>();
    columns.addAll(
        List.of(
            text("Kind"), number("Total"), number("Unique"), number("Shared"), number("Saved")));
    if (bytes) {
      columns.add(number("Bytes saved"));
    }
    List<List<String>> rows = new ArrayList<>();
    for (SizeReport.Shared k : dedup.kinds()) {
      List<String> row = new ArrayList<>(dedupRow(k));
      if (bytes) {
        row.add(k.bytesSaved() == null ? "" : Units.bytes(k.bytesSaved()));
      }
      rows.add(row);
    }
    return new Table(
        "De-dup",
        columns,
        rows,
        "Total is how many the records referenced; unique is how many were written.");
  }

  /** The BSON fields the schema does not name, skipped; a table without rows when none. */
  static Table unknownFields(SizeReport.Dedup dedup) {
    List<List<String>> rows = new ArrayList<>();
    dedup.unknownFields().forEach((path, docs) -> rows.add(List.of(path, Units.exact(docs))));
    return new Table(
        "Fields the schema does not name",
        List.of(code("Path"), number("Documents")),
        rows,
        rows.isEmpty()
            ? "None: every field of every document has its place in the schema."
            : "Skipped; --strict rejects such documents instead.");
  }

  /** Per union, how many values went to each member. */
  static Table unions(SizeReport.Dedup dedup) {
    List<List<String>> rows = new ArrayList<>();
    dedup
        .unions()
        .forEach(
            (u, members) -> members.forEach((m, n) -> rows.add(List.of(u, m, Units.exact(n)))));
    return new Table(
        "Union members",
        List.of(code("Union"), code("Member"), number("Values")),
        rows,
        "How many of the records' values each member holds, chosen by their BSON type.");
  }

  static Table records(SizeReport.Records records) {
    return new Table(
        "Records",
        List.of(text("Documents"), number("Count")),
        List.of(
            List.of("read", Units.exact(records.read())),
            List.of("exported", Units.exact(records.exported())),
            List.of("rejected", Units.exact(records.rejected()))),
        "");
  }

  static Table timings(SizeReport report) {
    List<List<String>> rows = new ArrayList<>();
    for (Step step : report.steps()) {
      rows.add(List.of(step.name(), Units.millis(step.millis()), Units.exact(step.millis())));
    }
    long total = report.duration().toMillis();
    rows.add(List.of("documents per second", Units.rate(report.docsPerSecond()), ""));
    rows.add(
        List.of(
            "peak heap", Units.bytes(report.peakHeapBytes()), Units.exact(report.peakHeapBytes())));
    rows.add(List.of("total (wall clock)", Units.millis(total), Units.exact(total)));
    return new Table(
        "Timings",
        List.of(text("Step"), number("Time or figure"), number("Exact (ms, bytes)")),
        rows,
        "Steps in the order they ran; the total runs from start to finish.",
        1);
  }

  static Table run(SizeReport report) {
    return new Table(
        "Run",
        List.of(text("Setting"), code("Value")),
        List.of(
            List.of("started", Units.second(report.startedAt())),
            List.of("finished", Units.second(report.finishedAt())),
            List.of("dedup", report.options().dedup()),
            List.of("compress", report.options().compress()),
            List.of("shard size", Units.setting(report.options().shardSize()))),
        "");
  }

  /** How many files each format has, in order of first appearance. */
  static Map<String, int[]> filesPerFormat(SizeReport report) {
    Map<String, int[]> files = new LinkedHashMap<>();
    for (Artifact a : report.artifacts()) {
      files.computeIfAbsent(a.format(), f -> new int[1])[0]++;
    }
    return files;
  }

  private static List<String> artifactRow(
      String name, String format, String shard, long bytes, Source s, String sha) {
    return List.of(
        name,
        format,
        shard,
        Units.bytes(bytes),
        Units.exact(bytes),
        Units.percent(s.ratioToSize(bytes)),
        Units.percent(s.ratioToStorageSize(bytes)),
        sha);
  }

  private static List<String> byteRow(String figure, long bytes) {
    return List.of(figure, Units.bytes(bytes), Units.exact(bytes));
  }

  private static List<String> dedupRow(SizeReport.Shared k) {
    return List.of(
        k.label(),
        Units.exact(k.total()),
        Units.exact(k.unique()),
        Units.exact(k.shared()),
        Units.percent(Units.saved(k.total(), k.unique())));
  }
}
