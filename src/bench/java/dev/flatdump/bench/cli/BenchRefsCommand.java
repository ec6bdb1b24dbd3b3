package dev.flatdump.bench.cli;

import dev.flatdump.artifact.compress.ZstdCompression;
import dev.flatdump.bench.ReferenceBenchmark;
import dev.flatdump.cli.ArtifactPath;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump-bench refs}: what an artifact's position-dependent references cost once
 * compressed, by {@link ReferenceBenchmark}.
 */
@Command(
    name = "refs",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Measures what an artifact's offsets cost once compressed.",
      "Every offset in a FlatBuffer is a distance from where it is stored, so a shared table is a"
          + " different number in each place that points to it. This compresses the artifact as"
          + " it is, then with each kind of offset set to zero, and prints the difference: sizes"
          + " only, nothing is written."
    })
public final class BenchRefsCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private ArtifactPath artifactPath;

  @Option(
      names = "--zstd-level",
      defaultValue = "" + ZstdCompression.DEFAULT_LEVEL,
      paramLabel = "N",
      description = "zstd level, as the export's option (default: ${DEFAULT-VALUE}).")
  private int level;

  @Override
  public Integer call() {
    Path path = artifactPath.existing();
    PrintWriter err = spec.commandLine().getErr();
    ReferenceBenchmark.Report report =
        ReferenceBenchmark.run(
            path,
            new ZstdCompression(level),
            line -> {
              err.println("bench refs: " + line);
              err.flush();
            });
    PrintWriter out = spec.commandLine().getOut();
    out.print(report.toMarkdown());
    out.flush();
    return 0;
  }
}
