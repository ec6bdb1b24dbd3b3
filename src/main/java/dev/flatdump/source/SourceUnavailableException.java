package dev.flatdump.source;

import dev.flatdump.FlatdumpException;

/** MongoDB could not be read, even after re-opening the cursor; says where the read stopped. */
public final class SourceUnavailableException extends FlatdumpException {

  public SourceUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
