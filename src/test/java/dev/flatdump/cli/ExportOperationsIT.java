package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.bench.samples.Profile;
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
                "schema=" + Path.of("schemas", "organizations.fbs").toAbsolutePath(),
                "compress=zstd",
                "shard-size=64KiB",
                "uri=mongodb://unused.invalid:1"));
    // the environment overrides the file's uri, as a Kubernetes Secret or systemd EnvironmentFile
    // would
    CliRun run =
        CliRun.withEnv(
            Map.of("FLATDUMP_URI", server.uri()), "export", "--job-file", job.toString());
    assertThat(run.exitCode()).as(run.toString()).isZero();
    Manifest m = Manifest.read(ExportCommandIT.exported(out).resolve("manifest.json"));
    assertThat(m.options().compress()).containsExactly("zstd");
    assertThat(m.shards()).hasSizeGreaterThan(1);
    assertThat(run.out()).contains("exportStep").contains("COMPLETED");
  }

  @Test
  void theShippedJobFileExportsThroughTheSchemaBesideIt(
      MongoServer server, MongoDatabase db, @TempDir Path tmp) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 5, 200);
    Path out = tmp.resolve("out");
    CliRun run =
        CliRun.withEnv(
            Map.of("FLATDUMP_URI", server.uri(), "FLATDUMP_OUT", out.toString()),
            "export",
            "--job-file",
            Path.of("jobs", "organizations.properties").toString(),
            "--db",
            db.getName(),
            "--collection",
            "orgs");
    assertThat(run.exitCode()).as(run.toString()).isZero();
    Path dir = ExportCommandIT.exported(out);
    Manifest m = Manifest.read(dir.resolve("manifest.json"));
    assertThat(m.schema().binary()).isEqualTo("organizations.bfbs");
    assertThat(dir.resolve("organizations.fbs"))
        .hasSameTextualContentAs(Path.of("schemas", "organizations.fbs"));
    assertThat(m.counts().exported()).isEqualTo(200);
    assertThat(ExportCommandIT.verify(server, db, "orgs", out).exitCode()).isZero();
  }

  /** How many {@code fsync} commands the server has run, from {@code serverStatus}. */
  private static long fsyncCommands(MongoServer server) {
    try (var client = com.mongodb.client.MongoClients.create(server.uri())) {
      org.bson.Document status =
          client.getDatabase("admin").runCommand(new org.bson.Document("serverStatus", 1));
      Object total =
          status
              .get("metrics", org.bson.Document.class)
              .get("commands", org.bson.Document.class)
              .get("fsync", new org.bson.Document())
              .get("total");
      return total == null ? 0 : ((Number) total).longValue();
    }
  }

  @Test
  void flushesTheSourceServerOnlyWhenAsked(MongoServer server, MongoDatabase db, @TempDir Path tmp)
      throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 6, 100);
    long before = fsyncCommands(server);
    CliRun gentle = ExportCommandIT.export(server, db, "orgs", tmp.resolve("a"));
    assertThat(gentle.exitCode()).as(gentle.toString()).isZero();
    assertThat(fsyncCommands(server))
        .as("fsync commands run without --fsync-source")
        .isEqualTo(before);
    assertThat(ExportCommandIT.report(tmp.resolve("a")).at("/source/storageFlushed").asBoolean())
        .isFalse();
    // fresh data is often not yet checkpointed: then the summary says so instead of a ratio
    assertThat(gentle.out()).containsAnyOf("can lag the last checkpoint", "not yet checkpointed");

    CliRun flushed = ExportCommandIT.export(server, db, "orgs", tmp.resolve("b"), "--fsync-source");
    assertThat(flushed.exitCode()).as(flushed.toString()).isZero();
    assertThat(fsyncCommands(server)).isEqualTo(before + 1);
    assertThat(ExportCommandIT.report(tmp.resolve("b")).at("/source/storageFlushed").asBoolean())
        .isTrue();
    assertThat(flushed.out())
        .doesNotContain("can lag the last checkpoint")
        .doesNotContain("not yet checkpointed")
        .contains("of its storageSize");
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
    // make publishStep fail: a file where the exports directory must go
    Files.createDirectories(out);
    Files.writeString(out.resolve("exports"), "in the way");
    CliRun failed = ExportCommandIT.export(server, db, "orgs", out, "--run-date", "2026-03-01");
    assertThat(failed.exitCode()).as(failed.toString()).isEqualTo(1);
    assertThat(failed.err()).contains("publishStep");
    assertThat(out.resolve("CURRENT")).doesNotExist();

    CliRun nothing =
        ExportCommandIT.export(server, db, "orgs", out.resolve("elsewhere"), "--restart");
    assertThat(nothing.exitCode()).as(nothing.toString()).isEqualTo(1);
    assertThat(nothing.err()).contains("no failed run");

    Files.delete(out.resolve("exports"));
    // the next day, with other options: --restart resumes the failed run with its own options
    CliRun resumed =
        ExportCommandIT.export(
            server, db, "orgs", out, "--restart", "--run-date", "2026-03-02", "--compress", "none");
    assertThat(resumed.exitCode()).as(resumed.toString()).isZero();
    assertThat(resumed.err()).contains("resumed the failed run of run date 2026-03-01");
    assertThat(resumed.out())
        .contains("publishStep")
        .doesNotContain("exportStep ")
        .doesNotContain("reportStep ");
    Manifest m = Manifest.read(ExportCommandIT.exported(out).resolve("manifest.json"));
    assertThat(m.counts().exported()).isEqualTo(200);
    assertThat(m.options().compress()).containsExactly("gzip", "zstd");
  }
}
