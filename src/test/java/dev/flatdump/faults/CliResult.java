package dev.flatdump.faults;

import dev.flatdump.cli.Flatdump;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * How one flatdump command line ended, in-process or as a {@code java -jar} child.
 *
 * @param exitCode 0 success, 1 the work failed, 2 bad usage, 3 an export published with rejects
 * @param out what it printed to stdout
 * @param err what it printed to stderr (a child's log has both in {@code out} and {@code err})
 */
record CliResult(int exitCode, String out, String err) {

  /**
   * Runs {@code flatdump args...} in this JVM, capturing {@link System#out} and {@link System#err}
   * while it runs. Synchronized, since the streams are global.
   */
  static synchronized CliResult inProcess(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      code = Flatdump.run(args);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
    return new CliResult(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- out\n" + out + "\n--- err\n" + err;
  }
}
