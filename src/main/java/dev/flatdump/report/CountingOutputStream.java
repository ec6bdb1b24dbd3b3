package dev.flatdump.report;

import java.io.OutputStream;

/** Counts the bytes written to it and discards them. Not thread-safe; closing does nothing. */
public final class CountingOutputStream extends OutputStream {

  private long count;

  @Override
  public void write(int b) {
    count++;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    count += len;
  }

  /** Bytes written so far. */
  public long count() {
    return count;
  }
}
