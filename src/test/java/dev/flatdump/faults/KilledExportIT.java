package dev.flatdump.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.Manifest;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code kill -9} at several points of {@code organizationsExportJob}: whatever the moment, no file
 * sits partial under its final name, and running the same command again completes the export with
 * data files byte-identical to those of an uninterrupted run.
 */
@ExtendWith(MongoDbExtension.class)
class KilledExportIT {

  /** Where the run is killed, recognized by the files it is writing. */
  enum KillPoint {
    /** exportStep, once three shards are durable in staging and more are being built. */
    EXPORT_STEP(null, staged(n -> n.equals("organizations-00002.fb")), 5),
    /** compressStep, while a {@code .gz} or {@code .zst} copy is half written. */
    COMPRESS_STEP(null, staged(n -> n.matches("\\.organizations.*\\.fb\\.(gz|zst)\\.tmp")), 2),
    /**
     * reportStep, while publishing: once the first data file was renamed into the output directory
     * and before {@code manifest.json}. The window is a few milliseconds, so the test spins; should
     * the kill land after the manifest, that manifest must be complete.
     */
    PUBLISHING(
        staged(n -> n.equals("report.json")),
        out -> Files.exists(out.resolve("organizations-00000.fb")),
        0);

    private final Predicate<Path> armed;
    private final Predicate<Path> trigger;
    private final long pollMillis;

    KillPoint(Predicate<Path> armed, Predicate<Path> trigger, long pollMillis) {
      this.armed = armed;
      this.trigger = trigger;
      this.pollMillis = pollMillis;
    }

    private static Predicate<Path> staged(Predicate<String> name) {
      return out -> {
        Path staging = out.resolve(".flatdump").resolve("staging");
        if (!Files.isDirectory(staging)) {
          return false;
        }
        try (Stream<Path> files = Files.list(staging)) {
          return files.anyMatch(p -> name.test(p.getFileName().toString()));
        } catch (IOException e) {
          return false; // a file vanished while listing: look again
        }
      };
    }
  }

  @ParameterizedTest
  @EnumSource(KillPoint.class)
  @Timeout(240)
  void rerunAfterKillCompletesWithIdenticalData(
      KillPoint point, MongoServer server, @TempDir Path tmp) throws Exception {
    ReferenceExport reference = ReferenceExport.on(server);
    Path out = tmp.resolve("out");

    long started = System.nanoTime();
    try (JarRun run = JarRun.start(tmp.resolve("killed.log"), reference.exportArgs(out))) {
      if (point.armed != null) {
        // armed, or already past it: the trigger's file stays once it is there
        Predicate<Path> armed = point.armed.or(point.trigger);
        assertThat(run.awaitWhileAlive(() -> armed.test(out), 5, Duration.ofMinutes(3)))
            .as("%s: reached reportStep; log:\n%s", point, run.log())
            .isTrue();
      }
      boolean hit =
          run.awaitWhileAlive(
              () -> point.trigger.test(out), point.pollMillis, Duration.ofMinutes(3));
      assertThat(hit && run.isAlive())
          .as("%s: the run was still at work when killed; log:\n%s", point, run.log())
          .isTrue();
      run.kill();
    }
    double killedAfter = (System.nanoTime() - started) / 1e9;

    boolean manifestAllowed = point == KillPoint.PUBLISHING;
    int published = Artifacts.assertNothingPartialUnderFinalNames(out, reference, manifestAllowed);
    boolean manifestPublished = Files.exists(out.resolve(Manifest.FILE_NAME));
    if (point != KillPoint.PUBLISHING) {
      assertThat(published).as("files published by a killed run").isZero();
    }

    long rerunStarted = System.nanoTime();
    CliResult rerun = CliResult.inProcess(reference.exportArgs(out).toArray(String[]::new));
    double rerunSeconds = (System.nanoTime() - rerunStarted) / 1e9;
    assertThat(rerun.exitCode()).as("%s: %s", point, rerun).isZero();
    Artifacts.assertSameDataAsReference(out, reference);
    // Not asserted: that the rerun resumed rather than started over. The default job repository
    // (H2) writes its commits up to 500 ms late, so a kill may take the latest ones with it; the
    // rerun then resumes from an earlier checkpoint, or starts over, with the same result.
    System.out.printf(
        "KilledExportIT %s: killed after %.1f s with %d files published%s; rerun took %.1f s%s:%n%s",
        point,
        killedAfter,
        published,
        manifestPublished ? " (after manifest.json)" : "",
        rerunSeconds,
        rerun.err().contains("resumed the failed run") ? " and resumed" : " and started over",
        Artifacts.stepTable(rerun.out()));
  }
}
