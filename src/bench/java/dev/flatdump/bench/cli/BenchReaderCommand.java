package dev.flatdump.bench.cli;

import dev.flatdump.bench.ReaderBenchmark;
import dev.flatdump.bench.ReaderReport;
import dev.flatdump.bench.samples.Profile;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code flatdump-bench reader}: the reader library measured, by {@link ReaderBenchmark}. */
@Command(
    name = "reader",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Measures the reader: open, lookups, memory, reloads.",
      "Writes N generated organizations as a keyed export (organizations.fbs with a string key"
          + " id reading _id), as protobuf and as JSON, then in one JVM times opening the export"
          + " against decoding the others, lookups against a HashMap (and MongoDB with --uri),"
          + " the memory of child JVMs serving lookups, and reloads, alone and under lookups."
          + " The JSON rows need heap: give the JVM -Xmx (FLATDUMP_JAVA_OPTS)."
    })
public final class BenchReaderCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Option(
      names = "--profile",
      defaultValue = "realistic",
      paramLabel = "PROFILE",
      description = "article or realistic (default: ${DEFAULT-VALUE}).")
  private Profile profile;

  @Option(
      names = "--orgs",
      defaultValue = "20000",
      paramLabel = "N",
      description =
          "Organizations (default: ${DEFAULT-VALUE}, a quick try; docs/benchmarks.md uses 400000).")
  private int orgs;

  @Option(
      names = "--seed",
      defaultValue = "42",
      paramLabel = "S",
      description = "Random seed (default: ${DEFAULT-VALUE}).")
  private long seed;

  @Option(
      names = "--runs",
      defaultValue = "3",
      paramLabel = "N",
      description =
          "Measured opens and reloads per row, after a warm-up (default: ${DEFAULT-VALUE}).")
  private int runs;

  @Option(
      names = "--lookups",
      defaultValue = "200000",
      paramLabel = "N",
      description =
          "Timed lookups per row, after as many unmeasured (default: ${DEFAULT-VALUE}; MongoDB at"
              + " most 20,000).")
  private int lookups;

  @Option(
      names = "--threads",
      defaultValue = "2",
      paramLabel = "N",
      description = "Lookup threads while reloads happen (default: ${DEFAULT-VALUE}).")
  private int threads;

  @Option(
      names = "--seconds",
      defaultValue = "5",
      paramLabel = "S",
      description = "Length of each row with lookup threads (default: ${DEFAULT-VALUE}).")
  private double seconds;

  @Option(
      names = "--uri",
      paramLabel = "URI",
      description =
          "MongoDB holding the same orgs (flatdump-bench generate with the same --profile, --orgs"
              + " and --seed), for a find({_id}) row.")
  private String uri;

  @Option(names = "--db", defaultValue = "bench", paramLabel = "DB", description = "With --uri.")
  private String db;

  @Option(
      names = "--collection",
      defaultValue = "orgs",
      paramLabel = "NAME",
      description = "With --uri (default: ${DEFAULT-VALUE}).")
  private String collection;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "Write the files into DIR (new or empty) and keep them (default: a temporary directory).")
  private Path out;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    ReaderReport report =
        ReaderBenchmark.run(
            new ReaderBenchmark.Settings(
                profile,
                orgs,
                seed,
                runs,
                lookups,
                threads,
                Math.round(seconds * 1000),
                uri,
                db,
                collection,
                out),
            line -> {
              err.println("bench reader: " + line);
              err.flush();
            });
    PrintWriter outw = spec.commandLine().getOut();
    outw.print(report.toMarkdown());
    outw.flush();
    return 0;
  }
}
