package dev.flatdump.load;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What {@link ExtendedJsonLoader} did with one file.
 *
 * @param file the file
 * @param lines lines read, blank ones included
 * @param loaded documents handed to the sink
 * @param bad lines that were not a JSON document
 */
public record LoadSummary(Path file, long lines, long loaded, long bad) {

  public LoadSummary {
    Objects.requireNonNull(file, "LoadSummary.file must not be null");
    if (lines < 0 || loaded < 0 || bad < 0 || loaded + bad > lines) {
      throw new IllegalArgumentException(
          "inconsistent counts: lines " + lines + ", loaded " + loaded + ", bad " + bad);
    }
  }

  /** Whether every non-blank line was loaded. */
  public boolean ok() {
    return bad == 0;
  }
}
