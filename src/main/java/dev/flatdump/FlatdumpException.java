package dev.flatdump;

/**
 * The root of flatdump's one unchecked exception family. Every subclass carries the context a user
 * needs to act: the document, the field, the file or the storage location involved.
 */
public class FlatdumpException extends RuntimeException {

  public FlatdumpException(String message) {
    super(message);
  }

  public FlatdumpException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * What went wrong, in one line: the message of the first exception of our family in {@code t}'s
   * cause chain (it says what failed, with context), else of the root cause (a library's wrapper
   * rarely says more than its cause).
   */
  public static String describe(Throwable t) {
    Throwable c = t;
    while (!(c instanceof FlatdumpException) && c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
  }
}
