package dev.flatdump.artifact;

import dev.flatdump.FlatdumpException;

/** An artifact file could not be written, read, moved or checked; the message names the file. */
public final class ArtifactException extends FlatdumpException {

  public ArtifactException(String message) {
    super(message);
  }

  public ArtifactException(String message, Throwable cause) {
    super(message, cause);
  }
}
