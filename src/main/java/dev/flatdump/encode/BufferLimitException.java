package dev.flatdump.encode;

import dev.flatdump.FlatdumpException;

/**
 * A FlatBuffers shard could not grow: FlatBuffers addresses a buffer with 32-bit signed offsets, so
 * a shard stays below 2 GB. The cure is a smaller shard size. The builder that threw is unusable.
 */
public final class BufferLimitException extends FlatdumpException {

  private final int orgs;
  private final long bytes;

  BufferLimitException(int orgs, long bytes, Throwable cause) {
    super(
        "FlatBuffers shard is full: it cannot grow past 2 GB with "
            + orgs
            + " orgs ("
            + bytes
            + " bytes) in it; lower the shard size",
        cause);
    this.orgs = orgs;
    this.bytes = bytes;
  }

  /** Organizations completely written to the shard before it overflowed. */
  public int orgs() {
    return orgs;
  }

  /** Bytes the shard held when it overflowed. */
  public long bytes() {
    return bytes;
  }
}
