package dev.flatdump.reader;

/**
 * Why an export could not be read: the message names the file (or directory) and the reason. The
 * reader's one exception; it does not extend {@code FlatdumpException} because the reader depends
 * on nothing of the rest of flatdump.
 */
public final class ReaderException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public ReaderException(String message) {
    super(message);
  }

  public ReaderException(String message, Throwable cause) {
    super(message, cause);
  }
}
