package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.sample.Profile;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Running flatdump the way operators do: job files and environment, overlap, --restart. */
@ExtendWith(MongoDbExtension.class)
class ExportOperationsIT {

  @Test
  void scheduledRunTakesItsOptionsFromJobFileAndEnvironment(
      MongoServer server, MongoDatabase db, @TempDir Path tmp) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 4, 300);
    Path out = tmp.resolve("out");
    Path job =
        Files.writeString(
            tmp.resolve("organizations.properties"),
            String.join(
                "\n",
                "db=" + db.getName(),
                "collection=orgs",
                "out=" + out,
                "compress=zstd",
                "shard-size=64KiB",
                "uri=mongodb://unused.invalid:1"));
    // the environment overrides the file's uri, as a Kubernetes Secret or systemd EnvironmentFile
    // would
    CliRun run =
        CliRun.withEnv(
            Map.of("FLATDUMP_URI", server.uri()), "export", "--job-file", job.toString());
    assertThat(run.exitCode()).as(run.toString()).isZero();
    Manifest m = Manifest.read(out.resolve("manifest.json"));
    assertThat(m.options().compress()).containsExactly("zstd");
    assertThat(m.shards()).hasSizeGreaterThan(1);
    assertThat(run.out()).contains("exportStep").contains("COMPLETED");
  }

  @Test
  void aSecondRunIntoTheSameDirectoryExitsAtOnceAndTouchesNothing(
      MongoServer server, MongoDatabase db, @TempDir Path out) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 4, 50);
    Files.createDirectories(out.resolve(".flatdump"));
    try (FileChannel ch =
            FileChannel.open(
                out.resolve(".flatdump/lock"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock held = ch.lock()) {
      // a lock held by another process; within one JVM FileChannel reports an overlap instead
      CliRun second = ExportCommandIT.export(server, db, "orgs", out);
      assertThat(second.exitCode()).as(second.toString()).isEqualTo(1);
      assertThat(second.err()).contains("another flatdump run is exporting into " + out);
    }
    try (var files = Files.list(out.resolve(".flatdump"))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("lock");
    }
  }

  @Test
  void restartResumesTheFailedRunOfAnEarlierDayWithoutRedoingFinishedSteps(
      MongoServer server, MongoDatabase db, @TempDir Path out) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 4, 200);
    // make the publish at the end of reportStep fail: a directory where report.json must go
    Files.createDirectories(out.resolve("report.json").resolve("blocker"));
    CliRun failed = ExportCommandIT.export(server, db, "orgs", out, "--run-date", "2026-03-01");
    assertThat(failed.exitCode()).as(failed.toString()).isEqualTo(1);
    assertThat(failed.err()).contains("reportStep");
    assertThat(out.resolve("manifest.json")).doesNotExist();

    CliRun nothing =
        ExportCommandIT.export(server, db, "orgs", out.resolve("elsewhere"), "--restart");
    assertThat(nothing.exitCode()).as(nothing.toString()).isEqualTo(1);
    assertThat(nothing.err()).contains("no failed run");

    Files.delete(out.resolve("report.json").resolve("blocker"));
    Files.delete(out.resolve("report.json"));
    // the next day, with other options: --restart resumes the failed run with its own options
    CliRun resumed =
        ExportCommandIT.export(
            server, db, "orgs", out, "--restart", "--run-date", "2026-03-02", "--compress", "none");
    assertThat(resumed.exitCode()).as(resumed.toString()).isZero();
    assertThat(resumed.err()).contains("resumed the failed run of run date 2026-03-01");
    assertThat(resumed.out()).contains("reportStep").doesNotContain("exportStep ");
    Manifest m = Manifest.read(out.resolve("manifest.json"));
    assertThat(m.counts().exported()).isEqualTo(200);
    assertThat(m.options().compress()).containsExactly("gzip", "zstd");
  }
}
