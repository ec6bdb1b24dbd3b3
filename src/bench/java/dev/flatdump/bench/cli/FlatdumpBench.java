package dev.flatdump.bench.cli;

import dev.flatdump.cli.Flatdump;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump-bench}: the benchmarks, in a jar of their own ({@code target/flatdump-bench.jar},
 * run by {@code bin/flatdump-bench}) that the production jar does not carry. The work is in {@code
 * dev.flatdump.bench}. Without a subcommand it prints its usage and exits 2; options come from the
 * same places as {@code flatdump}'s.
 */
@Command(
    name = "flatdump-bench",
    mixinStandardHelpOptions = true,
    versionProvider = Flatdump.Version.class,
    description = {
      "Benchmarks: Markdown tables on stdout, progress on stderr; and the generator of their"
          + " sample organizations.",
      "Timings are noisy on a shared machine: compare rows within one run."
    },
    subcommands = {
      picocli.CommandLine.HelpCommand.class,
      BenchCodecsCommand.class,
      BenchColumnarCommand.class,
      BenchCpuCommand.class,
      BenchExportCommand.class,
      BenchGenerateCommand.class,
      BenchReaderCommand.class,
      BenchReaderChildCommand.class,
      BenchRefsCommand.class
    })
public final class FlatdumpBench implements Callable<Integer> {

  @Spec private CommandSpec spec;

  public static void main(String[] args) {
    System.exit(Flatdump.run(new FlatdumpBench(), args));
  }

  @Override
  public Integer call() {
    var err = spec.commandLine().getErr();
    err.println(
        "flatdump-bench: name a benchmark (codecs, columnar, cpu, export, reader, refs) or generate");
    spec.commandLine().usage(err);
    return Flatdump.EXIT_USAGE;
  }
}
