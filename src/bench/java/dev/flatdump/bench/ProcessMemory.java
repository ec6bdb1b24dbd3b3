package dev.flatdump.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's peak resident set size (Linux {@code VmHWM}), and resetting it through {@code
 * /proc/self/clear_refs} so that a peak can be taken per piece of work. The JVM keeps heap it once
 * committed, so a peak after a reset still includes the heap earlier work grew.
 */
final class ProcessMemory {

  private static final Path STATUS = Path.of("/proc/self/status");
  private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");

  private ProcessMemory() {}

  /**
   * Resets the peak to the current resident size (Linux 4.0+).
   *
   * @return whether it could; if not, {@link #peakRssBytes()} is the peak since the process began
   */
  static boolean resetPeakRss() {
    try {
      Files.writeString(CLEAR_REFS, "5");
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** {@code VmHWM} in bytes, or -1 where there is no {@code /proc/self/status}. */
  static long peakRssBytes() {
    try {
      for (String line : Files.readAllLines(STATUS)) {
        if (line.startsWith("VmHWM:")) {
          String kb = line.substring("VmHWM:".length()).replace("kB", "").trim();
          return Long.parseLong(kb) * 1024;
        }
      }
      return -1;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
