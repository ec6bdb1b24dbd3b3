package dev.flatdump.encode.engine;

/**
 * A document that does not fit the schema: where ({@link #path()}, e.g. {@code attributes[3].size})
 * and why ({@link #reason()}, e.g. {@code 70000 out of range for short}). Carries no stack trace:
 * it is an answer about the data, not a fault of the program.
 */
public final class RejectedRecord extends RuntimeException {

  private final String path;
  private final String reason;

  RejectedRecord(String path, String reason) {
    super(path.isEmpty() ? reason : path + ": " + reason, null, false, false);
    this.path = path;
    this.reason = reason;
  }

  /** The field's path from the record, {@code a.b[2].c}; empty for the document itself. */
  public String path() {
    return path;
  }

  public String reason() {
    return reason;
  }
}
