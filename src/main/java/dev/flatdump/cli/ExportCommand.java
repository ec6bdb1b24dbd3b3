package dev.flatdump.cli;

import com.mongodb.client.MongoClient;
import dev.flatdump.encode.DedupOptions;
import dev.flatdump.job.ExportLauncher;
import dev.flatdump.job.ExportOptions;
import dev.flatdump.source.ConnectionStrings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump export}: runs {@code organizationsExportJob} once and prints the report summary.
 * Exit codes: 0 completed (or already complete for this run date), 1 the job failed, 2 bad usage.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Streams a MongoDB collection into de-duplicated FlatBuffers artifacts in DIR:",
      "organizations.fb (or numbered shards), .gz/.zst copies, rejects.jsonl,",
      "report.json/.md/.html and manifest.json (published last).",
      "Running the same command again after a failure resumes it from its last checkpoint."
    })
public final class ExportCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private MongoTarget mongo;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "DIR",
      description = "Output directory (created if missing).")
  private Path out;

  @Option(
      names = "--query",
      defaultValue = "{}",
      paramLabel = "JSON",
      description = "Filter, as MongoDB Extended JSON (default: ${DEFAULT-VALUE}).")
  private String query;

  @Option(
      names = "--compress",
      defaultValue = "gzip,zstd",
      paramLabel = "LIST",
      description = "gzip, zstd, both, or none (default: ${DEFAULT-VALUE}).")
  private String compress;

  @Option(
      names = "--gzip-level",
      defaultValue = "6",
      paramLabel = "1-9",
      description = "gzip level (default: ${DEFAULT-VALUE}).")
  private int gzipLevel;

  @Option(
      names = "--zstd-level",
      defaultValue = "9",
      paramLabel = "1-22",
      description = "zstd level (default: ${DEFAULT-VALUE}).")
  private int zstdLevel;

  @Option(
      names = "--dedup",
      defaultValue = "strings,attributes,vectors",
      paramLabel = "LIST",
      description =
          "De-dup kinds: strings, attributes, vectors, or none (default: ${DEFAULT-VALUE}).")
  private String dedup;

  @Option(
      names = "--compare",
      defaultValue = "none",
      paramLabel = "LIST",
      description =
          "Baselines measured for the report: plain, strings, protobuf, json, or none (default: ${DEFAULT-VALUE}).")
  private String compare;

  @Option(
      names = "--shard-size",
      defaultValue = "1GiB",
      paramLabel = "BYTES",
      description =
          "Start a new shard once a buffer holds this much; 1KiB..1GiB (default: ${DEFAULT-VALUE}).")
  private String shardSize;

  @Option(
      names = "--max-rejects",
      defaultValue = "-1",
      paramLabel = "N",
      description =
          "Fail the job once more than N documents are rejected; -1 for no limit (default: ${DEFAULT-VALUE}).")
  private long maxRejects;

  @Option(
      names = "--batch-size",
      defaultValue = "1000",
      paramLabel = "N",
      description = "MongoDB cursor batch size (default: ${DEFAULT-VALUE}).")
  private int batchSize;

  @Option(
      names = "--run-date",
      paramLabel = "YYYY-MM-DD",
      description = "The run date that identifies this job instance (default: today).")
  private LocalDate runDate;

  @Option(
      names = "--new-run",
      description = "Start a fresh job instance even if this run date already completed or failed.")
  private boolean newRun;

  @Option(
      names = "--job-repository",
      paramLabel = "JDBC_URL",
      description = "Job repository (default: an H2 file database in DIR/.flatdump).")
  private String jobRepository;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter outw = spec.commandLine().getOut();
    ExportOptions options =
        new ExportOptions(
            ConnectionStrings.hosts(mongo.uri),
            mongo.db,
            mongo.collection,
            out,
            query,
            ExportOptions.parseList(compress),
            gzipLevel,
            zstdLevel,
            DedupOptions.parse(dedup),
            ExportOptions.parseList(compare),
            ByteSizes.parse(shardSize),
            maxRejects,
            batchSize,
            runDate == null ? LocalDate.now() : runDate,
            newRun ? System.currentTimeMillis() : 0L);
    String repo =
        jobRepository != null
            ? jobRepository
            : ExportLauncher.defaultJobRepositoryUrl(options.out());
    err.println(
        "flatdump: exporting "
            + mongo.namespace()
            + " from "
            + ConnectionStrings.mask(mongo.uri)
            + " into "
            + options.out());
    err.flush();
    try (MongoClient client = mongo.connect()) {
      ExportLauncher.Result result =
          ExportLauncher.run(
              options,
              client,
              repo,
              line -> {
                err.println(line);
                err.flush();
              });
      return switch (result.outcome()) {
        case ALREADY_COMPLETE -> {
          err.println(
              "flatdump: the export for run date "
                  + options.runDate()
                  + " already completed; nothing to do (use --new-run to export again)");
          yield 0;
        }
        case COMPLETED -> {
          if (result.restarted()) {
            err.println("flatdump: resumed the failed run and completed it");
          }
          outw.println(ExportSummary.of(result.execution()));
          outw.flush();
          yield 0;
        }
        case FAILED -> {
          err.println("flatdump: export failed: " + ExportSummary.failure(result.execution()));
          err.println("flatdump: run the same command again to resume from the last checkpoint");
          yield Flatdump.EXIT_FAILED;
        }
      };
    }
  }
}
