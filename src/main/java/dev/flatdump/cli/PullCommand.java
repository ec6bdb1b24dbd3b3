package dev.flatdump.cli;

import dev.flatdump.job.ExportOptions;
import dev.flatdump.reader.s3.ExportPuller;
import dev.flatdump.reader.s3.PullException;
import dev.flatdump.reader.s3.PullSettings;
import dev.flatdump.reader.s3.S3Prefix;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump pull}: pulls the export that {@code s3://bucket/prefix/CURRENT} names into a
 * local output directory through {@link ExportPuller}, once or, with {@code --watch}, at every
 * interval until stopped (SIGTERM, Ctrl-C: a shutdown hook stops the pull, which keeps what it
 * downloaded). Exit codes: 0 pulled (or already current), 1 the pull failed, 2 bad usage; stopped
 * by a signal, the JVM ends with the signal's code (143 after SIGTERM).
 */
@Command(
    name = "pull",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Pulls the current export from S3 into a local output directory.",
      "Reads S3_URI/CURRENT (as export --upload writes it), downloads every file of the export it"
          + " names from S3_URI/exports/NAME/ (each data shard through its .zst copy where the"
          + " manifest lists one, decompressed), checks each against the manifest's size and"
          + " SHA-256, and publishes the export as a local export publishes: DIR/exports/NAME, then"
          + " DIR/current and DIR/CURRENT switched to it, exports beyond --keep removed. A reader"
          + " of DIR (flatdump-reader's ExportReader) follows it.",
      "Downloads go to DIR/.pull/NAME/ first; an interrupted pull, run again, resumes each file"
          + " from where it stopped. A corrupt object is deleted and downloaded again (3 attempts),"
          + " then the pull fails naming it; should the export disappear meanwhile, the pull"
          + " starts again from CURRENT. DIR's current export changes only when a whole export is"
          + " in place.",
      "Credentials come from the AWS SDK's default chain (AWS_ACCESS_KEY_ID, ...)."
    })
public final class PullCommand implements Callable<Integer> {

  /**
   * How long a stop (SIGTERM, Ctrl-C) waits for the pull to notice it. A transfer that flows stops
   * at its next buffer; one that stalls is cut by the JVM's exit after this wait, which loses
   * nothing either: every byte written is in its part file, and every step is safe to interrupt.
   */
  private static final Duration STOP_WAIT = Duration.ofSeconds(5);

  @Spec private CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "S3_URI",
      description = "Where the exports are published: s3://bucket/prefix, as given to --upload.")
  private String source;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Local output directory, created if missing (required).")
  private Path out;

  @Option(
      names = "--watch",
      paramLabel = "SECONDS",
      description =
          "Keep running: read CURRENT every SECONDS (0.1 to 86400, decimals allowed) and pull each"
              + " new export, until stopped (SIGTERM or Ctrl-C). A failed pull is reported and"
              + " tried again later, after a wait that doubles with each failure in a row (up to"
              + " an hour); the local current export stays meanwhile.")
  private String watch;

  @Option(
      names = "--keep",
      defaultValue = "" + ExportOptions.DEFAULT_KEEP,
      paramLabel = "N",
      description =
          "Exports to keep in DIR/exports, the new one included; the current one is never"
              + " removed (default: ${DEFAULT-VALUE}).")
  private int keep;

  @Option(
      names = "--s3-endpoint",
      paramLabel = "URL",
      description = "An S3-compatible server instead of AWS, e.g. http://minio:9000.")
  private String s3Endpoint;

  @Option(
      names = "--s3-region",
      paramLabel = "REGION",
      description = "The region (default: the SDK's chain; us-east-1 with --s3-endpoint).")
  private String s3Region;

  @Option(
      names = "--s3-path-style",
      description = "Path-style addressing (http://host/bucket/key), as MinIO needs.")
  private boolean s3PathStyle;

  @Override
  public Integer call() {
    if (out == null) {
      throw new IllegalArgumentException("pull needs --out DIR");
    }
    S3Prefix prefix = S3Prefix.parse(source);
    PullSettings settings = settings();
    Duration interval = watch == null ? null : parseSeconds(watch);
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter stdout = spec.commandLine().getOut();
    Consumer<String> progress =
        line -> {
          synchronized (err) {
            err.println("flatdump pull: " + line);
            err.flush();
          }
        };
    progress.accept(
        prefix
            + " into "
            + out
            + (s3Endpoint == null ? "" : " via " + s3Endpoint)
            + (interval == null ? "" : ", every " + watch + " s until stopped"));
    CountDownLatch done = new CountDownLatch(1);
    try (ExportPuller puller = ExportPuller.open(prefix, out, settings, progress)) {
      Thread hook =
          new Thread(
              () -> {
                puller.stop();
                try {
                  if (!done.await(STOP_WAIT.toSeconds(), TimeUnit.SECONDS)) {
                    progress.accept("stopped during a stalled transfer; " + kept());
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "flatdump-pull-stop");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        if (interval == null) {
          print(stdout, puller.pull());
          return 0;
        }
        puller.watch(
            interval,
            p -> print(stdout, p),
            e ->
                progress.accept(
                    "failed: "
                        + e.getMessage()
                        + "; trying again in "
                        + watch
                        + " s, the local current export stays"));
        progress.accept("stopped");
        return 0;
      } finally {
        done.countDown();
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          // the hook is running: it returns now that done is counted down
        }
      }
    } catch (PullException e) {
      if (e.stopped()) {
        progress.accept("stopped before the export was complete; " + kept());
      } else {
        err.println("flatdump: pull failed: " + e.getMessage());
        err.flush();
      }
      return Flatdump.EXIT_FAILED;
    }
  }

  private String kept() {
    return "what was downloaded stays in " + out.resolve(".pull") + " and the next pull resumes it";
  }

  private static void print(PrintWriter stdout, ExportPuller.Pulled p) {
    stdout.println(
        (p.published() ? "pulled " : "already current: ")
            + p.exportName()
            + " in "
            + p.directory()
            + (p.published() ? " (" + p.bytesDownloaded() + " bytes downloaded)" : ""));
    stdout.flush();
  }

  private PullSettings settings() {
    if (keep < 1) {
      throw new IllegalArgumentException("--keep must be >= 1, got " + keep);
    }
    PullSettings s = PullSettings.defaults().withKeep(keep).withPathStyleAccess(s3PathStyle);
    if (s3Endpoint != null && !s3Endpoint.isBlank()) {
      try {
        s = s.withEndpointOverride(URI.create(s3Endpoint.strip()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--s3-endpoint must be an http or https URL such as http://minio:9000, got '"
                + s3Endpoint
                + "'",
            e);
      }
    }
    if (s3Region != null && !s3Region.isBlank()) {
      try {
        s = s.withRegion(s3Region);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--s3-region must be a region name such as eu-west-1, got '" + s3Region + "'", e);
      }
    }
    return s;
  }

  /** {@code --watch}: seconds, decimals allowed, at least 0.1. */
  static Duration parseSeconds(String text) {
    BigDecimal seconds;
    try {
      seconds = new BigDecimal(text.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--watch must be a number of seconds, got '" + text + "'");
    }
    if (seconds.compareTo(new BigDecimal("0.1")) < 0
        || seconds.compareTo(BigDecimal.valueOf(86_400)) > 0) {
      throw new IllegalArgumentException(
          "--watch must be 0.1 to 86400 seconds, got '" + text + "'");
    }
    return Duration.ofMillis(seconds.movePointRight(3).longValue());
  }
}
