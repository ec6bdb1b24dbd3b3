package dev.flatdump.artifact.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OutputLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalPublisherTest {

  @TempDir Path root;
  Path staging;
  Path out;

  @BeforeEach
  void directories() throws IOException {
    out = Files.createDirectory(root.resolve("out"));
    staging = Files.createDirectories(out.resolve(".flatdump").resolve("staging"));
  }

  @AfterEach
  void noObserver() {
    CrashPoint.observer = name -> {};
  }

  /** Stages a file with {@code content} and returns its manifest entry. */
  private ArtifactFile stage(String name, String format, String content) throws IOException {
    Files.createDirectories(staging);
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    Files.write(staging.resolve(name), bytes);
    return new ArtifactFile(name, format, bytes.length, Checksums.sha256(bytes), null, null);
  }

  private static Manifest manifest(List<ArtifactFile> files, String finishedAt) {
    return new Manifest(
        Manifest.FORMAT_VERSION,
        new Manifest.Schema("organizations.fbs", "0".repeat(64), "ORGS", "organizations.bfbs"),
        new Manifest.Source("shop", "organizations", "{}"),
        new Manifest.Options("none", List.of("gzip"), 1024, false, 1),
        new Manifest.Counts(3, 2, 1),
        files,
        Instant.parse("2024-05-01T10:00:00Z"),
        Instant.parse(finishedAt));
  }

  private static Manifest manifest(List<ArtifactFile> files) {
    return manifest(files, "2024-05-01T10:01:00Z");
  }

  private List<ArtifactFile> stageAnExport(String tag) throws IOException {
    return List.of(
        stage("organizations-00000.fb", "flatbuffers", "shard 0 " + tag),
        stage("organizations-00001.fb", "flatbuffers", "shard 1 " + tag),
        stage("organizations-00000.fb.gz", "gzip", "shard 0 gz " + tag),
        stage("organizations-00001.fb.gz", "gzip", "shard 1 gz " + tag),
        stage("organizations.fbs", "fbs", "table Org {}"),
        stage("rejects.jsonl", "jsonl", "{\"_id\": 1}\n"));
  }

  /** Stages and publishes an export named {@code name}, finished at {@code finishedAt}. */
  private Path publishOne(String name, String finishedAt) throws IOException {
    return LocalPublisher.publish(staging, out, name, manifest(stageAnExport(name), finishedAt), 2);
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> list = Files.list(dir)) {
      return list.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void movesTheWholeStagedExportIntoADirectoryOfItsOwn() throws IOException {
    List<ArtifactFile> files = stageAnExport("a");
    Manifest manifest = manifest(files);

    Path dir = LocalPublisher.publish(staging, out, "2024-05-01-1", manifest, 2);

    assertThat(dir).isEqualTo(out.resolve("exports").resolve("2024-05-01-1"));
    for (ArtifactFile f : files) {
      assertThat(Checksums.sha256(dir.resolve(f.name()))).isEqualTo(f.sha256());
    }
    assertThat(Manifest.read(dir.resolve(Manifest.FILE_NAME))).isEqualTo(manifest);
    assertThat(staging).doesNotExist();
    assertThat(names(out)).containsExactly(".flatdump", "CURRENT", "current", "exports");
  }

  @Test
  void pointsBothPointersAtTheNewExport() throws IOException {
    Path dir = publishOne("2024-05-01-1", "2024-05-01T10:01:00Z");

    assertThat(Files.readSymbolicLink(out.resolve("current")))
        .isEqualTo(Path.of("exports", "2024-05-01-1"));
    assertThat(out.resolve("CURRENT")).hasContent("exports/2024-05-01-1");
    assertThat(OutputLayout.resolve(out)).isEqualTo(dir.toRealPath());
  }

  @Test
  void removesWhatTheStagingDirectoryHoldsBesidesTheListedFiles() throws IOException {
    List<ArtifactFile> files = stageAnExport("a");
    Files.writeString(staging.resolve(".organizations-00002.fb.tmp"), "left by a killed run");

    Path dir = LocalPublisher.publish(staging, out, "2024-05-01-1", manifest(files), 2);

    assertThat(dir.resolve(".organizations-00002.fb.tmp")).doesNotExist();
    assertThat(names(dir)).hasSize(files.size() + 1);
  }

  /** What the output directory looks like at each point of a publish, observed as it happens. */
  @Nested
  class Order {

    final Map<String, Map<String, String>> seen = new LinkedHashMap<>();

    @BeforeEach
    void observe() {
      CrashPoint.observer = point -> seen.put(point, state());
    }

    /** The pointers' targets and the exports' files, as a reader would find them. */
    Map<String, String> state() {
      try {
        Map<String, String> s = new LinkedHashMap<>();
        Path link = out.resolve("current");
        s.put(
            "current",
            Files.isSymbolicLink(link) ? Files.readSymbolicLink(link).toString() : "(none)");
        Path file = out.resolve("CURRENT");
        s.put("CURRENT", Files.exists(file) ? Files.readString(file).strip() : "(none)");
        Path exports = out.resolve("exports");
        if (Files.isDirectory(exports)) {
          for (String e : names(exports)) {
            s.put(e, String.join(",", names(exports.resolve(e))));
          }
        }
        return s;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Test
    void theExportIsCompleteBeforeAnyPointerNamesItAndTheLinkMovesFirst() throws IOException {
      publishOne("2024-05-01-1", "2024-05-01T10:01:00Z");
      String files =
          "manifest.json,organizations-00000.fb,organizations-00000.fb.gz,"
              + "organizations-00001.fb,organizations-00001.fb.gz,organizations.fbs,rejects.jsonl";
      seen.clear();

      publishOne("2024-05-02-2", "2024-05-02T10:01:00Z");

      assertThat(seen.keySet())
          .containsExactly("publish.renamed", "publish.linked", "publish.pointed");
      assertThat(seen.get("publish.renamed"))
          .containsEntry("current", "exports/2024-05-01-1")
          .containsEntry("CURRENT", "exports/2024-05-01-1")
          .containsEntry("2024-05-02-2", files);
      assertThat(seen.get("publish.linked"))
          .containsEntry("current", "exports/2024-05-02-2")
          .containsEntry("CURRENT", "exports/2024-05-01-1");
      assertThat(seen.get("publish.pointed"))
          .containsEntry("current", "exports/2024-05-02-2")
          .containsEntry("CURRENT", "exports/2024-05-02-2")
          .containsEntry("2024-05-01-1", files);
    }

    @Test
    void oldExportsGoOnlyAfterThePointersMoved() throws IOException {
      publishOne("2024-05-01-1", "2024-05-01T10:01:00Z");
      publishOne("2024-05-02-2", "2024-05-02T10:01:00Z");
      seen.clear();

      publishOne("2024-05-03-3", "2024-05-03T10:01:00Z");

      assertThat(seen.get("publish.pointed")).containsKeys("2024-05-01-1", "2024-05-02-2");
      assertThat(names(out.resolve("exports"))).containsExactly("2024-05-02-2", "2024-05-03-3");
    }
  }

  @Nested
  class Keep {

    @Test
    void keepsTheNewestExportsByTheirManifestsFinishingTimes() throws IOException {
      // names do not sort by time: a backfilled run date published last is the newest
      publishOne("2024-05-09-1", "2024-05-01T10:00:00Z");
      publishOne("2024-05-01-2", "2024-05-02T10:00:00Z");
      publishOne("2024-05-05-3", "2024-05-03T10:00:00Z");

      assertThat(names(out.resolve("exports"))).containsExactly("2024-05-01-2", "2024-05-05-3");
    }

    @Test
    void neverRemovesTheCurrentExportNorWhatIsNotAnExport() throws IOException {
      publishOne("2024-05-01-1", "2024-05-03T10:00:00Z");
      Files.createDirectories(out.resolve("exports").resolve("notes"));
      // an older finishing time than the one before: still the current one, so it stays
      Path current =
          LocalPublisher.publish(
              staging,
              out,
              "2024-05-02-2",
              manifest(stageAnExport("b"), "2024-05-01T10:00:00Z"),
              1);

      assertThat(names(out.resolve("exports"))).containsExactly("2024-05-02-2", "notes");
      assertThat(OutputLayout.resolve(out)).isEqualTo(current.toRealPath());
    }

    @Test
    void finishesARemovalThatWasInterrupted() throws IOException {
      Path half = Files.createDirectories(out.resolve("exports").resolve(".removing-2024-04-30-9"));
      Files.writeString(half.resolve("organizations.fb"), "half removed");

      publishOne("2024-05-01-1", "2024-05-01T10:01:00Z");

      assertThat(half).doesNotExist();
    }
  }

  @Nested
  class Restart {

    @Test
    void completesAPublishInterruptedAfterTheRename() throws IOException {
      Manifest manifest = manifest(stageAnExport("a"));
      CrashPoint.observer =
          point -> {
            if (point.equals("publish.renamed")) {
              throw new IllegalStateException("killed");
            }
          };
      assertThatThrownBy(() -> LocalPublisher.publish(staging, out, "2024-05-01-1", manifest, 2))
          .hasMessage("killed");
      CrashPoint.observer = point -> {};
      assertThat(out.resolve("CURRENT")).doesNotExist();

      Path dir = LocalPublisher.publish(staging, out, "2024-05-01-1", manifest, 2);

      assertThat(OutputLayout.resolve(out)).isEqualTo(dir.toRealPath());
      assertThat(Manifest.read(dir.resolve(Manifest.FILE_NAME))).isEqualTo(manifest);
    }

    @Test
    void refusesToPublishOverAnotherExportOfTheSameName() throws IOException {
      Path first = publishOne("2024-05-01-1", "2024-05-01T10:01:00Z");
      String before = Files.readString(first.resolve("organizations-00000.fb"));
      List<ArtifactFile> files = stageAnExport("other");

      assertThatThrownBy(
              () -> LocalPublisher.publish(staging, out, "2024-05-01-1", manifest(files), 2))
          .isInstanceOf(ArtifactException.class)
          .hasMessageContaining("already holds another export");
      assertThat(first.resolve("organizations-00000.fb")).hasContent(before);
    }

    @Test
    void failsClearlyWhenNeitherTheStagingNorTheExportIsThere() throws IOException {
      Files.delete(staging);

      assertThatThrownBy(
              () -> LocalPublisher.publish(staging, out, "2024-05-01-1", manifest(List.of()), 2))
          .isInstanceOf(ArtifactException.class)
          .hasMessageContaining("--new-run");
    }
  }

  @Test
  void aMissingFileIsAnErrorNamingItAndNothingIsPublished() throws IOException {
    List<ArtifactFile> files = new ArrayList<>(stageAnExport("a"));
    files.add(new ArtifactFile("report.md", "markdown", 10, "0".repeat(64), null, null));

    assertThatThrownBy(
            () -> LocalPublisher.publish(staging, out, "2024-05-01-1", manifest(files), 2))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("report.md")
        .hasMessageContaining(staging.toString());

    assertThat(out.resolve("exports")).doesNotExist();
    assertThat(out.resolve("CURRENT")).doesNotExist();
  }
}
