package dev.flatdump.encode;

import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.ByteBuffer;

/**
 * Hands out a {@link FlatBufferBuilder}'s buffers and remembers the newest, which is the one in
 * use: the builder replaces its buffer when it grows, and {@link AttributeVectorIndex} reads the
 * vectors already written from the current one. One per builder, on the builder's thread.
 */
final class CurrentBufferFactory extends FlatBufferBuilder.ByteBufferFactory {

  private final FlatBufferBuilder.ByteBufferFactory buffers;
  private ByteBuffer current;

  CurrentBufferFactory(FlatBufferBuilder.ByteBufferFactory buffers) {
    this.buffers = buffers;
  }

  @Override
  public ByteBuffer newByteBuffer(int capacity) {
    current = buffers.newByteBuffer(capacity);
    return current;
  }

  @Override
  public void releaseByteBuffer(ByteBuffer buffer) {
    buffers.releaseByteBuffer(buffer);
  }

  /** The buffer handed out last, or null before the first. */
  ByteBuffer current() {
    return current;
  }
}
