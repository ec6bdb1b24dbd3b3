package dev.flatdump.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump bench}: groups the benchmarks; the work is in {@code dev.flatdump.bench}. Without
 * a subcommand it prints its usage and exits 2.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Benchmarks: Markdown tables on stdout, progress on stderr.",
      "Timings are noisy on a shared machine: compare rows within one run."
    },
    subcommands = {
      BenchCodecsCommand.class,
      BenchCpuCommand.class,
      BenchExportCommand.class,
      BenchRefsCommand.class
    })
public final class BenchCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Override
  public Integer call() {
    var err = spec.commandLine().getErr();
    err.println("flatdump bench: name a benchmark: codecs, cpu, export or refs");
    spec.commandLine().usage(err);
    return Flatdump.EXIT_USAGE;
  }
}
