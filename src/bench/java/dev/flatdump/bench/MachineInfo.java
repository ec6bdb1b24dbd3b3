package dev.flatdump.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Describes the machine and JVM a benchmark ran on, and its load, for the tables' headers. */
public final class MachineInfo {

  private MachineInfo() {}

  /** Cores, memory, Java version and maximum heap, in one line. */
  public static String describe() {
    var os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    return String.format(
        Locale.ROOT,
        "%d cores, %s RAM, Java %s (%s), max heap %s, %s",
        Runtime.getRuntime().availableProcessors(),
        Figures.bytes(os.getTotalMemorySize()),
        System.getProperty("java.version"),
        System.getProperty("java.vm.name"),
        Figures.bytes(Runtime.getRuntime().maxMemory()),
        ManagementFactory.getRuntimeMXBean().getInputArguments().isEmpty()
            ? "no JVM options"
            : "JVM options " + ManagementFactory.getRuntimeMXBean().getInputArguments());
  }

  /** The 1, 5 and 15 minute load averages from {@code /proc/loadavg}, or "n/a" off Linux. */
  public static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return fields[0] + ", " + fields[1] + ", " + fields[2];
    } catch (IOException | RuntimeException e) {
      double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
      return load < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", load);
    }
  }
}
