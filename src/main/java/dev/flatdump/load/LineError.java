package dev.flatdump.load;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A line of an Extended JSON file that could not be loaded.
 *
 * @param file the file
 * @param line the 1-based line number
 * @param reason a short reason, e.g. {@code not valid JSON: ...}
 */
public record LineError(Path file, long line, String reason) {

  public LineError {
    Objects.requireNonNull(file, "LineError.file must not be null");
    Objects.requireNonNull(reason, "LineError.reason must not be null");
    if (line < 1) {
      throw new IllegalArgumentException("LineError.line must be >= 1, got " + line);
    }
  }

  /** {@code file:line: reason}, as compilers report errors. */
  @Override
  public String toString() {
    return file + ":" + line + ": " + reason;
  }
}
