package dev.flatdump.bench.cli;

import dev.flatdump.bench.ReaderChild;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code flatdump-bench reader-child}, hidden: the process {@code reader} starts to measure the
 * memory of serving lookups ({@link ReaderChild}); prints one line of figures.
 */
@Command(name = "reader-child", hidden = true)
public final class BenchReaderChildCommand implements Callable<Integer> {

  @Option(names = "--mode", required = true)
  private ReaderChild.Mode mode;

  @Option(names = "--path", required = true)
  private Path path;

  @Option(names = "--keys", required = true)
  private Path keys;

  @Override
  public Integer call() throws Exception {
    ReaderChild.serve(mode, path, keys, System.out);
    return 0;
  }
}
