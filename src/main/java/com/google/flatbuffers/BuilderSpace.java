package com.google.flatbuffers;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * flatdump's one reach into {@link FlatBufferBuilder}: its unfinished buffer, its write position
 * after bytes were written straight into that buffer's array, and a {@link Mark} to roll it back
 * to. The builder offers none of them in public ({@link FlatBufferBuilder#dataBuffer} asks for a
 * finished buffer), so this class sits in the builder's package to use its package-private fields.
 * A caller first makes room with {@link FlatBufferBuilder#prep}, so that the array holds every byte
 * it writes below the position.
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

  /**
   * What of a builder's state its later bytes depend on, at one point: its offset (the bytes
   * written, which stay where they are when the buffer grows), its alignment ({@code minalign},
   * which pads the finished buffer) and how many vtables {@code endTable} may share. Reused from
   * one mark to the next; not thread-safe.
   */
  public static final class Mark {
    private int offset = -1;
    private int minalign;
    private int vtables;

    /** The builder's offset when it was marked, or -1 before. */
    public int offset() {
      return offset;
    }
  }

  /** Remembers the builder's state in {@code m}: a few fields, nothing copied. */
  public static void mark(FlatBufferBuilder b, Mark m) {
    m.offset = b.offset();
    m.minalign = b.minalign;
    m.vtables = b.num_vtables;
  }

  /**
   * Takes the builder back to its state at {@code m}, as if nothing had been written since: the
   * bytes written since are zeroed and the write position moves back up over them, the alignment
   * and the vtables that {@code endTable} may share are those of the mark (the vtables written
   * since lie in the space given back, after the mark's in the builder's list). A table or vector
   * left unfinished is forgotten. The buffer keeps any capacity it grew to.
   *
   * @throws IllegalStateException if the builder was finished, or has fewer bytes than at the mark
   *     (another builder's mark, or one from before a {@code clear})
   */
  public static void rollback(FlatBufferBuilder b, Mark m) {
    int top = b.bb.capacity() - m.offset;
    if (b.finished || m.offset < 0 || top < b.space || m.vtables > b.num_vtables) {
      throw new IllegalStateException(
          "cannot roll back to offset "
              + m.offset
              + ": the builder is at "
              + b.offset()
              + (b.finished ? ", finished" : ""));
    }
    ByteBuffer bb = b.bb;
    if (bb.hasArray()) {
      Arrays.fill(bb.array(), bb.arrayOffset() + b.space, bb.arrayOffset() + top, (byte) 0);
    } else {
      for (int i = b.space; i < top; i++) {
        bb.put(i, (byte) 0);
      }
    }
    b.space = top;
    b.minalign = m.minalign;
    b.num_vtables = m.vtables;
    b.nested = false;
    b.vtable_in_use = 0;
  }
}
