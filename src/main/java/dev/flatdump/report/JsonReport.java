package dev.flatdump.report;

import dev.flatdump.report.SizeReport.Artifact;
import dev.flatdump.report.SizeReport.Source;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Renders a {@link SizeReport} as pretty-printed JSON for machines. Keys come in a fixed order,
 * every key is always present, sizes are bytes, times ISO-8601; a ratio that cannot be computed (an
 * empty collection) is {@code null}. Bump {@link #REPORT_VERSION} when a key changes meaning or
 * goes.
 */
final class JsonReport {

  /** The version of this layout, written as {@code reportVersion}. */
  static final int REPORT_VERSION = 1;

  private static final JsonMapper MAPPER =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private JsonReport() {}

  static String render(SizeReport report) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("reportVersion", REPORT_VERSION);
    source(root.putObject("source"), report.source());
    ArrayNode artifacts = root.putArray("artifacts");
    for (Artifact a : report.artifacts()) {
      ObjectNode node = artifacts.addObject();
      node.put("name", a.name());
      node.put("format", a.format());
      node.put("bytes", a.bytes());
      node.put("sha256", a.sha256());
      node.put("shard", a.shard());
      ratios(node, report.source(), a.bytes());
    }
    ArrayNode baselines = root.putArray("baselines");
    for (BaselineSize b : report.baselines()) {
      ObjectNode node = baselines.addObject();
      node.put("name", b.baseline().id());
      node.put("description", b.description());
      node.put("bytes", b.bytes());
      node.put("gzipBytes", b.gzipBytes());
      node.put("zstdBytes", b.zstdBytes());
      ratios(node, report.source(), b.bytes());
    }
    ObjectNode dedup = root.putObject("dedup");
    for (SizeReport.Shared k : report.dedup().kinds()) {
      ObjectNode node = dedup.putObject(k.kind());
      node.put("total", k.total());
      node.put("unique", k.unique());
      if (k.bytesSaved() != null) {
        node.put("bytesSaved", k.bytesSaved());
      }
    }
    if (!report.dedup().unions().isEmpty()) {
      ObjectNode unions = root.putObject("unions");
      report.dedup().unions().forEach((u, members) -> members.forEach(unions.putObject(u)::put));
    }
    if (report.dedup().fieldsCounted()) {
      ObjectNode unknown = root.putObject("unknownFields");
      report.dedup().unknownFields().forEach(unknown::put);
    }
    ObjectNode records = root.putObject("records");
    records.put("read", report.records().read());
    records.put("exported", report.records().exported());
    records.put("rejected", report.records().rejected());
    ArrayNode steps = root.putArray("steps");
    for (SizeReport.Step step : report.steps()) {
      steps.addObject().put("name", step.name()).put("millis", step.millis());
    }
    root.put("docsPerSecond", report.docsPerSecond());
    root.put("peakHeapBytes", report.peakHeapBytes());
    root.put("startedAt", report.startedAt().toString());
    root.put("finishedAt", report.finishedAt().toString());
    root.put("durationMillis", report.duration().toMillis());
    ObjectNode options = root.putObject("options");
    options.put("dedup", report.options().dedup());
    options.put("compress", report.options().compress());
    options.put("shardSize", report.options().shardSize());
    return MAPPER.writeValueAsString(root) + "\n";
  }

  private static void source(ObjectNode node, Source s) {
    node.put("database", s.database());
    node.put("collection", s.collection());
    node.put("query", s.query());
    node.put("count", s.count());
    node.put("size", s.size());
    node.put("storageSize", s.storageSize());
    node.put("freeStorageSize", s.freeStorageSize());
    node.put("totalIndexSize", s.totalIndexSize());
    node.put("blockCompressor", s.blockCompressor());
    node.put("avgObjSize", s.avgObjSize());
    node.put("storageFlushed", s.storageFlushed());
  }

  private static void ratios(ObjectNode node, Source s, long bytes) {
    ratio(node, "ratioToSize", s.ratioToSize(bytes));
    ratio(node, "ratioToStorageSize", s.ratioToStorageSize(bytes));
  }

  private static void ratio(ObjectNode node, String key, double ratio) {
    if (Double.isNaN(ratio)) {
      node.putNull(key);
    } else {
      node.put(key, ratio);
    }
  }
}
