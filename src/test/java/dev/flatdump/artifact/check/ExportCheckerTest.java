package dev.flatdump.artifact.check;

import static dev.flatdump.artifact.check.ExportCheckFixtures.ORGS;
import static dev.flatdump.artifact.check.ExportCheckFixtures.flipBit;
import static dev.flatdump.artifact.check.ExportCheckFixtures.rewriteFiles;
import static dev.flatdump.artifact.check.ExportCheckFixtures.truncate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExportCheckerTest {

  @TempDir Path dir;

  private Manifest manifest;
  private String shard0;
  private String shard1;

  @BeforeEach
  void writeExport() {
    manifest = ExportCheckFixtures.export(dir);
    assertThat(manifest.shards()).as("the fixture has several shards").hasSizeGreaterThan(2);
    shard0 = manifest.shards().get(0).name();
    shard1 = manifest.shards().get(1).name();
  }

  private List<ExportChecker.Problem> problems() {
    ExportChecker.Result result = ExportChecker.check(dir);
    assertThat(result.clean()).isEqualTo(result.problems().isEmpty());
    return result.problems();
  }

  private static List<String> files(List<ExportChecker.Problem> problems) {
    return problems.stream().map(ExportChecker.Problem::file).distinct().toList();
  }

  @Test
  void passesACleanExport() {
    ExportChecker.Result result = ExportChecker.check(dir);

    assertThat(result.problems()).isEmpty();
    assertThat(result.clean()).isTrue();
    assertThat(result.files()).isEqualTo(manifest.files().size());
    assertThat(result.shards()).isEqualTo(manifest.shards().size());
    assertThat(result.records()).isEqualTo(ORGS);
  }

  @Nested
  class Shards {

    @Test
    void reportsATruncatedShard() throws IOException {
      truncate(dir.resolve(shard1), 10);

      List<ExportChecker.Problem> problems = problems();

      assertThat(files(problems)).containsExactly(shard1);
      assertThat(problems)
          .extracting(ExportChecker.Problem::message)
          .anySatisfy(m -> assertThat(m).contains("bytes, the manifest says"))
          .anySatisfy(m -> assertThat(m).contains("sha256"))
          .anySatisfy(m -> assertThat(m).startsWith("is not a valid FlatBuffer of its schema"));
    }

    @Test
    void reportsAShardWhoseRecordCountDiffers() {
      rewriteFiles(
          dir,
          f ->
              f.name().equals(shard0)
                  ? new ArtifactFile(
                      f.name(), f.format(), f.bytes(), f.sha256(), f.shard(), f.records() + 1)
                  : f);

      List<ExportChecker.Problem> problems = problems();

      assertThat(problems)
          .anySatisfy(
              p -> {
                assertThat(p.file()).isEqualTo(shard0);
                assertThat(p.message()).contains("records, the manifest says");
              })
          .anySatisfy(
              p -> {
                assertThat(p.file()).isEqualTo(Manifest.FILE_NAME);
                assertThat(p.message()).contains("counts.exported is " + ORGS);
              });
    }

    @Test
    void reportsAWrongSha256InTheManifest() {
      String wrong = "f".repeat(64);
      rewriteFiles(
          dir,
          f ->
              f.name().equals(shard0)
                  ? new ArtifactFile(f.name(), f.format(), f.bytes(), wrong, f.shard(), f.records())
                  : f);

      List<ExportChecker.Problem> problems = problems();

      // The shard no longer matches, and neither do its copies, which decompress to its bytes.
      assertThat(files(problems))
          .containsExactlyInAnyOrder(shard0, shard0 + ".gz", shard0 + ".zst");
      assertThat(problems.get(0).message()).contains("the manifest says " + wrong);
    }

    @Test
    void reportsAStrayShardTheManifestDoesNotList() throws IOException {
      Files.copy(dir.resolve(shard0), dir.resolve("organizations-00099.fb"));

      List<ExportChecker.Problem> problems = problems();

      assertThat(problems)
          .singleElement()
          .satisfies(
              p -> {
                assertThat(p.file()).isEqualTo("organizations-00099.fb");
                assertThat(p.message()).contains("does not list");
              });
    }

    @Test
    void takesAFileNamedLikeTheSchemaForNoShard() throws IOException {
      // it starts with "organizations" and holds ".fb", as organizations.fbs does
      Files.writeString(dir.resolve("organizations.fbs.orig"), "table Org {}");

      assertThat(problems()).isEmpty();
    }
  }

  @Nested
  class Copies {

    @Test
    void reportsABitFlippedZst() throws IOException {
      flipBit(dir.resolve(shard1 + ".zst"));

      List<ExportChecker.Problem> problems = problems();

      assertThat(files(problems)).containsExactly(shard1 + ".zst");
      assertThat(problems)
          .extracting(ExportChecker.Problem::message)
          .anySatisfy(m -> assertThat(m).contains("sha256"))
          .anySatisfy(m -> assertThat(m).containsAnyOf("does not decompress", "decompresses to"));
    }

    @Test
    void reportsABitFlippedGz() throws IOException {
      flipBit(dir.resolve(shard0 + ".gz"));

      assertThat(files(problems())).containsExactly(shard0 + ".gz");
    }

    @Test
    void reportsATruncatedZstThatTheManifestAgreesWith() throws IOException {
      // The manifest's size and sha256 describe the truncated file: only decompression tells.
      Path zst = dir.resolve(shard0 + ".zst");
      truncate(zst, 20);
      long size = Files.size(zst);
      String sha = Checksums.sha256(zst);
      rewriteFiles(
          dir,
          f ->
              f.name().equals(shard0 + ".zst")
                  ? new ArtifactFile(f.name(), f.format(), size, sha, f.shard(), f.records())
                  : f);

      List<ExportChecker.Problem> problems = problems();

      assertThat(problems)
          .singleElement()
          .satisfies(
              p -> {
                assertThat(p.file()).isEqualTo(shard0 + ".zst");
                assertThat(p.message()).contains("does not decompress (zstd)");
              });
    }

    @Test
    void reportsACopyOfAShardTheManifestDoesNotList() {
      rewriteFiles(
          dir,
          f ->
              f.name().equals(shard0 + ".gz")
                  ? new ArtifactFile(
                      shard0 + ".gz", "gzip", f.bytes(), f.sha256(), f.shard(), f.records())
                  : f.name().equals(shard0)
                      ? new ArtifactFile(f.name(), "binary", f.bytes(), f.sha256(), null, null)
                      : f);

      assertThat(problems())
          .anySatisfy(
              p -> {
                assertThat(p.file()).isEqualTo(shard0 + ".gz");
                assertThat(p.message()).contains("does not list as a shard");
              });
    }
  }

  @Nested
  class Manifests {

    @Test
    void reportsAMissingFile() throws IOException {
      Files.delete(dir.resolve(shard1 + ".gz"));

      assertThat(problems())
          .singleElement()
          .satisfies(
              p -> {
                assertThat(p.file()).isEqualTo(shard1 + ".gz");
                assertThat(p.message()).contains("missing");
              });
    }

    @Test
    void reportsAMissingManifest() throws IOException {
      Files.delete(dir.resolve(Manifest.FILE_NAME));

      assertThat(problems())
          .singleElement()
          .satisfies(p -> assertThat(p.file()).isEqualTo(Manifest.FILE_NAME));
    }

    @Test
    void reportsAManifestThatDoesNotParse() throws IOException {
      Files.writeString(dir.resolve(Manifest.FILE_NAME), "{ \"formatVersion\": 1, ");

      assertThat(problems())
          .singleElement()
          .satisfies(
              p -> {
                assertThat(p.file()).isEqualTo(Manifest.FILE_NAME);
                assertThat(p.message()).startsWith("does not parse").doesNotContain("\n");
              });
    }

    @Test
    void reportsANameOutsideTheDirectory() {
      rewriteFiles(
          dir,
          f ->
              f.format().equals("jsonl")
                  ? new ArtifactFile(
                      "../rejects.jsonl", f.format(), f.bytes(), f.sha256(), null, f.records())
                  : f);

      assertThat(problems())
          .singleElement()
          .satisfies(
              p -> {
                assertThat(p.file()).isEqualTo("../rejects.jsonl");
                assertThat(p.message()).contains("not a plain file name");
              });
    }

    @Test
    void collectsEveryProblemRatherThanStoppingAtTheFirst() throws IOException {
      truncate(dir.resolve(shard0), 1);
      flipBit(dir.resolve(shard1 + ".zst"));
      Files.delete(dir.resolve(shard1 + ".gz"));
      Files.writeString(dir.resolve("organizations-00042.fb.gz"), "stray");

      assertThat(files(problems()))
          .contains(shard0, shard1 + ".zst", shard1 + ".gz", "organizations-00042.fb.gz");
    }
  }
}
