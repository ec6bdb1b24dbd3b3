package dev.flatdump.job;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Counts documents through a step and, at most every {@code interval}, prints a line with the count
 * against the estimated total, the rate and the time left. Cheap enough to call once per document.
 * Not thread-safe: one step thread calls it.
 */
final class Progress {

  private final String step;
  private final long estimatedTotal;
  private final Duration interval;
  private final Consumer<String> sink;
  private final LongSupplier nanoClock;
  private long done;
  private long startDone;
  private long startNanos;
  private long lastPrintNanos;

  Progress(
      String step,
      long estimatedTotal,
      Duration interval,
      Consumer<String> sink,
      LongSupplier nanoClock) {
    this.step = step;
    this.estimatedTotal = estimatedTotal;
    this.interval = interval;
    this.sink = sink;
    this.nanoClock = nanoClock;
    this.startNanos = nanoClock.getAsLong();
    this.lastPrintNanos = startNanos;
  }

  /** Continues from {@code doneSoFar} documents done by an earlier run. */
  void resume(long doneSoFar) {
    done = doneSoFar;
    startDone = doneSoFar;
    startNanos = nanoClock.getAsLong();
    lastPrintNanos = startNanos;
  }

  void advance(long n) {
    long before = done;
    done += n;
    if ((before >>> 10) != (done >>> 10)) { // look at the clock once per 1024 documents
      long now = nanoClock.getAsLong();
      if (now - lastPrintNanos >= interval.toNanos()) {
        lastPrintNanos = now;
        sink.accept(line(now));
      }
    }
  }

  void done() {
    sink.accept(line(nanoClock.getAsLong()));
  }

  String line(long now) {
    double seconds = Math.max(1e-9, (now - startNanos) / 1e9);
    double rate = (done - startDone) / seconds;
    StringBuilder sb =
        new StringBuilder(step).append(": ").append(String.format(Locale.ROOT, "%,d", done));
    if (estimatedTotal > 0) {
      sb.append(
          String.format(
              Locale.ROOT,
              " / ~%,d documents (%.0f%%)",
              estimatedTotal,
              Math.min(100.0, 100.0 * done / estimatedTotal)));
    } else {
      sb.append(" documents");
    }
    sb.append(String.format(Locale.ROOT, ", %,.0f docs/s", rate));
    if (estimatedTotal > done && rate > 0) {
      long eta = (long) ((estimatedTotal - done) / rate);
      sb.append(String.format(Locale.ROOT, ", ETA %d:%02d", eta / 60, eta % 60));
    }
    return sb.toString();
  }
}
