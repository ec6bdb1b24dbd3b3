package dev.flatdump.bench.cli;

import com.mongodb.client.MongoClient;
import dev.flatdump.bench.ColumnarBenchmark;
import dev.flatdump.bench.ColumnarReport;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.cli.ByteSizes;
import dev.flatdump.cli.MongoTarget;
import dev.flatdump.source.ConnectionStrings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump-bench columnar}: the columnar copy's cost in the export and its rebuild's speed
 * against zstd -d, by {@link ColumnarBenchmark}.
 */
@Command(
    name = "columnar",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Times making the columnar copy and rebuilding a shard from it.",
      "For each profile: generates the organizations into DB.PROFILE_ORGS unless they are there,"
          + " exports them with --compress zstd,columnar (exportStep and compressStep from the"
          + " job), then on the export's shards times the copy as compressStep makes it (write"
          + " and check rebuild) and the write alone against exportStep, and the rebuild (and"
          + " the SHA-256 it checks) against zstd -d of the shard's zstd copy, in alternating runs; with"
          + " the two targets, met or missed in this run."
    })
public final class BenchColumnarCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Option(
      names = "--uri",
      required = true,
      paramLabel = "URI",
      description = "MongoDB connection string, e.g. $(bin/mongod-local uri).")
  private String uri;

  @Option(
      names = "--db",
      defaultValue = "bench",
      paramLabel = "DB",
      description = "Database of the PROFILE_ORGS collections (default: ${DEFAULT-VALUE}).")
  private String db;

  @Option(
      names = "--profiles",
      defaultValue = "realistic,article",
      split = ",",
      paramLabel = "LIST",
      description = "Profiles, one table each (default: ${DEFAULT-VALUE}).")
  private List<Profile> profiles;

  @Option(
      names = "--orgs",
      defaultValue = "100000",
      paramLabel = "N",
      description = "Organizations per profile (default: ${DEFAULT-VALUE}).")
  private int orgs;

  @Option(
      names = "--seed",
      defaultValue = "42",
      paramLabel = "S",
      description = "Random seed (default: ${DEFAULT-VALUE}).")
  private long seed;

  @Option(
      names = "--exports",
      defaultValue = "3",
      paramLabel = "N",
      description = "Measured exports per profile, after a warm-up (default: ${DEFAULT-VALUE}).")
  private int exports;

  @Option(
      names = "--runs",
      defaultValue = "5",
      paramLabel = "N",
      description = "Measured runs of every row, after the warm-up (default: ${DEFAULT-VALUE}).")
  private int runs;

  @Option(
      names = "--warmup",
      defaultValue = "2",
      paramLabel = "N",
      description = "Unmeasured runs of every row first (default: ${DEFAULT-VALUE}).")
  private int warmups;

  @Option(
      names = "--shard-size",
      defaultValue = "1GiB",
      paramLabel = "BYTES",
      description = "The exports' shard size (default: ${DEFAULT-VALUE}, one shard).")
  private String shardSize;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "Export into DIR and keep each profile's last export (default: a temporary directory).")
  private Path out;

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    Path dir = out != null ? out : Files.createTempDirectory("flatdump-bench-columnar");
    err.println("bench columnar: " + db + " on " + ConnectionStrings.mask(uri));
    try (MongoClient client = MongoTarget.connect(uri)) {
      ColumnarReport report =
          ColumnarBenchmark.run(
              client,
              new ColumnarBenchmark.Settings(
                  profiles,
                  orgs,
                  seed,
                  ConnectionStrings.hosts(uri),
                  db,
                  exports,
                  runs,
                  warmups,
                  1000,
                  ByteSizes.parse(shardSize),
                  dir,
                  out != null),
              line -> {
                err.println("bench columnar: " + line);
                err.flush();
              });
      PrintWriter outw = spec.commandLine().getOut();
      outw.print(report.toMarkdown());
      outw.flush();
      return 0;
    } finally {
      if (out == null) {
        Files.deleteIfExists(dir);
      }
    }
  }
}
