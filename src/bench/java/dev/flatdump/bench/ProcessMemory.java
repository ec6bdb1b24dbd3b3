package dev.flatdump.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The process's peak resident set size (Linux {@code VmHWM}), and resetting it through {@code
 * /proc/self/clear_refs} so that a peak can be taken per piece of work. The JVM keeps heap it once
 * committed, so a peak after a reset still includes the heap earlier work grew. Also the resident
 * size now by kind ({@link #resident()}), and what the process maps from the files under a
 * directory ({@link #mappedUnder}), from {@code /proc/self/smaps}. Sizes in bytes, -1 where Linux
 * does not say.
 */
final class ProcessMemory {

  private static final Path STATUS = Path.of("/proc/self/status");
  private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");

  /** The first line of a mapping in smaps: its address range. */
  private static final Pattern MAPPING = Pattern.compile("[0-9a-f]+-[0-9a-f]+ ");

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

  /**
   * The resident set now, from {@code /proc/self/status}.
   *
   * @param total {@code VmRSS}
   * @param anon {@code RssAnon}: the heap, the stacks, the JIT's code
   * @param file {@code RssFile}: pages of mapped files (the jars, the JVM, mapped exports)
   */
  record Resident(long total, long anon, long file) {}

  /**
   * What the process maps from some files, summed over their mappings from {@code
   * /proc/self/smaps}.
   *
   * @param rss resident
   * @param pss proportional: each page divided by the number of processes mapping it
   * @param shared resident pages that another process maps too ({@code Shared_Clean} + {@code
   *     Shared_Dirty})
   * @param private_ resident pages that only this process maps ({@code Private_Clean} + {@code
   *     Private_Dirty})
   */
  record Mapped(long rss, long pss, long shared, long private_) {}

  static Resident resident() {
    try {
      return resident(Files.readAllLines(STATUS));
    } catch (IOException | RuntimeException e) {
      return new Resident(-1, -1, -1);
    }
  }

  static Resident resident(List<String> status) {
    return new Resident(kb(status, "VmRSS:"), kb(status, "RssAnon:"), kb(status, "RssFile:"));
  }

  /** The mappings of files whose path starts with {@code dir}'s real path and a slash. */
  static Mapped mappedUnder(Path dir) {
    try {
      String prefix = dir.toRealPath().toString() + "/";
      return mapped(Files.readAllLines(Path.of("/proc/self/smaps")), prefix);
    } catch (IOException | RuntimeException e) {
      return new Mapped(-1, -1, -1, -1);
    }
  }

  /** Sums the mappings in {@code smaps} of the files whose path starts with {@code prefix}. */
  static Mapped mapped(List<String> smaps, String prefix) {
    long rss = 0;
    long pss = 0;
    long shared = 0;
    long private_ = 0;
    boolean counting = false;
    for (String line : smaps) {
      if (MAPPING.matcher(line).lookingAt()) {
        int slash = line.indexOf(" /");
        counting = slash > 0 && line.startsWith(prefix, slash + 1);
        continue;
      }
      int colon = line.indexOf(':');
      if (!counting || colon < 0 || !line.endsWith(" kB")) {
        continue;
      }
      long bytes = kbValue(line, colon);
      switch (line.substring(0, colon)) {
        case "Rss" -> rss += bytes;
        case "Pss" -> pss += bytes;
        case "Shared_Clean", "Shared_Dirty" -> shared += bytes;
        case "Private_Clean", "Private_Dirty" -> private_ += bytes;
        default -> {
          // not summed
        }
      }
    }
    return new Mapped(rss, pss, shared, private_);
  }

  private static long kb(List<String> lines, String name) {
    for (String line : lines) {
      if (line.startsWith(name)) {
        return kbValue(line, name.length() - 1);
      }
    }
    return -1;
  }

  private static long kbValue(String line, int colon) {
    String kb = line.substring(colon + 1).replace("kB", "").trim();
    return Long.parseLong(kb) * 1024;
  }
}
