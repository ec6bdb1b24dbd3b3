package dev.flatdump.report;

import dev.flatdump.FlatdumpException;
import java.nio.file.Path;

/**
 * A report file could not be written, or a baseline could not be measured. Says which file or
 * baseline; the cause is the underlying I/O error.
 */
public final class ReportException extends FlatdumpException {

  private final transient Path file;

  ReportException(String message, Path file, Throwable cause) {
    super(message, cause);
    this.file = file;
  }

  /** The report file involved, or {@code null} when a baseline measurement failed. */
  public Path file() {
    return file;
  }
}
