package dev.flatdump.testing;

import dev.flatdump.bench.cli.FlatdumpBench;
import dev.flatdump.cli.Flatdump;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import picocli.CommandLine;

/**
 * Runs the {@code flatdump-bench} command line in-process and captures what it printed. It lives
 * outside the benchmarks' package so that their jar does not take it.
 */
public record BenchRun(int exitCode, String out, String err) {

  public static BenchRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = Flatdump.commandLine(new FlatdumpBench(), args, Map.of());
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new BenchRun(code, out.toString(), err.toString());
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- out\n" + out + "\n--- err\n" + err;
  }
}
