package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.Manifest;
import dev.flatdump.reader.ExportReader;
import dev.flatdump.reader.ReloadListener;
import dev.flatdump.reader.Snapshot;
import dev.flatdump.reader.s3.S3Exports;
import dev.flatdump.testing.MinioServer;
import dev.flatdump.testing.S3Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flatdump pull} as a user runs it, a process of its own, against a real S3 server (MinIO)
 * holding exports that the real {@code ArtifactUploader} published, while more are published.
 */
class PullCommandIT {

  private static final String BUCKET = "artifacts";

  private static MinioServer minio;

  @BeforeAll
  static void start() throws Exception {
    minio = MinioServer.start(false, BUCKET);
  }

  @AfterAll
  static void stop() throws Exception {
    minio.close();
    System.clearProperty("aws.accessKeyId");
    System.clearProperty("aws.secretAccessKey");
  }

  private static String name(int i) {
    return "2026-11-29-" + i;
  }

  /** Starts {@code java -jar flatdump.jar pull ARGS}, its output into {@code log}. */
  private static Process pull(Path log, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-jar");
    cmd.add(Path.of(System.getProperty("flatdump.jar", "target/flatdump.jar")).toString());
    cmd.add("pull");
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.redirectOutput(log.toFile());
    pb.environment().put("AWS_ACCESS_KEY_ID", MinioServer.ACCESS_KEY);
    pb.environment().put("AWS_SECRET_ACCESS_KEY", MinioServer.SECRET_KEY);
    return pb.start();
  }

  private static String current(Path out) {
    try {
      Path file = out.resolve("CURRENT");
      return Files.isRegularFile(file)
          ? Files.readString(file, StandardCharsets.UTF_8).strip()
          : "";
    } catch (java.io.IOException e) {
      return ""; // being replaced
    }
  }

  @Test
  void pullWatchFollowsTwentyPublishesRacingItAndEndsByteIdenticalToTheLast(@TempDir Path tmp)
      throws Exception {
    String uri = "s3://" + BUCKET + "/watch/orgs";
    Path out = tmp.resolve("out");
    Path log = tmp.resolve("watch.log");
    try (S3Exports exports = new S3Exports(minio, uri, tmp.resolve("src"))) {
      exports.publish(name(1), 1);
      Process watch =
          pull(
              log,
              uri,
              "--out",
              out.toString(),
              "--watch",
              "0.2",
              "--keep",
              "3",
              "--s3-endpoint",
              minio.endpoint().toString(),
              "--s3-path-style");
      awaitTrue(() -> current(out).equals("exports/" + name(1)), watch, log);

      // a service reading the pulled exports, reloading all along
      List<String> refreshed = new CopyOnWriteArrayList<>();
      List<String> problems = new CopyOnWriteArrayList<>();
      AtomicBoolean publishing = new AtomicBoolean(true);
      ExportReader reader = ExportReader.open(out);
      reader.addListener(
          new ReloadListener() {
            @Override
            public void refreshed(String oldId, String newId) {
              refreshed.add(newId);
            }

            @Override
            public void failed(Path dir, String currentId, dev.flatdump.reader.ReaderException e) {
              if (Files.isDirectory(dir)) { // else removed by --keep since: the next reload follows
                problems.add(dir + ": " + e.getMessage());
              }
            }
          });
      Path src = tmp.resolve("src");
      Thread service =
          new Thread(
              () -> {
                while (publishing.get()) {
                  reader.reload();
                  try (Snapshot s = reader.snapshot()) {
                    // each export the reader serves is one published export, whole
                    byte[] manifest = Files.readAllBytes(s.directory().resolve("manifest.json"));
                    byte[] published =
                        Files.readAllBytes(src.resolve(s.id()).resolve("manifest.json"));
                    if (!java.util.Arrays.equals(manifest, published)) {
                      problems.add(s.id() + ": not the published manifest");
                    }
                    if (s.records()
                        != Manifest.read(src.resolve(s.id()).resolve("manifest.json"))
                            .counts()
                            .exported()) {
                      problems.add(s.id() + ": " + s.records() + " records");
                    }
                  } catch (java.io.IOException e) {
                    problems.add(e.toString());
                  }
                  try {
                    Thread.sleep(20);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "service");
      service.start();

      // 20 publishes racing the pull; each removes the export before it from the bucket at once,
      // as a strict retention would, so that a pull may lose the export it is downloading
      Random random = new Random(7);
      for (int i = 2; i <= 21; i++) {
        exports.publish(name(i), i);
        exports.delete(name(i - 1));
        Thread.sleep(random.nextInt(400));
      }
      awaitTrue(() -> current(out).equals("exports/" + name(21)), watch, log);
      publishing.set(false);
      service.join();
      reader.reload();
      assertThat(reader.currentId()).isEqualTo(name(21));
      reader.close();

      watch.destroy(); // SIGTERM
      assertThat(watch.waitFor(1, TimeUnit.MINUTES)).isTrue();
      assertThat(watch.exitValue()).as("the JVM's code for SIGTERM").isEqualTo(143);
      String text = Files.readString(log);
      System.out.println(text);
      assertThat(text).contains("flatdump pull: stopped").doesNotContain("Exception");
      assertThat(problems).isEmpty();
      S3Exports.assertSameFiles(out.resolve("exports").resolve(name(21)), src.resolve(name(21)));

      List<Integer> pulled =
          text.lines()
              .filter(l -> l.startsWith("pulled "))
              .map(l -> Integer.parseInt(l.split(" ")[1].substring("2026-11-29-".length())))
              .toList();
      assertThat(pulled)
          .as(text)
          .isSorted()
          .doesNotHaveDuplicates()
          .endsWith(21)
          .hasSizeGreaterThan(2);
      assertThat(refreshed).as("the reader followed several pulls").hasSizeGreaterThan(1);
      assertThat(refreshed).last().isEqualTo(name(21));
      try (Stream<Path> dirs = Files.list(out.resolve("exports"))) {
        assertThat(dirs.count()).as("--keep 3").isLessThanOrEqualTo(3);
      }
    }
  }

  @Test
  void aPullKilledMidDownloadResumesFromItsPartialFileWithARangeRequest(@TempDir Path tmp)
      throws Exception {
    String uri = "s3://" + BUCKET + "/resume/orgs";
    Path out = tmp.resolve("out");
    try (S3Exports exports = new S3Exports(minio, uri, tmp.resolve("src"));
        S3Proxy proxy = S3Proxy.start(minio.endpoint())) {
      Path src = exports.publish(name(1), 1, 3000, 1 << 20);
      String copy = Manifest.read(src.resolve("manifest.json")).shards().get(0).name() + ".zst";
      long copyBytes = Files.size(src.resolve(copy));
      Path part = out.resolve(".pull").resolve(name(1)).resolve(copy + ".part");
      String[] args = {
        uri,
        "--out",
        out.toString(),
        "--s3-endpoint",
        proxy.endpoint().toString(),
        "--s3-path-style"
      };

      proxy.pauseAfter(64 * 1024); // inside the first shard's copy
      Path killedLog = tmp.resolve("killed.log");
      Process killed = pull(killedLog, args);
      awaitTrue(proxy::paused, killed, killedLog);
      awaitTrue(() -> stableSize(part) > 0, killed, killedLog);
      killed.destroyForcibly(); // SIGKILL
      assertThat(killed.waitFor(1, TimeUnit.MINUTES)).isTrue();
      long kept = Files.size(part);
      assertThat(kept).isGreaterThan(0).isLessThan(copyBytes);
      assertThat(out.resolve("CURRENT")).doesNotExist();

      proxy.clearRequests();
      proxy.resume();
      Path log = tmp.resolve("again.log");
      Process again = pull(log, args);
      assertThat(again.waitFor(3, TimeUnit.MINUTES)).isTrue();
      assertThat(again.exitValue()).as(Files.readString(log)).isZero();

      // the partial copy was continued from its size, never downloaded from byte 0 again
      assertThat(proxy.requestsFor("/exports/" + name(1) + "/" + copy))
          .extracting(S3Proxy.Request::range)
          .containsExactly("bytes=" + kept + "-");
      assertThat(Files.readString(log))
          .contains(
              copy + ": " + (copyBytes - kept) + " bytes downloaded, resumed at byte " + kept);
      S3Exports.assertSameFiles(out.resolve("exports").resolve(name(1)), src);
      try (ExportReader reader = ExportReader.open(out)) {
        assertThat(reader.currentId()).isEqualTo(name(1));
      }
    }
  }

  @Test
  void sigtermStopsAPullStalledMidDownloadAndTheNextPullResumesWhatItKept(@TempDir Path tmp)
      throws Exception {
    String uri = "s3://" + BUCKET + "/sigterm/orgs";
    Path out = tmp.resolve("out");
    try (S3Exports exports = new S3Exports(minio, uri, tmp.resolve("src"));
        S3Proxy proxy = S3Proxy.start(minio.endpoint())) {
      Path src = exports.publish(name(1), 1, 3000, 1 << 20);
      String copy = Manifest.read(src.resolve("manifest.json")).shards().get(0).name() + ".zst";
      Path part = out.resolve(".pull").resolve(name(1)).resolve(copy + ".part");
      String[] args = {
        uri,
        "--out",
        out.toString(),
        "--s3-endpoint",
        proxy.endpoint().toString(),
        "--s3-path-style"
      };

      proxy.pauseAfter(64 * 1024); // the transfer stalls inside the first shard's copy
      Path stoppedLog = tmp.resolve("stopped.log");
      Process stopped = pull(stoppedLog, args);
      awaitTrue(proxy::paused, stopped, stoppedLog);
      awaitTrue(() -> stableSize(part) > 0, stopped, stoppedLog);
      long kept = Files.size(part);
      stopped.destroy(); // SIGTERM
      assertThat(stopped.waitFor(2, TimeUnit.MINUTES)).isTrue();

      // the stop cut the stalled transfer and said what it kept
      assertThat(Files.readString(stoppedLog))
          .contains("stopped during a stalled transfer; what was downloaded stays in")
          .doesNotContain("Exception");
      assertThat(part).hasSize(kept);
      assertThat(out.resolve("CURRENT")).doesNotExist();

      proxy.resume();
      proxy.clearRequests();
      Path log = tmp.resolve("again.log");
      Process again = pull(log, args);
      assertThat(again.waitFor(3, TimeUnit.MINUTES)).isTrue();
      assertThat(again.exitValue()).as(Files.readString(log)).isZero();
      assertThat(proxy.requestsFor("/exports/" + name(1) + "/" + copy))
          .extracting(S3Proxy.Request::range)
          .containsExactly("bytes=" + kept + "-");
      S3Exports.assertSameFiles(out.resolve("exports").resolve(name(1)), src);
    }
  }

  @Test
  void reportsAMissingPointerAndBadUsageWithoutAStackTrace(@TempDir Path tmp) throws Exception {
    String endpoint = minio.endpoint().toString();
    Path log = tmp.resolve("missing.log");
    Process p =
        pull(
            log,
            "s3://" + BUCKET + "/nothing/here",
            "--out",
            tmp.resolve("out").toString(),
            "--s3-endpoint",
            endpoint,
            "--s3-path-style");
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).isEqualTo(Flatdump.EXIT_FAILED);
    assertThat(Files.readString(log))
        .contains(
            "flatdump: pull failed: nothing is published at s3://" + BUCKET + "/nothing/here/")
        .doesNotContain("Exception");

    // the upload's environment variables name the server for pull too
    System.setProperty("aws.accessKeyId", MinioServer.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", MinioServer.SECRET_KEY);
    CliRun fromEnv =
        CliRun.withEnv(
            java.util.Map.of("FLATDUMP_S3_ENDPOINT", endpoint, "FLATDUMP_S3_PATH_STYLE", "true"),
            "pull",
            "s3://" + BUCKET + "/env/none",
            "--out",
            tmp.resolve("env").toString());
    assertThat(fromEnv.exitCode()).as(fromEnv.toString()).isEqualTo(Flatdump.EXIT_FAILED);
    assertThat(fromEnv.err())
        .contains("via " + endpoint)
        .contains("nothing is published at s3://" + BUCKET + "/env/none/");

    CliRun noOut = CliRun.of("pull", "s3://" + BUCKET + "/x");
    assertThat(noOut.exitCode()).isEqualTo(Flatdump.EXIT_USAGE);
    assertThat(noOut.err()).contains("pull needs --out DIR").doesNotContain("Exception");
    CliRun badUri = CliRun.of("pull", "http://x/y", "--out", tmp.toString());
    assertThat(badUri.exitCode()).isEqualTo(Flatdump.EXIT_USAGE);
    assertThat(badUri.err()).contains("s3://bucket/prefix");
    CliRun badWatch =
        CliRun.of("pull", "s3://" + BUCKET + "/x", "--out", tmp.toString(), "--watch", "0");
    assertThat(badWatch.exitCode()).isEqualTo(Flatdump.EXIT_USAGE);
    assertThat(badWatch.err()).contains("--watch must be 0.1 to 86400 seconds");
    CliRun help = CliRun.of("pull", "--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("--watch=SECONDS").contains("--s3-endpoint=URL");
  }

  /** The file's size once it stopped growing for a moment; 0 while it is missing. */
  private static long stableSize(Path file) {
    try {
      if (!Files.exists(file)) {
        return 0;
      }
      long size = Files.size(file);
      Thread.sleep(300);
      return Files.size(file) == size ? size : 0;
    } catch (java.io.IOException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  private static void awaitTrue(BooleanSupplier condition, Process process, Path log)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (!condition.getAsBoolean()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new AssertionError(
            "the pull "
                + (process.isAlive() ? "is still running after 2 minutes" : "ended")
                + " before it got there:\n"
                + Files.readString(log));
      }
      Thread.sleep(50);
    }
  }
}
