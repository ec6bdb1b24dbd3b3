package com.google.flatbuffers;

import java.nio.ByteBuffer;

/**
 * flatdump's one reach into {@link FlatBufferBuilder}: its unfinished buffer, and its write
 * position after bytes were written straight into that buffer's array. The builder offers neither
 * in public ({@link FlatBufferBuilder#dataBuffer} asks for a finished buffer), so this class sits
 * in the builder's package to use its package-private fields. A caller first makes room with {@link
 * FlatBufferBuilder#prep}, so that the array holds every byte it writes below the position.
 */
public final class BuilderSpace {
  private BuilderSpace() {}

  /** The buffer being built. */
  public static ByteBuffer buffer(FlatBufferBuilder b) {
    return b.bb;
  }

  /** Where the last byte written is, as an index into {@link #buffer}: the next go below it. */
  public static int space(FlatBufferBuilder b) {
    return b.space;
  }

  /** Moves the write position down to {@code space}; the caller wrote the bytes above it. */
  public static void space(FlatBufferBuilder b, int space) {
    b.space = space;
  }
}
