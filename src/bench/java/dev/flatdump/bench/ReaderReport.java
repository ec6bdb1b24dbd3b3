package dev.flatdump.bench;

import java.util.List;
import java.util.Locale;

/**
 * What {@link ReaderBenchmark} measured, with the conditions it measured them in; immutable. Each
 * table's ratios are against a row of the same table, measured in the same run.
 *
 * @param settings what was run
 * @param machine see {@link MachineInfo#describe()}
 * @param loadBefore the load average when the benchmark started
 * @param loadAfter the load average when it ended
 * @param data the files' sizes, in words
 * @param timerNanos what a {@code nanoTime} pair costs with nothing between (in every lookup time)
 * @param opens time to open or load, the protobuf row first (the reference)
 * @param lookups lookup latencies on one thread, the {@code HashMap} row first (the reference)
 * @param memory processes serving lookups
 * @param reloads time of one {@code reload()}
 * @param underLoad lookups on several threads, without reloads first (the reference)
 */
public record ReaderReport(
    ReaderBenchmark.Settings settings,
    String machine,
    String loadBefore,
    String loadAfter,
    String data,
    long timerNanos,
    List<Timed> opens,
    List<Lookups> lookups,
    List<Memory> memory,
    List<Timed> reloads,
    List<Loaded> underLoad) {

  /** A time: the median and the fastest of the runs. */
  public record Timed(String name, long medianNanos, long minNanos) {}

  /** One thread's lookups. */
  public record Lookups(String name, Latencies latencies) {}

  /** One process's memory, in bytes; {@code export} is what it maps from the export's files. */
  public record Memory(
      String name, long heap, ProcessMemory.Resident resident, ProcessMemory.Mapped export) {}

  /** Several threads' lookups, and how many reloads ran beside them. */
  public record Loaded(String name, Latencies latencies, double lookupsPerSecond, int reloads) {}

  public ReaderReport {
    opens = List.copyOf(opens);
    lookups = List.copyOf(lookups);
    memory = List.copyOf(memory);
    reloads = List.copyOf(reloads);
    underLoad = List.copyOf(underLoad);
  }

  /** The tables in Markdown, after a header that says how and where they were measured. */
  public String toMarkdown() {
    var md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "Reader: profile %s, %,d orgs (seed %d); %s. Page cache warm (every file just written"
                + " or read). Median of %d run%s after a warm-up; a nanoTime pair costs %d ns,"
                + " inside every lookup's time. Load average %s at the start, %s at the end.%n",
            settings.profile().name().toLowerCase(Locale.ROOT),
            settings.orgs(),
            settings.seed(),
            data,
            settings.runs(),
            settings.runs() == 1 ? "" : "s",
            timerNanos,
            loadBefore,
            loadAfter));
    md.append("Machine: ").append(machine).append(".\n\n");

    md.append("| open or load | median | fastest | × protobuf |\n|---|---:|---:|---:|\n");
    double ref = opens.get(0).medianNanos();
    for (Timed t : opens) {
      row(
          md,
          t.name(),
          Figures.millis(t.medianNanos()),
          Figures.millis(t.minNanos()),
          ratio(t.medianNanos() / ref));
    }

    md.append(
        "\n| lookup, 1 thread | p50 | p99 | p99.9 | mean | p50 × HashMap | p99 × HashMap |\n"
            + "|---|---:|---:|---:|---:|---:|---:|\n");
    Latencies map = lookups.get(0).latencies();
    for (Lookups l : lookups) {
      Latencies x = l.latencies();
      row(
          md,
          l.name(),
          nanos(x.p50()),
          nanos(x.p99()),
          nanos(x.p999()),
          nanos(Math.round(x.meanNanos())),
          Figures.ratio((double) x.p50() / map.p50()),
          Figures.ratio((double) x.p99() / map.p99()));
    }

    md.append(
        "\n| process serving lookups | heap after GC | RSS | anon | file | export: RSS | PSS |"
            + " shared | private |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Memory m : memory) {
      row(
          md,
          m.name(),
          bytes(m.heap()),
          bytes(m.resident().total()),
          bytes(m.resident().anon()),
          bytes(m.resident().file()),
          bytes(m.export().rss()),
          bytes(m.export().pss()),
          bytes(m.export().shared()),
          bytes(m.export().private_()));
    }

    md.append("\n| reload() to a new export | median | fastest |\n|---|---:|---:|\n");
    for (Timed t : reloads) {
      row(md, t.name(), Figures.millis(t.medianNanos()), Figures.millis(t.minNanos()));
    }

    md.append(
        "\n| lookups on "
            + settings.threads()
            + " threads, "
            + settings.phaseMillis() / 1000.0
            + " s | lookups/s | p50 | p99 | p99.9 | max | reloads | p99 × none |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|\n");
    double p99 = underLoad.get(0).latencies().p99();
    for (Loaded l : underLoad) {
      Latencies x = l.latencies();
      row(
          md,
          l.name(),
          Figures.rate(l.lookupsPerSecond()),
          nanos(x.p50()),
          nanos(x.p99()),
          nanos(x.p999()),
          nanos(x.max()),
          Integer.toString(l.reloads()),
          Figures.ratio(x.p99() / p99));
    }
    return md.toString();
  }

  /** As {@link Figures#ratio}, and below 0.1 as a fraction: {@code 0.0021} → {@code "1/476"}. */
  static String ratio(double ratio) {
    return ratio >= 0.1 || ratio <= 0
        ? Figures.ratio(ratio)
        : String.format(Locale.ROOT, "1/%,d", Math.round(1 / ratio));
  }

  private static void row(StringBuilder md, String... cells) {
    md.append("| ").append(String.join(" | ", cells)).append(" |\n");
  }

  private static String bytes(long bytes) {
    return bytes < 0 ? "n/a" : Figures.bytes(bytes);
  }

  /**
   * {@code 850} → {@code "850 ns"}, {@code 12_345} → {@code "12.3 µs"}, from 1 ms as {@link
   * Figures#millis}.
   */
  static String nanos(long nanos) {
    if (nanos < 10_000) {
      return String.format(Locale.ROOT, "%,d ns", nanos);
    }
    if (nanos < 1_000_000) {
      return String.format(Locale.ROOT, "%.1f µs", nanos / 1e3);
    }
    return Figures.millis(nanos);
  }
}
