package dev.flatdump.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The output disk fills up: the run fails with a message that names the file and says there is no
 * space left, publishes nothing under a final name, and once there is room again the same command
 * resumes from its checkpoint and produces the same data files as an uninterrupted run.
 *
 * <p>The output directory is a small tmpfs mounted for the test (root only; skipped otherwise),
 * which the test then grows with {@code mount -o remount,size=...}: the staging directory and the
 * job repository survive, as they would when an operator frees space on a real disk.
 */
@ExtendWith(MongoDbExtension.class)
class DiskFullIT {

  private static final long KIB = 1024;

  /** Which step runs out of space, by the size of the file system. */
  enum FullDuring {
    /** 1 MiB: the job repository and about ten shards fit. */
    EXPORT_STEP,
    /**
     * Every shard and 3 MiB more, for the job repository (it commits at once, so it grows with
     * every shard) and some of the gzip copies.
     */
    COMPRESS_STEP;

    long sizeKib(Manifest reference) {
      if (this == EXPORT_STEP) {
        return 1024;
      }
      long shards = reference.shards().stream().mapToLong(ArtifactFile::bytes).sum();
      return shards / KIB + 3 * 1024;
    }
  }

  @ParameterizedTest
  @EnumSource(FullDuring.class)
  @Timeout(240)
  void failsClearlyAndResumesOnceThereIsRoom(FullDuring when, MongoServer server, @TempDir Path tmp)
      throws Exception {
    ReferenceExport reference = ReferenceExport.on(server);
    Path out = Files.createDirectories(tmp.resolve("out"));
    long sizeKib = when.sizeKib(reference.manifest());
    mountTmpfs(out, sizeKib);
    try {
      String[] command = reference.exportArgs(out).toArray(String[]::new);
      CliResult full = CliResult.inProcess(command);
      assertThat(full.exitCode()).as(full.toString()).isEqualTo(1);
      String failure = lastLine(full.err(), "flatdump: export failed: ");
      assertThat(failure)
          .as(full.toString())
          .contains(when == FullDuring.EXPORT_STEP ? "exportStep" : "compressStep")
          .contains(out.toString())
          .contains("No space left on device");
      assertThat(full.err()).contains("run the same command again to resume");
      assertThat(out.resolve(Manifest.FILE_NAME)).doesNotExist();
      assertThat(Artifacts.assertNothingPartialUnderFinalNames(out, reference, false)).isZero();

      long repositoryBytes = Files.size(out.resolve(".flatdump/job-repository.mv.db"));
      run("mount", "-o", "remount,size=256m", out.toString());
      CliResult rerun = CliResult.inProcess(command);
      assertThat(rerun.exitCode()).as(rerun.toString()).isZero();
      Artifacts.assertSameDataAsReference(out, reference);
      // Not asserted: that the rerun resumed. The job repository shares the full disk, so the
      // commit that would record the failure may itself fail: the rerun then resumes from the
      // last commit that was saved (or starts over), with the same result.
      System.out.printf(
          "DiskFullIT %s (tmpfs of %d KiB, job repository %d bytes): %s%nrerun %s:%n%s",
          when,
          sizeKib,
          repositoryBytes,
          failure,
          rerun.err().contains("resumed the failed run") ? "resumed" : "started over",
          Artifacts.stepTable(rerun.out()));
    } finally {
      run("umount", "-l", out.toString());
    }
  }

  private static String lastLine(String text, String prefix) {
    List<String> lines = text.lines().filter(l -> l.startsWith(prefix)).toList();
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
  }

  private static void mountTmpfs(Path dir, long sizeKib) throws IOException, InterruptedException {
    List<String> cmd =
        List.of("mount", "-t", "tmpfs", "-o", "size=" + sizeKib + "k", "tmpfs", dir.toString());
    String failure = exec(cmd);
    Assumptions.assumeTrue(failure == null, () -> "mounting a small tmpfs needs root: " + failure);
  }

  private static void run(String... cmd) throws IOException, InterruptedException {
    String failure = exec(List.of(cmd));
    assertThat(failure).as(String.join(" ", cmd)).isNull();
  }

  /** Runs a command; returns null on success, else its exit code and output. */
  private static String exec(List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(new ArrayList<>(cmd)).redirectErrorStream(true).start();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return "timed out";
    }
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + output.strip();
  }
}
