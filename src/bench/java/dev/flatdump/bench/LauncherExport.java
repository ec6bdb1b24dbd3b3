package dev.flatdump.bench;

import com.mongodb.client.MongoClient;
import dev.flatdump.FlatdumpException;
import dev.flatdump.artifact.compress.GzipCompression;
import dev.flatdump.artifact.compress.ZstdCompression;
import dev.flatdump.encode.DedupOptions;
import dev.flatdump.job.ExportLauncher;
import dev.flatdump.job.ExportOptions;
import dev.flatdump.job.RejectLimit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.step.StepExecution;

/**
 * One real export for {@link ExportBenchmark}: {@link ExportLauncher#run} (what {@code flatdump
 * export} runs) into an emptied directory, with the settings' compressed copies (gzip 6, zstd 3,
 * the export's defaults; none by default), all de-dup on, no baselines, shards of the settings'
 * size, with the default job repository in that directory. Stateless.
 */
final class LauncherExport {

  /**
   * @param docs documents the export step read
   * @param artifactBytes bytes of the {@code .fb} files it published
   * @param steps each step's name and duration, in order
   * @param stepNanos each step's duration in nanoseconds, by its name
   */
  record Outcome(
      long docs, long artifactBytes, String steps, java.util.Map<String, Long> stepNanos) {}

  private LauncherExport() {}

  /**
   * Exports into {@code out}, which the caller has emptied ({@link #delete}) outside the time it
   * measures, and leaves the export there, of the bundled organizations.fbs.
   *
   * @throws FlatdumpException if the export does not complete
   */
  static Outcome run(MongoClient client, ExportBenchmark.Settings settings, Path out)
      throws IOException {
    var options =
        new ExportOptions(
            settings.source(),
            settings.database(),
            settings.collection(),
            out,
            "{}",
            settings.compress(),
            GzipCompression.DEFAULT_LEVEL,
            ZstdCompression.DEFAULT_LEVEL,
            DedupOptions.ALL,
            List.of(),
            settings.shardSize(),
            RejectLimit.NONE,
            settings.batchSize(),
            LocalDate.now(),
            0L,
            ExportOptions.DEFAULT_KEEP,
            false,
            null,
            false,
            1);
    ExportLauncher.Result result =
        ExportLauncher.run(options, client, ExportLauncher.defaultJobRepositoryUrl(out), l -> {});
    if (result.outcome() != ExportLauncher.Outcome.COMPLETED) {
      throw new FlatdumpException(
          "the benchmark's export into " + out + " ended " + result.outcome());
    }
    JobExecution execution = result.execution();
    long read = 0;
    for (StepExecution step : execution.getStepExecutions()) {
      if (step.getStepName().equals("exportStep")) {
        read = step.getReadCount();
      }
    }
    var stepNanos = new java.util.LinkedHashMap<String, Long>();
    for (StepExecution step : execution.getStepExecutions()) {
      stepNanos.put(step.getStepName(), nanos(step));
    }
    return new Outcome(read, artifactBytes(out), steps(execution), stepNanos);
  }

  /** A step's duration from its start and end times; 0 if either is missing. */
  private static long nanos(StepExecution s) {
    return s.getEndTime() == null || s.getStartTime() == null
        ? 0
        : Duration.between(s.getStartTime(), s.getEndTime()).toNanos();
  }

  /** {@code exportStep 1,200 ms, compressStep 3.10 ms, reportStep 210 ms}. */
  private static String steps(JobExecution execution) {
    return execution.getStepExecutions().stream()
        .sorted(Comparator.comparing(StepExecution::getStartTime))
        .map(s -> s.getStepName() + " " + Figures.millis(nanos(s)))
        .collect(Collectors.joining(", "));
  }

  private static long artifactBytes(Path out) throws IOException {
    try (Stream<Path> files = Files.list(dev.flatdump.artifact.OutputLayout.resolve(out))) {
      long total = 0;
      for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".fb")).toList()) {
        total += Files.size(f);
      }
      return total;
    }
  }

  /** Deletes {@code dir} and everything in it, if it exists. */
  static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
