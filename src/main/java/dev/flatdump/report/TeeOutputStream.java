package dev.flatdump.report;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes everything to several streams. {@link #close()} closes them all, in order, even if one
 * fails, and throws the first failure. Not thread-safe.
 */
final class TeeOutputStream extends OutputStream {

  private final List<OutputStream> targets;

  TeeOutputStream(OutputStream... targets) {
    this.targets = List.of(targets);
  }

  @Override
  public void write(int b) throws IOException {
    for (OutputStream target : targets) {
      target.write(b);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    for (OutputStream target : targets) {
      target.write(b, off, len);
    }
  }

  @Override
  public void flush() throws IOException {
    for (OutputStream target : targets) {
      target.flush();
    }
  }

  @Override
  public void close() throws IOException {
    IOException failure = null;
    for (OutputStream target : targets) {
      try {
        target.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
