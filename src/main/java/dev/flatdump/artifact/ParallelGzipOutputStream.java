package dev.flatdump.artifact;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * gzip on several threads, the way pigz does it. The input is cut into blocks of {@value #BLOCK}
 * bytes and each block is deflated on its own, primed with the 32 KiB before it as the dictionary
 * (so matches reach back across a cut exactly as far as in one stream) and ended on a byte boundary
 * by a sync flush; the last one ends with deflate's final block. Written in order between one
 * header and one trailer (the CRC-32 and size of the whole input), the pieces are one ordinary gzip
 * member, which any gzip reader takes.
 *
 * <p>The bytes written depend on the input and the level only, never on the number of threads: one
 * thread and eight write the same file. At most {@code threads + 2} blocks wait or are being
 * deflated, about 2 MiB each with their output, so memory does not depend on the input's size. The
 * caller's thread computes the CRC and writes the pieces; with one thread it also deflates them,
 * and a stream shorter than one block never starts a thread.
 *
 * <p>{@link #flush()} flushes the wrapped stream only: cutting a block early would change the
 * output. Not thread-safe: one writer. {@link #close()} finishes the member, stops the threads and
 * closes the wrapped stream; it is idempotent.
 */
final class ParallelGzipOutputStream extends OutputStream {

  /** Bytes per block: large enough that priming each with a dictionary costs little. */
  static final int BLOCK = 1 << 20;

  private static final int WINDOW = 32 * 1024;

  // RFC 1952: ID1 ID2 CM=deflate FLG=0 MTIME=0 XFL=0 OS=unknown
  private static final byte[] HEADER = {
    0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, (byte) 0xff
  };

  /** A deflated block. */
  private record Piece(byte[] bytes, int length) {}

  private final OutputStream out;
  private final int level;
  private final int threads;
  private final ArrayDeque<Future<Piece>> inFlight = new ArrayDeque<>();
  private final CRC32 crc = new CRC32();
  private ExecutorService pool;
  private long size;
  private byte[] block = new byte[BLOCK];
  private int filled;
  private byte[] previous;
  private boolean closed;

  /**
   * Writes the gzip header to {@code out} at once.
   *
   * @param level deflate level, 1..9
   * @param threads threads that deflate, at least 1
   */
  ParallelGzipOutputStream(OutputStream out, int level, int threads) throws IOException {
    this.out = Objects.requireNonNull(out, "out");
    if (level < Deflater.BEST_SPEED || level > Deflater.BEST_COMPRESSION) {
      throw new IllegalArgumentException("gzip level must be 1..9, got " + level);
    }
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    this.level = level;
    this.threads = threads;
    out.write(HEADER);
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (closed) {
      throw new IOException("gzip stream already closed");
    }
    crc.update(b, off, len);
    size += len;
    while (len > 0) {
      int n = Math.min(len, BLOCK - filled);
      System.arraycopy(b, off, block, filled, n);
      filled += n;
      off += n;
      len -= n;
      if (filled == BLOCK) {
        submit(false);
      }
    }
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (out) {
      submit(true);
      while (!inFlight.isEmpty()) {
        writeOldest();
      }
      writeTrailer();
    } finally {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
  }

  /** Hands the filled block over to be deflated, and writes what is done if too much waits. */
  private void submit(boolean last) throws IOException {
    byte[] input = block;
    int length = filled;
    byte[] dictionary = previous;
    previous = input;
    block = last ? null : new byte[BLOCK];
    filled = 0;
    if (threads == 1) {
      Piece piece = deflate(input, length, dictionary, level, last);
      out.write(piece.bytes(), 0, piece.length());
      return;
    }
    if (pool == null) {
      pool = Executors.newFixedThreadPool(threads, ParallelGzipOutputStream::daemon);
    }
    inFlight.add(pool.submit(() -> deflate(input, length, dictionary, level, last)));
    while (inFlight.size() > threads + 2) {
      writeOldest();
    }
  }

  private void writeOldest() throws IOException {
    Piece piece;
    try {
      piece = inFlight.remove().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while compressing gzip");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IOException("gzip block failed: " + cause, cause);
    }
    out.write(piece.bytes(), 0, piece.length());
  }

  private void writeTrailer() throws IOException {
    long value = crc.getValue();
    byte[] trailer = new byte[8];
    for (int i = 0; i < 4; i++) {
      trailer[i] = (byte) (value >>> (8 * i));
      trailer[4 + i] = (byte) (size >>> (8 * i)); // ISIZE: the size modulo 2^32
    }
    out.write(trailer);
  }

  /**
   * Deflates one block as a raw deflate stream that continues the blocks before it.
   *
   * @param dictionary the whole block before this one (its last 32 KiB are used), or null for the
   *     first block
   * @param last whether this block ends the stream (deflate's final block) or ends on a byte
   *     boundary for the next one (a sync flush)
   */
  static Piece deflate(byte[] input, int length, byte[] dictionary, int level, boolean last) {
    Deflater deflater = new Deflater(level, true);
    try {
      if (dictionary != null) {
        deflater.setDictionary(dictionary, dictionary.length - WINDOW, WINDOW);
      }
      deflater.setInput(input, 0, length);
      if (last) {
        deflater.finish();
      }
      int flush = last ? Deflater.NO_FLUSH : Deflater.SYNC_FLUSH;
      byte[] buf = new byte[Math.max(1024, length / 2)];
      int n = 0;
      while (true) {
        if (n == buf.length) {
          buf = Arrays.copyOf(buf, buf.length * 2);
        }
        int room = buf.length - n;
        int written = deflater.deflate(buf, n, room, flush);
        n += written;
        // A sync flush is complete once it leaves room unused; the final block once finished.
        if (last ? deflater.finished() : written < room) {
          return new Piece(buf, n);
        }
      }
    } finally {
      deflater.end();
    }
  }

  private static Thread daemon(Runnable task) {
    Thread t = new Thread(task, "flatdump-gzip");
    t.setDaemon(true);
    return t;
  }
}
