package dev.flatdump.artifact.compress;

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
 * thread and eight write the same file. At most {@code threads + 3} blocks wait or are being
 * deflated, and blocks (1 MiB in, up to about as much out) are reused rather than made anew: at
 * most {@code threads + 5} of them per stream, whatever the input's size. The caller's thread
 * computes the CRC and writes the pieces; with one thread it also deflates them, and a stream
 * shorter than one block never starts a thread.
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

  /**
   * One block: its input and, once deflated, its output. Reused: a block is free again once it and
   * the block after it (which reads its tail as the dictionary) are deflated and written.
   */
  static final class Block {
    final byte[] input = new byte[BLOCK];
    int length;
    byte[] output = new byte[BLOCK / 2];
    int outputLength;
  }

  private final OutputStream out;
  private final int level;
  private final int threads;
  private final ArrayDeque<Future<Block>> inFlight = new ArrayDeque<>();
  private final ArrayDeque<Block> free = new ArrayDeque<>();
  private final CRC32 crc = new CRC32();
  private ExecutorService pool;
  private long size;
  private int blocks = 1;
  private Block current = new Block();
  private Block previous;
  private Block written;
  private boolean closed;

  /**
   * Writes the gzip header to {@code out} at once.
   *
   * @param level deflate level, 1..9
   * @param threads threads that deflate, at least 1
   */
  ParallelGzipOutputStream(OutputStream out, int level, int threads) throws IOException {
    this.out = Objects.requireNonNull(out, "out");
    this.level = GzipCompression.requireLevel(level);
    this.threads = Compression.requireThreads(threads);
    out.write(HEADER);
  }

  @Override
  public void write(int b) throws IOException {
    ensureOpen();
    crc.update(b);
    size++;
    current.input[current.length++] = (byte) b;
    if (current.length == BLOCK) {
      submit(false);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    ensureOpen();
    crc.update(b, off, len);
    size += len;
    while (len > 0) {
      int n = Math.min(len, BLOCK - current.length);
      System.arraycopy(b, off, current.input, current.length, n);
      current.length += n;
      off += n;
      len -= n;
      if (current.length == BLOCK) {
        submit(false);
      }
    }
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw new IOException("gzip stream already closed");
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
        writeDeflated(await(inFlight.remove()));
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
    Block block = current;
    Block dictionary = previous;
    previous = block;
    current = last ? null : free.isEmpty() ? newBlock() : free.pop();
    if (current != null) {
      current.length = 0;
    }
    if (threads == 1) {
      deflate(block, dictionary, level, last);
      writeDeflated(block);
      return;
    }
    if (pool == null) {
      pool = Executors.newFixedThreadPool(threads, ParallelGzipOutputStream::daemon);
    }
    inFlight.add(
        pool.submit(
            () -> {
              deflate(block, dictionary, level, last);
              return block;
            }));
    while (inFlight.size() > threads + 2) {
      writeDeflated(await(inFlight.remove()));
    }
  }

  /** Writes a deflated block, the next in order; the one before it is free from now on. */
  private void writeDeflated(Block block) throws IOException {
    out.write(block.output, 0, block.outputLength);
    if (written != null) {
      free.push(written);
    }
    written = block;
  }

  private Block newBlock() {
    blocks++;
    return new Block();
  }

  /** Blocks made so far: they are reused, so there are at most {@code threads + 5}. */
  int blocksAllocated() {
    return blocks;
  }

  private static Block await(Future<Block> deflated) throws IOException {
    try {
      return deflated.get();
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
   * Deflates one block into its output as a raw deflate stream that continues the blocks before.
   *
   * @param dictionary the block before this one (the last 32 KiB of its input are used), or null
   *     for the first block
   * @param last whether this block ends the stream (deflate's final block) or ends on a byte
   *     boundary for the next one (a sync flush)
   */
  static void deflate(Block block, Block dictionary, int level, boolean last) {
    Deflater deflater = new Deflater(level, true);
    try {
      if (dictionary != null) {
        deflater.setDictionary(dictionary.input, BLOCK - WINDOW, WINDOW);
      }
      deflater.setInput(block.input, 0, block.length);
      if (last) {
        deflater.finish();
      }
      int flush = last ? Deflater.NO_FLUSH : Deflater.SYNC_FLUSH;
      byte[] buf = block.output;
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
          break;
        }
      }
      block.output = buf;
      block.outputLength = n;
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
