package dev.flatdump.bench.cli;

import dev.flatdump.bench.ReaderChild;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump-bench reader-child}, hidden: the process {@code reader} starts to measure the
 * memory of serving lookups ({@link ReaderChild}); prints one line of figures.
 */
@Command(name = "reader-child", hidden = true)
public final class BenchReaderChildCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Option(names = "--mode", required = true)
  private ReaderChild.Mode mode;

  @Option(names = "--path", required = true)
  private Path path;

  @Option(names = "--keys", required = true)
  private Path keys;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    out.println(ReaderChild.serve(mode, path, keys));
    out.flush();
    return 0;
  }
}
