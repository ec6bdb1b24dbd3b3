package dev.flatdump.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PublisherTest {

  @TempDir Path root;
  Path staging;
  Path out;

  @BeforeEach
  void directories() throws IOException {
    out = Files.createDirectory(root.resolve("out"));
    staging = Files.createDirectories(out.resolve(".flatdump").resolve("staging"));
  }

  /** Stages a file with {@code content} and returns its manifest entry. */
  private ArtifactFile stage(String name, String format, String content) throws IOException {
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    Files.write(staging.resolve(name), bytes);
    return new ArtifactFile(name, format, bytes.length, Checksums.sha256(bytes), null, null);
  }

  private static Manifest manifest(List<ArtifactFile> files) {
    return new Manifest(
        Manifest.FORMAT_VERSION,
        new Manifest.Schema("organizations.fbs", "0".repeat(64), "ORGS"),
        new Manifest.Source("shop", "organizations", "{}"),
        new Manifest.Options("none", List.of("gzip"), 1024),
        new Manifest.Counts(3, 2, 1),
        files,
        Instant.parse("2024-05-01T10:00:00Z"),
        Instant.parse("2024-05-01T10:01:00Z"));
  }

  private List<ArtifactFile> stageAnExport() throws IOException {
    return List.of(
        stage("organizations-00000.fb", "flatbuffers", "shard 0"),
        stage("organizations-00001.fb", "flatbuffers", "shard 1"),
        stage("organizations-00000.fb.gz", "gzip", "shard 0 gz"),
        stage("organizations-00001.fb.gz", "gzip", "shard 1 gz"),
        stage("rejects.jsonl", "jsonl", "{\"_id\": 1}\n"));
  }

  private List<String> names(Path dir) throws IOException {
    try (Stream<Path> list = Files.list(dir)) {
      return list.filter(Files::isRegularFile)
          .map(p -> p.getFileName().toString())
          .sorted()
          .toList();
    }
  }

  @Test
  void movesEveryFileFromStagingIntoTheOutputDirectory() throws IOException {
    List<ArtifactFile> files = stageAnExport();

    Publisher.publish(staging, out, manifest(files));

    for (ArtifactFile f : files) {
      assertThat(out.resolve(f.name())).exists();
      assertThat(Checksums.sha256(out.resolve(f.name()))).isEqualTo(f.sha256());
    }
    assertThat(names(staging)).isEmpty();
  }

  @Test
  void writesTheManifestAfterTheFiles() throws IOException {
    Manifest manifest = manifest(stageAnExport());

    Publisher.publish(staging, out, manifest);

    assertThat(Manifest.read(out.resolve(Manifest.FILE_NAME))).isEqualTo(manifest);
    assertThat(names(out))
        .containsExactly(
            "manifest.json",
            "organizations-00000.fb",
            "organizations-00000.fb.gz",
            "organizations-00001.fb",
            "organizations-00001.fb.gz",
            "rejects.jsonl");
  }

  @Test
  void replacesTheFilesAndManifestOfAnEarlierExport() throws IOException {
    Files.writeString(out.resolve("organizations-00000.fb"), "old shard 0");
    manifest(List.of()).write(out);
    Manifest manifest = manifest(stageAnExport());

    Publisher.publish(staging, out, manifest);

    assertThat(out.resolve("organizations-00000.fb")).hasContent("shard 0");
    assertThat(Manifest.read(out.resolve(Manifest.FILE_NAME))).isEqualTo(manifest);
  }

  @Test
  void removesShardsOfAnEarlierExportThatTheManifestDoesNotList() throws IOException {
    Files.writeString(out.resolve("organizations-00005.fb"), "stale");
    Files.writeString(out.resolve("organizations-00005.fb.gz"), "stale");
    Files.writeString(out.resolve("organizations-00005.fb.zst"), "stale");
    Files.writeString(out.resolve("notes.txt"), "not ours");

    Publisher.publish(staging, out, manifest(stageAnExport()));

    assertThat(out.resolve("organizations-00005.fb")).doesNotExist();
    assertThat(out.resolve("organizations-00005.fb.gz")).doesNotExist();
    assertThat(out.resolve("organizations-00005.fb.zst")).doesNotExist();
    assertThat(out.resolve("notes.txt")).hasContent("not ours");
    assertThat(out.resolve("organizations-00001.fb")).hasContent("shard 1");
  }

  @Test
  void aRestartAfterSomeFilesWereMovedSucceeds() throws IOException {
    List<ArtifactFile> files = stageAnExport();
    // the first attempt moved two files, then died before the manifest
    AtomicFiles.move(staging.resolve(files.get(0).name()), out.resolve(files.get(0).name()));
    AtomicFiles.move(staging.resolve(files.get(1).name()), out.resolve(files.get(1).name()));
    Manifest manifest = manifest(files);

    Publisher.publish(staging, out, manifest);

    for (ArtifactFile f : files) {
      assertThat(Checksums.sha256(out.resolve(f.name()))).isEqualTo(f.sha256());
    }
    assertThat(Manifest.read(out.resolve(Manifest.FILE_NAME))).isEqualTo(manifest);
  }

  @Test
  void publishingTwiceIsHarmless() throws IOException {
    Manifest manifest = manifest(stageAnExport());
    Publisher.publish(staging, out, manifest);

    Publisher.publish(staging, out, manifest);

    assertThat(out.resolve("organizations-00000.fb")).hasContent("shard 0");
    assertThat(Manifest.read(out.resolve(Manifest.FILE_NAME))).isEqualTo(manifest);
  }

  @Test
  void aMissingFileIsAnErrorNamingItAndNoManifestIsWritten() throws IOException {
    List<ArtifactFile> files = new ArrayList<>(stageAnExport());
    files.add(new ArtifactFile("report.md", "markdown", 10, "0".repeat(64), null, null));

    assertThatThrownBy(() -> Publisher.publish(staging, out, manifest(files)))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("report.md")
        .hasMessageContaining(staging.toString());

    assertThat(out.resolve(Manifest.FILE_NAME)).doesNotExist();
  }

  @Test
  void aMissingFileLeavesTheEarlierManifestInPlace() throws IOException {
    Manifest earlier = manifest(List.of());
    earlier.write(out);
    List<ArtifactFile> files =
        List.of(
            new ArtifactFile("organizations-00000.fb", "flatbuffers", 7, "0".repeat(64), 0, 2L));

    assertThatThrownBy(() -> Publisher.publish(staging, out, manifest(files)))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("organizations-00000.fb");

    assertThat(Manifest.read(out.resolve(Manifest.FILE_NAME))).isEqualTo(earlier);
  }

  @Test
  void aFileOfAnEarlierExportIsNotMistakenForAnAlreadyMovedOne() throws IOException {
    Files.writeString(out.resolve("organizations-00000.fb"), "shard 0 of last week's export");
    List<ArtifactFile> files = List.of(stage("organizations-00000.fb", "flatbuffers", "shard 0"));
    Files.delete(staging.resolve("organizations-00000.fb")); // lost from staging

    assertThatThrownBy(() -> Publisher.publish(staging, out, manifest(files)))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("organizations-00000.fb");
    assertThat(out.resolve(Manifest.FILE_NAME)).doesNotExist();
  }
}
