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
}
