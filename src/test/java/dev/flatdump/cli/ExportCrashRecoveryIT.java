package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run killed with SIGKILL mid-export, then run again with the same command, completes from its
 * checkpoint with artifacts byte-identical to those of an uninterrupted run.
 */
@ExtendWith(MongoDbExtension.class)
class ExportCrashRecoveryIT {

  private static final Path JAR =
      Path.of(System.getProperty("flatdump.jar", "target/flatdump.jar"));

  @Test
  void rerunAfterSigkillCompletesWithIdenticalArtifacts(
      MongoServer server, MongoDatabase db, @TempDir Path tmp) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.ARTICLE, 21, 6000);
    Path clean = tmp.resolve("clean");
    Path crashed = tmp.resolve("crashed");
    String[] options = {"--shard-size", "256KiB", "--run-date", "2026-01-02"};

    CliRun reference = ExportCommandIT.export(server, db, "orgs", clean, options);
    assertThat(reference.exitCode()).as(reference.toString()).isZero();

    List<String> cmd =
        new ArrayList<>(
            List.of(
                javaBin(),
                "-jar",
                JAR.toString(),
                "export",
                "--schema",
                Path.of("schemas", "organizations.fbs").toAbsolutePath().toString(),
                "--uri",
                server.uri(),
                "--db",
                db.getName(),
                "--collection",
                "orgs",
                "--out",
                crashed.toString()));
    cmd.addAll(List.of(options));
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(tmp.resolve("killed-run.log").toFile())
            .start();
    Path thirdShard = crashed.resolve(".flatdump/staging/organizations-00002.fb");
    Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
    while (!Files.exists(thirdShard) && p.isAlive() && Instant.now().isBefore(deadline)) {
      Thread.sleep(10);
    }
    assertThat(p.isAlive())
        .as(
            "the run was still exporting when killed; log:\n"
                + Files.readString(tmp.resolve("killed-run.log")))
        .isTrue();
    p.destroyForcibly(); // SIGKILL on Linux: no shutdown hooks, no cleanup
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(crashed.resolve("CURRENT"))
        .as("nothing is published by a killed run")
        .doesNotExist();
    assertThat(crashed.resolve("exports")).doesNotExist();

    CliRun rerun = ExportCommandIT.export(server, db, "orgs", crashed, options);
    assertThat(rerun.exitCode()).as(rerun.toString()).isZero();
    assertThat(rerun.err()).contains("resumed the failed run");

    clean = ExportCommandIT.exported(clean);
    crashed = ExportCommandIT.exported(crashed);
    Manifest expected = Manifest.read(clean.resolve("manifest.json"));
    Manifest actual = Manifest.read(crashed.resolve("manifest.json"));
    assertThat(actual.counts()).isEqualTo(expected.counts());
    List<String> dataFiles =
        expected.files().stream()
            .filter(f -> List.of("flatbuffers", "gzip", "zstd", "jsonl").contains(f.format()))
            .map(f -> f.name())
            .toList();
    assertThat(dataFiles).hasSizeGreaterThan(9);
    for (String name : dataFiles) {
      assertThat(Checksums.sha256(crashed.resolve(name)))
          .as(name)
          .isEqualTo(Checksums.sha256(clean.resolve(name)));
    }
    try (Stream<Path> files = Files.list(crashed)) {
      assertThat(
              files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList())
          .isEmpty();
    }
  }

  @Test
  void sameCommandAfterSuccessDoesNothing(MongoServer server, MongoDatabase db, @TempDir Path out) {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 2, 100);
    String[] options = {"--run-date", "2026-01-03"};
    assertThat(ExportCommandIT.export(server, db, "orgs", out, options).exitCode()).isZero();
    CliRun again = ExportCommandIT.export(server, db, "orgs", out, options);
    assertThat(again.exitCode()).as(again.toString()).isZero();
    assertThat(again.err()).contains("already completed");
    CliRun fresh =
        ExportCommandIT.export(server, db, "orgs", out, "--run-date", "2026-01-03", "--new-run");
    assertThat(fresh.exitCode()).as(fresh.toString()).isZero();
    assertThat(fresh.out()).contains("Read 100 documents");
  }

  private static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
