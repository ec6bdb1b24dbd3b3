package dev.flatdump.columnar;

/**
 * A columnar copy that cannot be written (a shard this format does not describe) or read back (a
 * damaged copy, a rebuild whose SHA-256 differs from the one expected).
 */
public final class ColumnarException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public ColumnarException(String message) {
    super(message);
  }

  public ColumnarException(String message, Throwable cause) {
    super(message, cause);
  }
}
