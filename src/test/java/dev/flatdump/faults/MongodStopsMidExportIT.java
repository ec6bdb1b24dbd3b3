package dev.flatdump.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MongoDB server stops in the middle of an export: the run fails within a bounded time with a
 * message that says MongoDB is unreachable and to run again, publishes nothing, and the same
 * command, once the server is back, resumes and produces the same data files as an uninterrupted
 * run.
 *
 * <p>The server is a private mongod ({@code bin/mongod-local}), stopped cleanly (SIGTERM), which
 * interrupts the open cursor. The URI sets {@code serverSelectionTimeoutMS=3000}, so the run gives
 * up after 5 re-opens in about 15 s of back-off plus 6 × 3 s; with the default 15 s selection
 * timeout it takes about 90 s (measured 91 s), too long for CI.
 */
@ExtendWith(MongoDbExtension.class)
class MongodStopsMidExportIT {

  /** Back-off 1 + 2 + 3 + 4 + 5 s and 6 server selections of 3 s, then generous slack. */
  private static final Duration FAILS_WITHIN = Duration.ofSeconds(120);

  @Test
  @Timeout(300)
  void failsClearlyThenResumesOnceMongodIsBack(MongoServer shared, @TempDir Path tmp)
      throws Exception {
    ReferenceExport reference = ReferenceExport.on(shared);
    try (PrivateMongod mongod = PrivateMongod.start(tmp.resolve("mongod"))) {
      String uri = "mongodb://127.0.0.1:" + mongod.port() + "/?serverSelectionTimeoutMS=3000";
      String db = reference.database();
      try (MongoClient client = MongoClients.create(uri)) {
        ReferenceExport.generate(client.getDatabase(db));
      }
      Path out = tmp.resolve("out");
      // small cursor batches, so that the cursor still needs the server when it stops
      List<String> command = ReferenceExport.exportArgs(uri, db, out, "--batch-size", "100");

      long stoppedAt;
      int exitCode;
      String log;
      try (JarRun run = JarRun.start(tmp.resolve("failed.log"), command)) {
        Path firstShard = out.resolve(".flatdump/staging/organizations-00000.fb");
        assertThat(run.awaitWhileAlive(() -> Files.exists(firstShard), 5, Duration.ofMinutes(3)))
            .as("the first shard was written; log:\n%s", run.log())
            .isTrue();
        mongod.stop();
        stoppedAt = System.nanoTime();
        exitCode = run.awaitExit(Duration.ofMinutes(4));
        log = run.log();
      }
      Duration failedAfter = Duration.ofNanos(System.nanoTime() - stoppedAt);

      assertThat(exitCode).as(log).isEqualTo(1);
      assertThat(log)
          .contains("flatdump: export failed: exportStep: MongoDB is unreachable")
          .contains("run the same command again to resume");
      assertThat(failedAfter).as("time from the stop to the exit").isLessThan(FAILS_WITHIN);
      assertThat(out.resolve(Manifest.FILE_NAME)).doesNotExist();
      assertThat(Artifacts.assertNothingPartialUnderFinalNames(out, reference, false)).isZero();

      long restartAt = System.nanoTime();
      mongod.startAgain(Duration.ofSeconds(90));
      Duration restartTook = Duration.ofNanos(System.nanoTime() - restartAt);
      CliResult rerun = CliResult.inProcess(command.toArray(String[]::new));
      assertThat(rerun.exitCode()).as(rerun.toString()).isZero();
      assertThat(rerun.err()).contains("resumed the failed run");
      Artifacts.assertSameDataAsReference(out, reference);
      System.out.printf(
          "MongodStopsMidExportIT: failed %.1f s after mongod stopped; mongod back after %.1f s%n",
          failedAfter.toMillis() / 1e3, restartTook.toMillis() / 1e3);
    }
  }
}
