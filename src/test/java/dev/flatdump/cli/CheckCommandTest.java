package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.check.ExportCheckFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckCommandTest {

  @TempDir Path dir;

  private String shard0;
  private String shard1;

  @BeforeEach
  void writeExport() {
    Manifest manifest = ExportCheckFixtures.export(dir);
    shard0 = manifest.shards().get(0).name();
    shard1 = manifest.shards().get(1).name();
  }

  private CliRun check() {
    return CliRun.of("check", dir.toString());
  }

  /** Exit 1, a line naming the file, and the summary as the last line. */
  private static void assertReports(CliRun run, String file) {
    assertThat(run.exitCode()).as("%s", run).isEqualTo(1);
    assertThat(run.out().lines())
        .as("%s", run)
        .anySatisfy(line -> assertThat(line).startsWith("PROBLEM " + file + ": "));
    assertThat(run.out().lines().reduce((a, b) -> b).orElseThrow()).contains("problem");
  }

  @Test
  void printsHelp() {
    CliRun run = CliRun.of("check", "--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("DIR", "without MongoDB");
  }

  @Test
  void passesACleanExportWithExit0AndASummary() {
    CliRun run = check();

    assertThat(run.exitCode()).as("%s", run).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines.get(lines.size() - 1))
        .contains(dir.toString(), ExportCheckFixtures.ORGS + " records")
        .endsWith("no problems");
    assertThat(lines.subList(0, lines.size() - 1))
        .isNotEmpty()
        .allSatisfy(line -> assertThat(line).startsWith("de-dup audit: ").contains(": 0 held"));
  }

  @Test
  void reportsATruncatedShard() throws IOException {
    ExportCheckFixtures.truncate(dir.resolve(shard1), 16);

    assertReports(check(), shard1);
  }

  @Test
  void reportsABitFlippedZst() throws IOException {
    ExportCheckFixtures.flipBit(dir.resolve(shard0 + ".zst"));

    assertReports(check(), shard0 + ".zst");
  }

  @Test
  void reportsAMissingFile() throws IOException {
    Files.delete(dir.resolve(shard1 + ".gz"));

    assertReports(check(), shard1 + ".gz");
  }

  @Test
  void reportsAWrongSha256InTheManifest() {
    ExportCheckFixtures.rewriteFiles(
        dir,
        f ->
            f.name().equals(shard1)
                ? new ArtifactFile(
                    f.name(), f.format(), f.bytes(), "0".repeat(64), f.shard(), f.records())
                : f);

    assertReports(check(), shard1);
  }

  @Test
  void reportsAStrayShard() throws IOException {
    Files.copy(dir.resolve(shard0), dir.resolve("organizations-00077.fb"));

    CliRun run = check();

    assertReports(run, "organizations-00077.fb");
    assertThat(run.out()).contains("1 problem in");
  }

  @Test
  void exitsWith2ForADirectoryThatDoesNotExist() {
    CliRun run = CliRun.of("check", dir.resolve("nope").toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("not a directory");
  }

  @Test
  void exitsWith2WithoutADirectory() {
    assertThat(CliRun.of("check").exitCode()).isEqualTo(2);
  }
}
