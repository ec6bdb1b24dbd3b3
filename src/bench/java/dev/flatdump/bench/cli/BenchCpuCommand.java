package dev.flatdump.bench.cli;

import dev.flatdump.bench.CpuBenchmark;
import dev.flatdump.bench.CpuReport;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump-bench cpu}: the export's CPU work per document without MongoDB, by {@link
 * CpuBenchmark}. Exit 1 if the rows disagree on what they wrote.
 */
@Command(
    name = "cpu",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Times decoding and encoding in CPU time, without MongoDB.",
      "Decodes N generated organizations from BSON in memory (driver Document codec, OrgCodec)"
          + " and encodes them as the export does (its engine on organizations.fbs, with every"
          + " de-dup and with strings only), in this thread's CPU time: no MongoDB, no cursor, so"
          + " it moves less with the machine's load than bench export."
    })
public final class BenchCpuCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private GeneratedOrgs generated;

  @Option(
      names = "--runs",
      defaultValue = "5",
      paramLabel = "N",
      description = "Measured runs per row, after one warm-up run (default: ${DEFAULT-VALUE}).")
  private int runs;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    CpuReport report =
        CpuBenchmark.run(
            new CpuBenchmark.Settings(generated.profile, generated.orgs, generated.seed, runs),
            line -> {
              err.println("bench cpu: " + line);
              err.flush();
            });
    PrintWriter out = spec.commandLine().getOut();
    out.print(report.toMarkdown());
    out.flush();
    return BenchCodecsCommand.failIfAny(report.inconsistencies(), err);
  }
}
