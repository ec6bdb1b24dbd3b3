package dev.flatdump.source;

import dev.flatdump.FlatdumpException;
import java.io.Closeable;
import java.io.IOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * Runs another iterator on a background thread, a bounded number of elements ahead, so that reading
 * and decoding (the cursor, the codec) overlap with what the caller does with each element (the
 * encoding). Elements arrive in order; an exception thrown by the source is rethrown by {@link
 * #hasNext()}/{@link #next()} in the caller's thread, after the elements produced before it; an
 * {@link Error} there (an {@code OutOfMemoryError}) arrives as a {@link FlatdumpException} whose
 * cause it is.
 *
 * <p>A source that is {@link Buffered} is handed over in chunks of up to {@value #CHUNK} elements:
 * one hand-over (and at most one wake-up of either thread) per chunk instead of per element, the
 * chunk handed over as soon as the source would have to wait for more, so the caller never waits
 * for elements the source already had. Other sources are handed over one element at a time.
 *
 * <p>Only the background thread touches the source, and it closes the source when it ends. One
 * consumer thread. The caller closes this iterator, which stops the background thread.
 */
public final class PrefetchingIterator<T> implements Iterator<T>, Closeable {

  /** A source that knows how many elements it can give without waiting (a cursor's batch). */
  public interface Buffered {

    /** Elements that {@code hasNext}/{@code next} would return now, without waiting for I/O. */
    int readyWithoutWaiting();
  }

  static final int CHUNK = 64;

  private static final Object END = new Object();

  // What fill() stopped for.
  private static final int HAND_OVER = 0;
  private static final int SOURCE_ENDED = 1;
  private static final int OUT_OF_ALLOWANCE = 2;

  /** How long the consumer waits between checks that the background thread is still alive. */
  private static final long LIVENESS_CHECK_MILLIS = 1000;

  private record Failure(Throwable error) {}

  /** Elements handed over at once, and the budget they took together. */
  private static final class Chunk {
    final Object[] elements;
    int size;
    int permits;

    Chunk(int capacity) {
      elements = new Object[capacity];
    }
  }

  private final BlockingQueue<Object> queue;
  private final ToLongFunction<? super T> weight;
  private final Semaphore kibibytes;
  private final int maxKibibytes;
  private final int chunkSize;
  private final Thread producer;
  private volatile boolean stopped;

  // The background thread's own: budget it took from kibibytes and has not given to an element
  // yet, and the element that did not fit in it.
  private int allowance;
  private T held;
  private int heldPermits;

  private Chunk current;
  private int position;
  private boolean ended;

  /**
   * @param source the iterator to run ahead; if it is {@link AutoCloseable} it is closed by the
   *     background thread when that ends
   * @param capacity how many elements may wait, at least 1 (for a {@link Buffered} source, in whole
   *     chunks: rounded up to a multiple of {@value #CHUNK})
   * @param threadName the background thread's name
   */
  public PrefetchingIterator(Iterator<T> source, int capacity, String threadName) {
    this(source, capacity, t -> 0, Integer.MAX_VALUE * 1024L, threadName);
  }

  /**
   * Also bounds the bytes waiting: the background thread waits while the waiting elements weigh
   * more than {@code maxBytes}; one element always may wait, however heavy. An element's weight is
   * given back when the chunk it came in is used up.
   *
   * @param weight an element's size in bytes, for the budget
   * @param maxBytes at least 1 KiB
   */
  public PrefetchingIterator(
      Iterator<T> source,
      int capacity,
      ToLongFunction<? super T> weight,
      long maxBytes,
      String threadName) {
    Objects.requireNonNull(source, "source");
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
    }
    if (maxBytes < 1024 || maxBytes / 1024 > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("maxBytes must be 1 KiB..2 TiB, got " + maxBytes);
    }
    this.chunkSize = source instanceof Buffered ? CHUNK : 1;
    this.queue = new ArrayBlockingQueue<>((capacity + chunkSize - 1) / chunkSize);
    this.weight = Objects.requireNonNull(weight, "weight");
    this.maxKibibytes = (int) (maxBytes / 1024);
    this.kibibytes = new Semaphore(maxKibibytes);
    this.producer = new Thread(() -> produce(source), threadName);
    this.producer.setDaemon(true);
    this.producer.start();
  }

  /** The budget an element takes: its KiB, rounded up, at most the whole budget. */
  private int permits(T element) {
    long kib = (weight.applyAsLong(element) + 1023) / 1024;
    return (int) Math.min(kib, maxKibibytes);
  }

  private void produce(Iterator<T> source) {
    Buffered buffered = source instanceof Buffered b ? b : null;
    Chunk chunk = new Chunk(chunkSize);
    try {
      Object last = END;
      try {
        while (!stopped) {
          int filled = fill(chunk, source, buffered);
          if (filled == SOURCE_ENDED) {
            break;
          }
          if (filled == OUT_OF_ALLOWANCE) {
            allowance += kibibytes.drainPermits();
            if (allowance < heldPermits) {
              // Hand over what this thread holds before it waits: the caller may need it to make
              // room.
              chunk = handOver(chunk);
              if (!awaitAllowance(heldPermits)) {
                return;
              }
            }
            allowance -= heldPermits;
            chunk.elements[chunk.size++] = held;
            chunk.permits += heldPermits;
            held = null;
            if (!handOverNow(chunk, buffered)) {
              continue;
            }
          }
          chunk = handOver(chunk);
        }
      } catch (Throwable e) {
        // Errors too (an OutOfMemoryError, a StackOverflowError): the consumer must never wait for
        // an end that a dead thread will not queue.
        last = new Failure(e);
      }
      try {
        handOver(chunk); // the elements before the end or the failure come first
      } finally {
        put(last);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // closed while waiting for room: just stop
    } finally {
      if (source instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception ignored) {
          // closing after a failure is best effort; the failure itself was passed on
        }
      }
    }
  }

  /**
   * The background thread's hot loop: adds elements to {@code chunk} until it is to be handed over
   * ({@link #HAND_OVER}), the source has ended ({@link #SOURCE_ENDED}) or an element needs more
   * budget than the allowance holds ({@link #OUT_OF_ALLOWANCE}; the element is then {@link #held}).
   *
   * <p>A method of its own, and without a rare branch, because the JIT compiles it with the
   * source's code inlined: a branch that it has never seen taken becomes a trap that throws the
   * compiled code away when it is taken after all. Waiting for budget and for room in the queue,
   * which happen in some runs and not in others (the caller fell behind), are the caller's, which
   * runs once per chunk and is cheap to compile again. Every exit here is taken in every run: the
   * allowance starts empty and runs out every few thousand elements.
   */
  private int fill(Chunk chunk, Iterator<T> source, Buffered buffered) {
    while (!stopped && source.hasNext()) {
      T element = source.next();
      int permits = permits(element);
      if (permits > allowance) {
        held = element;
        heldPermits = permits;
        return OUT_OF_ALLOWANCE;
      }
      allowance -= permits;
      chunk.elements[chunk.size++] = element;
      chunk.permits += permits;
      if (handOverNow(chunk, buffered)) {
        return HAND_OVER;
      }
    }
    return SOURCE_ENDED;
  }

  /** Full, or the source would have to wait for more: the caller should not wait with it. */
  private boolean handOverNow(Chunk chunk, Buffered buffered) {
    return chunk.size == chunkSize || buffered == null || buffered.readyWithoutWaiting() == 0;
  }

  /**
   * Waits until the allowance holds {@code permits}; false if this iterator was closed meanwhile.
   */
  private boolean awaitAllowance(int permits) throws InterruptedException {
    while (allowance < permits) {
      int missing = permits - allowance;
      if (kibibytes.tryAcquire(missing, 100, TimeUnit.MILLISECONDS)) {
        allowance += missing;
      } else if (stopped) {
        return false;
      }
    }
    return true;
  }

  /** Puts a chunk that holds anything into the queue; returns the chunk to fill next. */
  private Chunk handOver(Chunk chunk) throws InterruptedException {
    if (chunk.size == 0) {
      return chunk;
    }
    put(chunk);
    return new Chunk(chunkSize);
  }

  private void put(Object o) throws InterruptedException {
    while (!stopped) {
      if (queue.offer(o, 100, TimeUnit.MILLISECONDS)) {
        return;
      }
    }
  }

  @Override
  public boolean hasNext() {
    if (ended) {
      return false;
    }
    if (current != null) {
      return true;
    }
    Object head = take();
    if (head == END) {
      ended = true;
      return false;
    }
    if (head instanceof Failure f) {
      ended = true;
      if (f.error() instanceof RuntimeException e) {
        throw e;
      }
      throw new FlatdumpException(
          "the reading-ahead thread " + producer.getName() + " failed: " + f.error(), f.error());
    }
    current = (Chunk) head;
    position = 0;
    return true;
  }

  /**
   * The next thing in the queue. Should the background thread end without queuing its end (it
   * cannot, unless the JVM refuses it even that), this fails instead of waiting forever.
   */
  private Object take() {
    try {
      while (true) {
        Object head = queue.poll(LIVENESS_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        if (head != null) {
          return head;
        }
        if (!producer.isAlive() && queue.isEmpty()) {
          ended = true;
          throw new FlatdumpException(
              "the reading-ahead thread " + producer.getName() + " ended without a result");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FlatdumpException("interrupted while reading ahead", e);
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  public T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Chunk chunk = current;
    T element = (T) chunk.elements[position];
    if (++position == chunk.size) {
      // The chunk is used up: its budget goes back before this thread can wait for the next one.
      current = null;
      kibibytes.release(chunk.permits);
    }
    return element;
  }

  /** Stops the background thread (it closes the source) and waits briefly for it. Idempotent. */
  @Override
  public void close() throws IOException {
    stopped = true;
    queue.clear();
    producer.interrupt();
    try {
      producer.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
