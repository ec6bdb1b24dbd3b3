package dev.flatdump.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ReportWriterTest {

  private final ReportWriter writer = new ReportWriter();

  @TempDir Path dir;

  private String read(String file) throws IOException {
    return Files.readString(dir.resolve(file), StandardCharsets.UTF_8);
  }

  @Nested
  class Json {

    private JsonNode json() throws IOException {
      writer.writeAll(SampleReports.small("organizations"), dir);
      return JsonMapper.shared().readTree(dir.resolve(ReportWriter.JSON_FILE));
    }

    @Test
    void holdsMongoDbFigures() throws IOException {
      JsonNode source = json().get("source");

      assertThat(source.get("database").asString()).isEqualTo("crm");
      assertThat(source.get("collection").asString()).isEqualTo("organizations");
      assertThat(source.get("query").asString()).isEqualTo("{\"type\": \"FOO\"}");
      assertThat(source.get("count").asLong()).isEqualTo(10);
      assertThat(source.get("size").asLong()).isEqualTo(1000);
      assertThat(source.get("storageSize").asLong()).isEqualTo(500);
      assertThat(source.get("freeStorageSize").asLong()).isEqualTo(20);
      assertThat(source.get("totalIndexSize").asLong()).isEqualTo(64);
      assertThat(source.get("blockCompressor").asString()).isEqualTo("snappy");
      assertThat(source.get("avgObjSize").asLong()).isEqualTo(100);
    }

    @Test
    void holdsArtifactsWithComputedRatios() throws IOException {
      JsonNode artifacts = json().get("artifacts");

      assertThat(artifacts).hasSize(2);
      JsonNode fb = artifacts.get(0);
      assertThat(fb.get("name").asString()).isEqualTo("orgs.fb");
      assertThat(fb.get("format").asString()).isEqualTo("flatbuffers");
      assertThat(fb.get("bytes").asLong()).isEqualTo(250);
      assertThat(fb.get("sha256").asString()).isEqualTo(SampleReports.SHA_A);
      assertThat(fb.get("shard").isNull()).isTrue();
      assertThat(fb.get("ratioToSize").asDouble()).isEqualTo(0.25);
      assertThat(fb.get("ratioToStorageSize").asDouble()).isEqualTo(0.5);
      JsonNode gz = artifacts.get(1);
      assertThat(gz.get("format").asString()).isEqualTo("gzip");
      assertThat(gz.get("ratioToSize").asDouble()).isEqualTo(0.1);
      assertThat(gz.get("ratioToStorageSize").asDouble()).isEqualTo(0.2);
    }

    @Test
    void holdsDedupRecordsBaselinesAndRun() throws IOException {
      JsonNode root = json();

      JsonNode dedup = root.get("dedup");
      assertThat(dedup.get("strings").get("total").asLong()).isEqualTo(40);
      assertThat(dedup.get("strings").get("unique").asLong()).isEqualTo(10);
      assertThat(dedup.get(SampleReports.ATTRIBUTE).get("total").asLong()).isEqualTo(30);
      assertThat(dedup.get(SampleReports.ATTRIBUTE).get("unique").asLong()).isEqualTo(15);
      assertThat(dedup.get(SampleReports.ATTRIBUTE).get("bytesSaved").asLong()).isEqualTo(420);
      assertThat(root.get("unknownFields").get("comment").asLong()).isEqualTo(3);
      assertThat(dedup.get("vectors").get("total").asLong()).isEqualTo(10);
      assertThat(dedup.get("vectors").get("unique").asLong()).isEqualTo(10);
      JsonNode records = root.get("records");
      assertThat(records.get("read").asLong()).isEqualTo(12);
      assertThat(records.get("exported").asLong()).isEqualTo(10);
      assertThat(records.get("rejected").asLong()).isEqualTo(2);
      JsonNode plain = root.get("baselines").get(0);
      assertThat(plain.get("name").asString()).isEqualTo("plain");
      assertThat(plain.get("description").asString()).isEqualTo(Baseline.PLAIN.description());
      assertThat(plain.get("bytes").asLong()).isEqualTo(800);
      assertThat(plain.get("gzipBytes").asLong()).isEqualTo(300);
      assertThat(plain.get("zstdBytes").asLong()).isEqualTo(280);
      assertThat(plain.get("ratioToSize").asDouble()).isEqualTo(0.8);
      assertThat(root.get("steps").get(0).get("name").asString()).isEqualTo("exportStep");
      assertThat(root.get("steps").get(0).get("millis").asLong()).isEqualTo(9000);
      assertThat(root.get("docsPerSecond").asDouble()).isEqualTo(0.8);
      assertThat(root.get("peakHeapBytes").asLong()).isEqualTo(64L << 20);
      assertThat(root.get("startedAt").asString()).isEqualTo("2025-03-01T10:00:00Z");
      assertThat(root.get("finishedAt").asString()).isEqualTo("2025-03-01T10:00:12.500Z");
      assertThat(root.get("durationMillis").asLong()).isEqualTo(12_500);
      assertThat(root.get("options").get("dedup").asString()).isEqualTo("strings,tables,vectors");
    }

    @Test
    void keepsKeysInAStableOrder() throws IOException {
      JsonNode root = json();

      assertThat(root.propertyNames())
          .containsExactly(
              "reportVersion",
              "source",
              "artifacts",
              "baselines",
              "dedup",
              "unknownFields",
              "records",
              "steps",
              "docsPerSecond",
              "peakHeapBytes",
              "startedAt",
              "finishedAt",
              "durationMillis",
              "options");
      assertThat(read(ReportWriter.JSON_FILE)).contains("\n  \"source\" : {");
    }

    @Test
    void writesNullRatiosForAnEmptyCollection() throws IOException {
      SizeReport small = SampleReports.small("organizations");
      var empty =
          new SizeReport.Source("crm", "organizations", "{}", 0, 0, 0, 0, 0, "snappy", 0, true);
      writer.writeAll(withSource(small, empty), dir);

      JsonNode fb =
          JsonMapper.shared().readTree(dir.resolve("report.json")).get("artifacts").get(0);
      assertThat(fb.get("ratioToSize").isNull()).isTrue();
      assertThat(fb.get("ratioToStorageSize").isNull()).isTrue();
      assertThat(read(ReportWriter.MARKDOWN_FILE)).contains("n/a");
    }
  }

  /** {@code report} with another source, and no rate or heap figure. */
  private static SizeReport withSource(SizeReport report, SizeReport.Source source) {
    return new SizeReport(
        source,
        report.artifacts(),
        report.baselines(),
        report.dedup(),
        report.records(),
        report.steps(),
        0,
        0,
        report.startedAt(),
        report.finishedAt(),
        report.options());
  }

  @Test
  void saysWhenTheStorageFiguresWereReadWithoutAFlush() throws IOException {
    SizeReport small = SampleReports.small("organizations");
    SizeReport.Source s = small.source();
    var unflushed =
        new SizeReport.Source(
            s.database(),
            s.collection(),
            s.query(),
            s.count(),
            s.size(),
            s.storageSize(),
            s.freeStorageSize(),
            s.totalIndexSize(),
            s.blockCompressor(),
            s.avgObjSize(),
            false);
    SizeReport report = withSource(small, unflushed);

    writer.writeAll(report, dir);

    assertThat(
            JsonMapper.shared()
                .readTree(dir.resolve("report.json"))
                .at("/source/storageFlushed")
                .asBoolean())
        .isFalse();
    assertThat(read(ReportWriter.MARKDOWN_FILE)).contains("can lag the last checkpoint");
    assertThat(writer.summary(report)).contains("can lag the last checkpoint");
    writer.writeAll(small, dir);
    assertThat(read(ReportWriter.MARKDOWN_FILE)).doesNotContain("can lag");
    assertThat(writer.summary(small)).doesNotContain("can lag");
  }

  @Test
  void neverLeadsWithTheRatioToAStorageSizeNotYetCheckpointed() throws IOException {
    SizeReport small = SampleReports.small("organizations");
    // unflushed, and smaller than the 100-byte gzip copy: taken before a checkpoint
    SizeReport stale = SampleReports.withStorage(small, 64, false, small.artifacts());

    String summary = writer.summary(stale);
    writer.writeAll(stale, dir);

    assertThat(summary)
        .contains(
            "flatbuffers: 250 B in 1 file, 25.0 % of MongoDB's size, its storageSize not yet"
                + " checkpointed")
        .contains("storageSize 64 B (snappy; not yet checkpointed")
        .contains("--fsync-source")
        .doesNotContain("of its storageSize");
    assertThat(read(ReportWriter.MARKDOWN_FILE))
        .contains("its storageSize not yet checkpointed")
        .doesNotContain("of its storageSize");

    SizeReport flushed = SampleReports.withStorage(small, 64, true, small.artifacts());
    assertThat(writer.summary(flushed))
        .contains("390.6 % of its storageSize")
        .doesNotContain("not yet checkpointed");
  }

  @Nested
  class Markdown {

    @Test
    void showsTheFiguresInTables() throws IOException {
      writer.writeAll(SampleReports.articleLike(), dir);
      String md = read(ReportWriter.MARKDOWN_FILE);

      assertThat(md)
          .contains("# flatdump size report: crm.organizations")
          .contains("## MongoDB", "## Artifacts", "## Baselines", "## De-dup", "## Records")
          .contains("## Timings", "## Run")
          .contains("| storageSize (on disk, snappy) | 510 MiB | 534,773,760 |")
          .contains("| organizations-00000.fb | flatbuffers | 0 | 22.5 MiB | 23,600,123 | 3.1 % |")
          .contains(
              "| **all flatbuffers (2 files)** | **flatbuffers** |  | **43.1 MiB** | **45,180,579**"
                  + " |")
          .contains("| strings | 6,100,000 | 1,260,000 | 4,840,000 | 79.3 % |")
          .contains("| rejected | 10 |")
          .contains("| exportStep | 41.2 s | 41,200 |")
          .contains("| shard size | 64 MiB |")
          .contains(
              "| plain | FlatBuffers, no de-dup | 390 MiB | 408,944,640 | 160 MiB | 120 MiB |");
      assertThat(md)
          .as("the report speaks of its own export, not of the articles' organizations")
          .doesNotContain("articles", "orgs");
    }

    @Test
    void writesTheRunToTheSecondAndTheShardSizeInUnits() throws IOException {
      writer.writeAll(SampleReports.small("orgs"), dir);
      String md = read(ReportWriter.MARKDOWN_FILE);

      assertThat(md)
          .contains("| started | 2025-03-01T10:00:00Z |", "| finished | 2025-03-01T10:00:12Z |")
          .contains("| shard size | 256 MiB |")
          .contains("Run 2025-03-01T10:00:00Z to 2025-03-01T10:00:12Z with dedup")
          .contains(", shard size 256 MiB.")
          .doesNotContain("12.500Z", "268435456", "268,435,456");
    }

    @Test
    void escapesMarkupInNames() throws IOException {
      writer.writeAll(SampleReports.small("a|b_<c>"), dir);

      assertThat(read(ReportWriter.MARKDOWN_FILE))
          .contains("| collection | a\\|b\\_\\<c\\> |")
          .doesNotContain("a|b_<c>");
    }

    @Test
    void saysWhenNoBaselinesWereMeasured() throws IOException {
      SizeReport small = SampleReports.small("organizations");
      writer.writeAll(
          new SizeReport(
              small.source(),
              small.artifacts(),
              List.of(),
              small.dedup(),
              small.records(),
              small.steps(),
              1,
              1,
              small.startedAt(),
              small.finishedAt(),
              small.options()),
          dir);

      assertThat(read(ReportWriter.MARKDOWN_FILE)).contains("No baselines were measured");
    }
  }

  @Nested
  class Html {

    @Test
    void isSelfContained() throws IOException {
      writer.writeAll(SampleReports.articleLike(), dir);
      String html = read(ReportWriter.HTML_FILE);

      assertThat(html).startsWith("<!DOCTYPE html>").contains("<style>").contains("</html>");
      assertThat(html).doesNotContainPattern("(?i)(src|href)\\s*=");
      assertThat(html).doesNotContainPattern("(?i)<script|<link|@import|url\\(");
      assertThat(html).doesNotContain("http://", "https://");
    }

    @Test
    void escapesTheCollectionName() throws IOException {
      writer.writeAll(SampleReports.small("<b>&x"), dir);
      String html = read(ReportWriter.HTML_FILE);

      assertThat(html).contains("crm.&lt;b&gt;&amp;x").doesNotContain("<b>", "&x");
    }

    @Test
    void drawsOneLabelledBarPerSize() throws IOException {
      SizeReport report = SampleReports.articleLike();
      writer.writeAll(report, dir);
      String html = read(ReportWriter.HTML_FILE);

      int expected = 3 + report.artifacts().size() + 3 * report.baselines().size();
      assertThat(html).contains("<svg");
      assertThat(count(html, "<rect class=\"bar\"")).isEqualTo(expected);
      assertThat(html)
          .contains(">MongoDB size (BSON)</text>", ">737 MiB</text>")
          .contains(">organizations-00001.fb.zst</text>", ">10.5 MiB</text>")
          .contains(">baseline json · gzip</text>", ">150 MiB</text>");
    }

    @Test
    void scalesBarsToTheLargestSize() throws IOException {
      writer.writeAll(SampleReports.small("organizations"), dir);
      List<Integer> widths = barWidths(read(ReportWriter.HTML_FILE));

      // size 1000, storageSize 500, indexes 64, artifacts 250 and 100, plain 800, 300, 280
      assertThat(widths).hasSize(8);
      int longest = widths.get(0);
      assertThat(widths).allSatisfy(w -> assertThat(w).isLessThanOrEqualTo(longest));
      assertThat(widths.get(1) / (double) longest).isCloseTo(0.5, within(0.01));
      assertThat(widths.get(3) / (double) longest).isCloseTo(0.25, within(0.01));
    }

    @Test
    void showsLegendEntriesOnlyForWhatIsDrawn() throws IOException {
      writer.writeAll(SampleReports.small("organizations"), dir);
      String html = read(ReportWriter.HTML_FILE);

      assertThat(html).contains("</i>gzip</span>", "</i>baseline zstd</span>");
      assertThat(html).doesNotContain("</i>zstd</span>");
    }

    @Test
    void showsTotalsPerFormatWhenThereAreManyShards() throws IOException {
      SizeReport small = SampleReports.small("organizations");
      List<SizeReport.Artifact> shards =
          Stream.iterate(0, i -> i + 1)
              .limit(SizeBars.MAX_ARTIFACT_BARS + 1)
              .map(
                  i ->
                      new SizeReport.Artifact(
                          "orgs-" + i + ".fb", "flatbuffers", 10, SampleReports.SHA_A, i))
              .toList();
      writer.writeAll(
          new SizeReport(
              small.source(),
              shards,
              List.of(),
              small.dedup(),
              small.records(),
              small.steps(),
              1,
              1,
              small.startedAt(),
              small.finishedAt(),
              small.options()),
          dir);
      String html = read(ReportWriter.HTML_FILE);

      assertThat(count(html, "<rect class=\"bar\"")).isEqualTo(3 + 1);
      assertThat(html).contains(">all flatbuffers (13 files)</text>");
    }

    private List<Integer> barWidths(String html) {
      Matcher m = Pattern.compile("<rect class=\"bar\"[^>]* width=\"(\\d+)\"").matcher(html);
      return m.results().map(r -> Integer.parseInt(r.group(1))).toList();
    }
  }

  @Nested
  class AtomicWrite {

    @Test
    void leavesOnlyTheThreeReports() throws IOException {
      List<Path> written =
          writer.writeAll(SampleReports.small("organizations"), dir.resolve("out"));

      try (Stream<Path> files = Files.list(dir.resolve("out"))) {
        assertThat(files.map(p -> p.getFileName().toString()))
            .containsExactlyInAnyOrder("report.json", "report.md", "report.html");
      }
      assertThat(written)
          .containsExactly(
              dir.resolve("out/report.json"),
              dir.resolve("out/report.md"),
              dir.resolve("out/report.html"));
    }

    @Test
    void replacesAnEarlierReport() throws IOException {
      Files.writeString(
          dir.resolve("report.json"), "old and much longer than the new one ".repeat(500));
      Files.writeString(dir.resolve("report.html"), "old");

      writer.writeAll(SampleReports.small("fresh"), dir);

      assertThat(read("report.json"))
          .startsWith("{")
          .contains("\"fresh\"")
          .doesNotContain("old and");
      assertThat(read("report.html")).contains("crm.fresh");
      try (Stream<Path> files = Files.list(dir)) {
        assertThat(files).hasSize(3);
      }
    }

    @Test
    void failsNamingTheFileAndLeavesNoTemporaryFile() throws IOException {
      Files.createDirectory(dir.resolve("report.md")); // a directory cannot be renamed over

      assertThatThrownBy(() -> writer.writeAll(SampleReports.small("organizations"), dir))
          .isInstanceOfSatisfying(
              ReportException.class, e -> assertThat(e.file()).isEqualTo(dir.resolve("report.md")))
          .hasMessageContaining("report.md");
      try (Stream<Path> files = Files.list(dir)) {
        assertThat(files.map(p -> p.getFileName().toString()))
            .containsExactlyInAnyOrder("report.json", "report.md");
      }
    }
  }

  @Nested
  class Summary {

    @Test
    void fitsOnAScreenAndNamesTheMainFigures() {
      String summary = writer.summary(SampleReports.articleLike());

      assertThat(summary.lines()).hasSizeBetween(6, 12);
      assertThat(summary)
          .contains("Read 1,250,000 documents, exported 1,249,990, rejected 10")
          .contains(
              "flatbuffers: 43.1 MiB in 2 files, 5.8 % of MongoDB's size, 8.4 % of its storageSize")
          .contains("gzip: 24.0 MiB in 2 files")
          .contains("strings 79.3 %, " + SampleReports.ATTRIBUTE + " 98.8 %")
          .contains("1 min 26 s in all, the export step at 30,340 documents/s");
    }
  }

  private static int count(String text, String part) {
    int count = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
      count++;
    }
    return count;
  }

  @Test
  void givesEachUnionsMembersCountsInEveryFormat() throws IOException {
    SizeReport small = SampleReports.small("organizations");
    Map<String, Map<String, Long>> unions = new java.util.LinkedHashMap<>();
    unions.put("geo.CreatedAt", new java.util.LinkedHashMap<>(Map.of("CreatedAtString", 7L)));
    unions.get("geo.CreatedAt").put("CreatedAtLong", 0L);
    SizeReport report =
        new SizeReport(
            small.source(),
            small.artifacts(),
            small.baselines(),
            small.dedup().withUnions(unions),
            small.records(),
            small.steps(),
            small.docsPerSecond(),
            small.peakHeapBytes(),
            small.startedAt(),
            small.finishedAt(),
            small.options());

    writer.writeAll(report, dir);

    assertThat(read("report.json"))
        .contains("\"unions\" : {\n    \"geo.CreatedAt\" : {\n      \"CreatedAtString\" : 7,")
        .contains("\"CreatedAtLong\" : 0");
    assertThat(read("report.md"))
        .contains("Union members")
        .contains("| geo.CreatedAt | CreatedAtString | 7 |");
    assertThat(read("report.html")).contains("Union members").contains("CreatedAtString");
    writer.writeAll(small, dir);
    assertThat(read("report.md")).doesNotContain("Union members");
    assertThat(read("report.json")).doesNotContain("unions");
  }
}
