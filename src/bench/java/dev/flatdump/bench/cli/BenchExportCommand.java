package dev.flatdump.bench.cli;

import com.mongodb.client.MongoClient;
import dev.flatdump.bench.ExportBenchmark;
import dev.flatdump.bench.ExportReport;
import dev.flatdump.cli.ByteSizes;
import dev.flatdump.cli.MongoTarget;
import dev.flatdump.job.ExportOptions;
import dev.flatdump.source.ConnectionStrings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump-bench export}: the export end to end against a raw cursor scan, a driver {@code
 * Document} scan and flatdump's cursor and engine alone, by {@link ExportBenchmark}. Exit 1 if a
 * row saw another number of documents than the raw scan.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Times the export of a collection against scans of it.",
      "Times the export (all de-dup on, no compressed copies unless --compress) against scans of"
          + " the same collection: raw"
          + " BSON (the floor), driver Documents, and flatdump's cursor and engine alone (nothing"
          + " written); with docs/s, heap"
          + " and peak RSS for each; the export follows the bundled organizations.fbs; then the"
          + " export's two speed targets (0.5x the raw scan's docs/s, 3x the Document scan's),"
          + " met or missed in this run."
    })
public final class BenchExportCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private MongoTarget mongo;

  @Option(
      names = "--runs",
      defaultValue = "3",
      paramLabel = "N",
      description = "Measured runs, after the warm-up runs (default: ${DEFAULT-VALUE}).")
  private int runs;

  @Option(
      names = "--warmup",
      defaultValue = "3",
      paramLabel = "N",
      description =
          "Unmeasured runs of every row first, while the JIT compiles (default:"
              + " ${DEFAULT-VALUE}).")
  private int warmups;

  @Option(
      names = "--batch-size",
      defaultValue = "1000",
      paramLabel = "N",
      description = "Cursor batch size for every row (default: ${DEFAULT-VALUE}).")
  private int batchSize;

  @Option(
      names = "--shard-size",
      defaultValue = "128MiB",
      paramLabel = "BYTES",
      description =
          "The export's shard size, as for export: 1KiB..1GiB (default: ${DEFAULT-VALUE}).")
  private String shardSize;

  @Option(
      names = "--compress",
      defaultValue = "none",
      paramLabel = "LIST",
      description =
          "The export's compressed copies, as for export: gzip, zstd, both, or none (default:"
              + " ${DEFAULT-VALUE}, so that the ratios measure reading and encoding).")
  private String compress;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Export into DIR and keep the exports (default: a temporary directory).")
  private Path out;

  @Override
  public Integer call() throws IOException {
    if (mongo.uri() == null || mongo.db() == null || mongo.collection() == null) {
      throw new IllegalArgumentException("--uri, --db and --collection are required");
    }
    List<String> compressions = ExportOptions.parseCompressions(compress);
    PrintWriter err = spec.commandLine().getErr();
    Path dir = out != null ? out : Files.createTempDirectory("flatdump-bench-export");
    err.println(
        "bench export: " + mongo.namespace() + " from " + ConnectionStrings.mask(mongo.uri()));
    try (MongoClient client = mongo.connect()) {
      ExportReport report =
          ExportBenchmark.run(
              client,
              new ExportBenchmark.Settings(
                  ConnectionStrings.hosts(mongo.uri()),
                  mongo.db(),
                  mongo.collection(),
                  runs,
                  warmups,
                  batchSize,
                  ByteSizes.parse(shardSize),
                  dir,
                  out != null,
                  compressions),
              line -> {
                err.println("bench export: " + line);
                err.flush();
              });
      PrintWriter outw = spec.commandLine().getOut();
      outw.print(report.toMarkdown());
      outw.flush();
      return BenchCodecsCommand.failIfAny(report.inconsistencies(), err);
    } finally {
      if (out == null) {
        Files.deleteIfExists(dir);
      }
    }
  }
}
