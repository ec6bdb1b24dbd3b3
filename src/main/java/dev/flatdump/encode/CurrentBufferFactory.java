package dev.flatdump.encode;

import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Hands out a {@link FlatBufferBuilder}'s buffers and remembers the newest, which is the one in
 * use: the builder replaces its buffer when it grows, and {@link AttributeVectorIndex} reads the
 * vectors already written from the current one. One per builder, on the builder's thread.
 *
 * <p>Growth stops at a cap before doubling past it: the builder asks for twice its buffer's size
 * but takes the capacity it gets ({@code FlatBufferBuilder.growByteBuffer}), and asks again if that
 * is still too small. Once the buffer is at the cap, it doubles as usual.
 *
 * <p>Below the cap, a {@link #forecast} may also make a growth larger than twice: to the bytes the
 * buffer is expected to need in the end (at most the cap), so that a buffer that would double two
 * or three times is copied once. The finished bytes do not depend on the buffer's capacity.
 */
final class CurrentBufferFactory extends FlatBufferBuilder.ByteBufferFactory {

  /**
   * Orgs added before a forecast applies: the first orgs of a buffer are its largest (every string
   * and attribute is new to it), so a forecast from a few of them would over-allocate wherever
   * de-dup works (one realistic org forecast 1.3 MB for 300 orgs that took under 256 KiB).
   */
  static final int FORECAST_MIN_ORGS = 1_000;

  private final FlatBufferBuilder.ByteBufferFactory buffers;
  private final int capBytes;
  private LongSupplier forecast = () -> 0;
  private ByteBuffer current;

  CurrentBufferFactory(FlatBufferBuilder.ByteBufferFactory buffers, int capBytes) {
    this.buffers = buffers;
    this.capBytes = capBytes;
  }

  /** Heap buffers, growing up to {@code capBytes}; the cap must be at least the first buffer. */
  static CurrentBufferFactory onHeap(int capBytes, int initialCapacityBytes) {
    if (capBytes < initialCapacityBytes) {
      throw new IllegalArgumentException(
          "capacityCapBytes must be >= initialCapacityBytes ("
              + initialCapacityBytes
              + "), was "
              + capBytes);
    }
    return new CurrentBufferFactory(FlatBufferBuilder.HeapByteBufferFactory.INSTANCE, capBytes);
  }

  /**
   * What to grow to: asked at each growth below the cap, it returns the bytes the buffer is
   * expected to need in the end, or 0 (or less) for no forecast.
   */
  void forecast(LongSupplier bytesNeeded) {
    this.forecast = Objects.requireNonNull(bytesNeeded, "bytesNeeded");
  }

  /**
   * The finished size of {@code orgs} orgs at the bytes per org so far, plus a sixteenth; 0 (no
   * forecast) before {@value #FORECAST_MIN_ORGS} orgs or when no more are expected.
   *
   * @param count orgs in the buffer so far
   * @param used bytes they take
   */
  static long forecastBytes(long orgs, int count, int used) {
    if (count < FORECAST_MIN_ORGS || orgs <= count) {
      return 0;
    }
    long n = Math.min(orgs, Integer.MAX_VALUE); // past that the cap decides anyway; no overflow
    long perOrg = used / count + 1;
    return perOrg * n + perOrg * n / 16 + 4 * n + FlatBufferOrgsBuilder.FINISH_BYTES;
  }

  @Override
  public ByteBuffer newByteBuffer(int capacity) {
    int size = capacity;
    if (current != null && current.capacity() < capBytes) {
      size = (int) Math.min(Math.max(capacity, forecast.getAsLong()), capBytes);
    }
    current = buffers.newByteBuffer(size);
    return current;
  }

  @Override
  public void releaseByteBuffer(ByteBuffer buffer) {
    buffers.releaseByteBuffer(buffer);
  }

  /**
   * A builder that starts in {@code buffer} rather than in one of this factory's: the buffer is the
   * current one until the builder grows. Before any other use of this factory.
   */
  FlatBufferBuilder adopt(ByteBuffer buffer) {
    if (current != null) {
      throw new IllegalStateException("a buffer was already handed out");
    }
    current = Objects.requireNonNull(buffer, "buffer");
    return new FlatBufferBuilder(buffer, this);
  }

  /** The buffer handed out last, or null before the first. */
  ByteBuffer current() {
    return current;
  }
}
