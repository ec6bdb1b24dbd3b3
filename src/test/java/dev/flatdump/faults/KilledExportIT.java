package dev.flatdump.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.artifact.write.CrashPoint;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code kill -9} at several points of {@code exportJob}: whatever the moment, nothing partial is
 * published, and running the same command again resumes from the last checkpoint (it does not start
 * over) and completes the export with data files byte-identical to those of an uninterrupted run.
 *
 * <p>The default job repository (H2 with {@code WRITE_DELAY=0}) writes each commit to its file
 * before the commit returns, so a killed process loses no checkpoint: the resume is asserted, not
 * hoped for.
 */
@ExtendWith(MongoDbExtension.class)
class KilledExportIT {

  /**
   * The compared baselines: every one, so that the publish points show reportStep is not redone.
   */
  private static final List<String> COMPARE = List.of("--compare", "plain,strings,protobuf,json");

  /** Where the run is killed. */
  enum KillPoint {
    /** exportStep (SIGKILL), once three shards are in staging and more are being built. */
    EXPORT_STEP(staged(n -> n.equals("organizations-00002.fb")), null),
    /** compressStep (SIGKILL), while a {@code .gz} or {@code .zst} copy is half written. */
    COMPRESS_STEP(staged(n -> n.matches("\\.organizations.*\\.fb\\.(gz|zst)\\.tmp")), null),
    /** publishStep: the export's directory is in place, no pointer names it yet. */
    PUBLISH_RENAMED(null, "publish.renamed"),
    /** publishStep: {@code current} names the export, {@code CURRENT} not yet. */
    PUBLISH_LINKED(null, "publish.linked");

    private final Predicate<Path> trigger;
    private final String crashAt;

    KillPoint(Predicate<Path> trigger, String crashAt) {
      this.trigger = trigger;
      this.crashAt = crashAt;
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
  void rerunResumesAndCompletesWithIdenticalData(
      KillPoint point, MongoServer server, @TempDir Path tmp) throws Exception {
    ReferenceExport reference = ReferenceExport.on(server);
    Path out = tmp.resolve("out");
    // Every baseline where a rerun after the crash must not measure them again from staging;
    // they take most of a run's time, so only there.
    List<String> args =
        point == KillPoint.PUBLISH_RENAMED
            ? reference.exportArgs(out, COMPARE.toArray(String[]::new))
            : reference.exportArgs(out);

    if (point.crashAt == null) {
      try (JarRun run = JarRun.start(tmp.resolve("killed.log"), args)) {
        boolean hit = run.awaitWhileAlive(() -> point.trigger.test(out), 2, Duration.ofMinutes(3));
        assertThat(hit && run.isAlive())
            .as("%s: the run was still at work when killed; log:\n%s", point, run.log())
            .isTrue();
        run.kill();
      }
    } else {
      try (JarRun run =
          JarRun.start(
              tmp.resolve("crashed.log"), List.of("-Dflatdump.crashAt=" + point.crashAt), args)) {
        assertThat(run.awaitExit(Duration.ofMinutes(3)))
            .as("%s: halted at the crash point; log:\n%s", point, run.log())
            .isEqualTo(CrashPoint.EXIT_CODE);
      }
    }

    boolean publishing = point.crashAt != null;
    int published = Artifacts.assertNothingPartialUnderFinalNames(out, reference, publishing);
    Map<String, String> before = publishing ? checksums(onlyExport(out)) : Map.of();
    if (point == KillPoint.PUBLISH_RENAMED) {
      assertThat(out.resolve(OutputLayout.CURRENT_FILE)).doesNotExist();
      assertThat(out.resolve(OutputLayout.CURRENT_LINK)).doesNotExist();
    }
    if (point == KillPoint.PUBLISH_LINKED) {
      assertThat(OutputLayout.resolve(out)).isEqualTo(onlyExport(out).toRealPath());
      assertThat(out.resolve(OutputLayout.CURRENT_FILE)).doesNotExist();
    }
    if (!publishing) {
      assertThat(published).as("files published by a killed run").isZero();
    }

    CliResult rerun = CliResult.inProcess(args.toArray(String[]::new));
    assertThat(rerun.exitCode()).as("%s: %s", point, rerun).isZero();
    assertThat(rerun.err()).as("%s: %s", point, rerun).contains("resumed the failed run");
    Map<String, Long> read = readByStep(rerun.out());
    switch (point) {
      case EXPORT_STEP ->
          assertThat(read.get("exportStep"))
              .as("documents the resumed exportStep read again; %s", rerun)
              .isBetween(1L, ReferenceExport.ORGS - 1L);
      case COMPRESS_STEP ->
          assertThat(read.keySet())
              .as("steps the rerun ran; %s", rerun)
              .doesNotContain("exportStep")
              .contains("compressStep", "reportStep", "publishStep");
      default ->
          assertThat(read.keySet())
              .as("steps the rerun ran; %s", rerun)
              .containsExactly("publishStep", "uploadStep");
    }
    Artifacts.assertSameDataAsReference(out, reference);
    assertThat(Artifacts.exportDirs(out)).hasSize(1);
    if (publishing) {
      assertThat(checksums(onlyExport(out)))
          .as("every file of the export, reports included, as the crashed run left it")
          .isEqualTo(before);
    }
    System.out.printf(
        "KilledExportIT %s: %d files published before the rerun; rerun:%n%s",
        point, published, Artifacts.stepTable(rerun.out()));
  }

  /**
   * The same with a schema inferred first ({@code export --infer}): killed in exportStep, the rerun
   * infers the same schema from the same documents, resumes, and gives the data and schema files of
   * an uninterrupted run, byte for byte.
   */
  @org.junit.jupiter.api.Test
  @Timeout(240)
  void anInferredExportKilledInExportStepResumesWithIdenticalData(
      MongoServer server, @TempDir Path tmp) throws Exception {
    ReferenceExport reference = ReferenceExport.on(server);
    String[] schema = {"--infer", "--narrow-integers"};
    Path uninterrupted = tmp.resolve("uninterrupted");
    CliResult whole =
        CliResult.inProcess(reference.exportArgs(uninterrupted, schema).toArray(String[]::new));
    assertThat(whole.exitCode()).as("%s", whole).isZero();
    Path expected = OutputLayout.resolve(uninterrupted);

    Path out = tmp.resolve("out");
    List<String> args = reference.exportArgs(out, schema);
    try (JarRun run = JarRun.start(tmp.resolve("killed.log"), args)) {
      Predicate<Path> third =
          KillPoint.staged(n -> n.equals(ReferenceExport.COLLECTION + "-00002.fb"));
      boolean hit = run.awaitWhileAlive(() -> third.test(out), 2, Duration.ofMinutes(3));
      assertThat(hit && run.isAlive())
          .as("still at work when killed; log:\n%s", run.log())
          .isTrue();
      run.kill();
    }
    assertThat(Artifacts.exportDirs(out)).as("exports published by the killed run").isEmpty();

    CliResult rerun = CliResult.inProcess(args.toArray(String[]::new));
    assertThat(rerun.exitCode()).as("%s", rerun).isZero();
    assertThat(rerun.err()).contains("resumed the failed run");
    assertThat(readByStep(rerun.out()).get("exportStep"))
        .as("documents the resumed exportStep read again; %s", rerun)
        .isBetween(1L, ReferenceExport.ORGS - 1L);
    Path actual = OutputLayout.resolve(out);
    Map<String, String> want = checksums(expected);
    Map<String, String> got = checksums(actual);
    for (String report : List.of("report.json", "report.md", "report.html", "manifest.json")) {
      want.remove(report);
      got.remove(report);
    }
    assertThat(got).as("data and schema files of the resumed export").isEqualTo(want);
    assertThat(got)
        .containsKeys(
            ReferenceExport.COLLECTION + ".fbs",
            ReferenceExport.COLLECTION + ".bfbs",
            "rejects.jsonl");
    assertThat(got.keySet().stream().filter(n -> n.endsWith(".fb"))).hasSizeGreaterThan(20);
  }

  private static Path onlyExport(Path out) throws IOException {
    List<Path> dirs = Artifacts.exportDirs(out);
    assertThat(dirs).as("exports in %s", out).hasSize(1);
    return dirs.get(0);
  }

  private static Map<String, String> checksums(Path dir) throws IOException {
    Map<String, String> sums = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.toList()) {
        sums.put(p.getFileName().toString(), Checksums.sha256(p));
      }
    }
    return sums;
  }

  private static final Pattern STEP_ROW = Pattern.compile("^(\\w+Step)\\s+\\w+\\s+([\\d,]+)\\s");

  /**
   * Documents read per step, from the step table a run printed; a step it did not run is absent.
   */
  static Map<String, Long> readByStep(String output) {
    Map<String, Long> read = new java.util.LinkedHashMap<>();
    for (String line : output.lines().toList()) {
      Matcher m = STEP_ROW.matcher(line);
      if (m.find()) {
        read.put(m.group(1), Long.parseLong(m.group(2).replace(",", "")));
      }
    }
    return read;
  }
}
