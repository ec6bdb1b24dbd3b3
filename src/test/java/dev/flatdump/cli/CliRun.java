package dev.flatdump.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the flatdump command line in-process and captures what it printed. */
record CliRun(int exitCode, String out, String err) {

  static CliRun of(String... args) {
    return withEnv(java.util.Map.of(), args);
  }

  /** Runs with {@code env} as the whole environment that options may come from. */
  static CliRun withEnv(java.util.Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = Flatdump.commandLine(args, env);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- out\n" + out + "\n--- err\n" + err;
  }
}
