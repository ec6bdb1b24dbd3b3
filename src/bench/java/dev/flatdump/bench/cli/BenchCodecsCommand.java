package dev.flatdump.bench.cli;

import dev.flatdump.bench.CodecBenchmark;
import dev.flatdump.bench.CodecReport;
import dev.flatdump.cli.Flatdump;
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
 * {@code flatdump-bench codecs}: the articles' table (JSON, protobuf, FlatBuffers with and without
 * de-dup) from generated records, by {@link CodecBenchmark}. Exit 1 if two rows read back different
 * data.
 */
@Command(
    name = "codecs",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Writes and reads generated organizations in each format.",
      "Writes N generated organizations as JSON (Jackson), protobuf and FlatBuffers (plain,"
          + " string de-dup, naive and flatdump attribute de-dup) and reads them back, in one"
          + " JVM: write time, file size, gzip and zstd size, heap while writing, read time"
          + " (some fields, all fields)."
    })
public final class BenchCodecsCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private GeneratedOrgs generated;

  @Option(
      names = "--runs",
      defaultValue = "3",
      paramLabel = "N",
      description = "Measured runs per figure, after one warm-up run (default: ${DEFAULT-VALUE}).")
  private int runs;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Write the files into DIR and keep them (default: a temporary directory).")
  private Path out;

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    Path dir = out != null ? out : Files.createTempDirectory("flatdump-bench-codecs");
    try {
      CodecReport report =
          CodecBenchmark.run(
              new CodecBenchmark.Settings(
                  generated.profile, generated.orgs, generated.seed, runs, dir, out != null),
              line -> {
                err.println("bench codecs: " + line);
                err.flush();
              });
      PrintWriter outw = spec.commandLine().getOut();
      outw.print(report.toMarkdown());
      outw.flush();
      return failIfAny(report.inconsistencies(), err);
    } finally {
      if (out == null) {
        Files.deleteIfExists(dir);
      }
    }
  }

  static int failIfAny(List<String> problems, PrintWriter err) {
    for (String problem : problems) {
      err.println("flatdump: " + problem);
    }
    err.flush();
    return problems.isEmpty() ? 0 : Flatdump.EXIT_FAILED;
  }
}
