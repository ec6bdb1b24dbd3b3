package dev.flatdump.reader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How many memory regions this process maps from files under a directory, read from {@code
 * /proc/self/maps} (Linux): what a service exports as a gauge to see that reloads release the old
 * exports' shards. Each mapped shard is one region.
 */
public final class MappedRegions {
  private static final Path MAPS = Path.of("/proc/self/maps");

  private MappedRegions() {}

  /** Whether this system lists its mappings in {@code /proc/self/maps}. */
  public static boolean supported() {
    return Files.isReadable(MAPS);
  }

  /**
   * The regions mapping a file whose path lies under {@code dir} (its real path: the {@code
   * current} link resolved).
   *
   * @throws ReaderException when {@code dir} or {@code /proc/self/maps} cannot be read
   */
  public static long under(Path dir) {
    String prefix;
    try {
      prefix = dir.toRealPath().toString();
    } catch (IOException e) {
      throw new ReaderException("cannot resolve " + dir + ": " + e.getMessage(), e);
    }
    return containing(prefix.endsWith("/") ? prefix : prefix + "/");
  }

  /** The regions mapping a file whose path contains {@code text}. */
  public static long containing(String text) {
    List<String> maps;
    try {
      maps = Files.readAllLines(MAPS);
    } catch (IOException e) {
      throw new ReaderException("cannot read " + MAPS + ": " + e.getMessage(), e);
    }
    return maps.stream().filter(l -> l.contains(text)).count();
  }
}
