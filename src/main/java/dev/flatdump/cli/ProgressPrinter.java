package dev.flatdump.cli;

import java.io.PrintWriter;
import java.util.function.Consumer;

/**
 * Prints progress lines: on a terminal as one live line rewritten in place, elsewhere (logs, cron
 * mail, Kubernetes) as one line each. Thread-safe.
 */
final class ProgressPrinter implements Consumer<String> {

  private final PrintWriter err;
  private final boolean live;
  private String livePrefix;

  ProgressPrinter(PrintWriter err, boolean live) {
    this.err = err;
    this.live = live;
  }

  /**
   * True when stdin and stdout are a terminal (the JVM's own test), so stderr most likely is too.
   */
  static boolean onTerminal() {
    return System.console() != null;
  }

  @Override
  public synchronized void accept(String line) {
    if (!live) {
      err.println(line);
    } else {
      String prefix = line.contains(":") ? line.substring(0, line.indexOf(':')) : line;
      if (livePrefix != null && !livePrefix.equals(prefix)) {
        err.println();
      }
      err.print("\r" + line + "\u001b[K");
      livePrefix = prefix;
    }
    err.flush();
  }

  /** Ends the live line, if one is showing. */
  synchronized void finish() {
    if (livePrefix != null) {
      err.println();
      err.flush();
      livePrefix = null;
    }
  }
}
