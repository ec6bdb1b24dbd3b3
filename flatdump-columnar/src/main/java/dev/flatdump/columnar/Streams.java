package dev.flatdump.columnar;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;

/**
 * How one stream is stored: a method byte ({@link #RAW} or {@link #ZSTD}), the stored length, for
 * zstd the length it decompresses to, then the bytes. Each stream is compressed on its own and kept
 * raw when zstd does not make it smaller.
 */
final class Streams {

  static final int RAW = 0;
  static final int ZSTD = 1;

  /**
   * In the directory: a stream held in the directory itself; separate, compressed; separate, raw.
   */
  static final int INLINE = 0;

  static final int SEPARATE_ZSTD = 1;
  static final int SEPARATE_RAW = 2;

  /** Streams shorter than this are held in the directory, compressed together. */
  static final int SMALL = 512;

  /** The most bytes one stream may decompress to: a shard is smaller than 2 GiB. */
  static final int MAX_STREAM = Integer.MAX_VALUE - 16;

  private Streams() {}

  /** Compresses streams with one context, at one level. Not thread-safe; close it. */
  static final class Writer implements AutoCloseable {
    private final ZstdCompressCtx ctx = new ZstdCompressCtx();

    Writer(int level) {
      ctx.setLevel(level);
      ctx.setChecksum(false);
      ctx.setContentSize(false);
      ctx.setDictID(false);
    }

    /** The bytes {@code [0, length)} of {@code raw} compressed, or null when zstd does not help. */
    byte[] compress(byte[] raw, int length) {
      if (length < 24) {
        return null;
      }
      byte[] out = new byte[(int) Zstd.compressBound(length)];
      int n = ctx.compressByteArray(out, 0, out.length, raw, 0, length);
      return n + varintSize(length) < length ? java.util.Arrays.copyOf(out, n) : null;
    }

    /** Writes a stream of {@code raw[0, length)} into {@code out}. */
    void write(ByteSink out, byte[] raw, int length) {
      byte[] z = compress(raw, length);
      if (z == null) {
        out.write(RAW);
        out.varint(length);
        out.write(raw, 0, length);
      } else {
        out.write(ZSTD);
        out.varint(z.length);
        out.varint(length);
        out.write(z);
      }
    }

    /** A stream's bytes, compressed when at least {@link #SMALL} and zstd makes them smaller. */
    Piece piece(byte[] raw, int length) {
      byte[] copy = java.util.Arrays.copyOf(raw, length);
      return new Piece(copy, length < SMALL ? null : compress(raw, length));
    }

    Piece piece(ByteSink payload) {
      return piece(payload.array(), payload.size());
    }

    /** The size {@link #write} would take. */
    int storedSize(byte[] raw, int length) {
      byte[] z = compress(raw, length);
      return z == null
          ? 1 + varintSize(length) + length
          : 1 + varintSize(z.length) + varintSize(length) + z.length;
    }

    @Override
    public void close() {
      ctx.close();
    }
  }

  /**
   * Lays streams out as the copy stores them: each described in the directory, those under {@link
   * #SMALL} bytes inside it (compressed with it), the others after it, each compressed alone (or
   * raw when zstd does not help).
   */
  static final class Layout {
    final ByteSink directory = new ByteSink(1 << 12);
    final java.util.List<byte[]> separate = new java.util.ArrayList<>();
    private final Writer writer;

    Layout(Writer writer) {
      this.writer = writer;
    }

    void add(Piece piece) {
      byte[] raw = piece.raw();
      if (raw.length < SMALL) {
        directory.write(INLINE);
        directory.varint(raw.length);
        directory.write(raw);
      } else if (piece.zstd() == null) {
        directory.write(SEPARATE_RAW);
        directory.varint(raw.length);
        separate.add(raw);
      } else {
        directory.write(SEPARATE_ZSTD);
        directory.varint(raw.length);
        directory.varint(piece.zstd().length);
        separate.add(piece.zstd());
      }
    }

    /** Writes the directory (one stream) and the separate streams after it. */
    void writeTo(ByteSink out) {
      writer.write(out, directory.array(), directory.size());
      for (byte[] b : separate) {
        out.write(b);
      }
    }
  }

  /** Reads streams a {@link Layout} wrote: the directory first, then each stream in turn. */
  static final class Reader {
    private final ByteSource directory;
    private final ByteSource body;
    private final ZstdDecompressCtx ctx;
    private final long limit;

    /**
     * A reader that refuses, before allocating it, a directory that would decompress to more than
     * {@code directoryLimit} bytes or a stream to more than {@code limit}.
     */
    Reader(ByteSource in, ZstdDecompressCtx ctx, long directoryLimit, long limit) {
      this.ctx = ctx;
      this.limit = limit;
      this.directory = new ByteSource(read(in, ctx, directoryLimit));
      this.body = in;
    }

    ByteSource directory() {
      return directory;
    }

    byte[] next() {
      return pending().bytes();
    }

    /** The next stream, located but not yet decompressed. */
    Pending pending() {
      int method = directory.read();
      int length = directory.count();
      switch (method) {
        case INLINE:
          return new Pending(directory.bytes(length), 0, length, -1);
        case SEPARATE_RAW:
          {
            int at = body.position();
            body.skip(length);
            return new Pending(body.array(), at, length, -1);
          }
        case SEPARATE_ZSTD:
          {
            if (length > limit) {
              throw new ColumnarException(
                  "damaged columnar copy: a stream of " + length + " bytes");
            }
            int stored = directory.count();
            int at = body.position();
            body.skip(stored);
            return new Pending(body.array(), at, stored, length);
          }
        default:
          throw new ColumnarException("damaged columnar copy: unknown stream method " + method);
      }
    }
  }

  /**
   * A stream's bytes in the copy, decompressed when asked: streams are decompressed in parallel.
   *
   * @param length the decompressed length for a zstd stream, -1 for one stored raw
   */
  record Pending(byte[] source, int offset, int stored, int length) {
    byte[] bytes() {
      if (length < 0) {
        return offset == 0 && stored == source.length
            ? source
            : java.util.Arrays.copyOfRange(source, offset, offset + stored);
      }
      byte[] out = new byte[length];
      long n;
      try {
        n = Zstd.decompressByteArray(out, 0, length, source, offset, stored);
      } catch (RuntimeException e) {
        throw new ColumnarException("damaged columnar copy: a stream does not decompress", e);
      }
      if (Zstd.isError(n) || n != length) {
        throw new ColumnarException("damaged columnar copy: a stream does not decompress");
      }
      return out;
    }
  }

  /** A stream's bytes, and their zstd frame when it is worth keeping, else null. */
  record Piece(byte[] raw, byte[] zstd) {}

  /**
   * Runs {@code jobs}, each making one stream, on up to as many threads as the JVM has processors
   * (each with its own compression context); the pieces come back in the jobs' order.
   */
  static Piece[] make(java.util.List<java.util.function.Function<Writer, Piece>> jobs, int level) {
    Piece[] pieces = new Piece[jobs.size()];
    java.util.concurrent.atomic.AtomicInteger next =
        new java.util.concurrent.atomic.AtomicInteger();
    int workers = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), jobs.size()));
    java.util.stream.IntStream.range(0, workers)
        .parallel()
        .forEach(
            w -> {
              try (Writer writer = new Writer(level)) {
                for (int j; (j = next.getAndIncrement()) < pieces.length; ) {
                  pieces[j] = jobs.get(j).apply(writer);
                }
              }
            });
    return pieces;
  }

  /** Reads the next stream of {@code in}, decompressed, refusing one of more than {@code limit}. */
  static byte[] read(ByteSource in, ZstdDecompressCtx ctx, long limit) {
    int method = in.read();
    int stored = in.count();
    if (method == RAW) {
      return in.bytes(stored);
    }
    if (method != ZSTD) {
      throw new ColumnarException("damaged columnar copy: unknown stream method " + method);
    }
    int raw = in.count();
    if (raw > MAX_STREAM || raw > limit) {
      throw new ColumnarException("damaged columnar copy: a stream of " + raw + " bytes");
    }
    if (stored > in.remaining()) {
      throw ByteSource.truncated();
    }
    byte[] out = new byte[raw];
    int n;
    try {
      n = ctx.decompressByteArray(out, 0, raw, in.array(), in.position(), stored);
    } catch (RuntimeException e) {
      throw new ColumnarException("damaged columnar copy: a stream does not decompress", e);
    }
    if (n != raw) {
      throw new ColumnarException(
          "damaged columnar copy: a stream decompresses to " + n + " bytes, not " + raw);
    }
    in.skip(stored);
    return out;
  }

  static int varintSize(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      n++;
      v >>>= 7;
    }
    return n;
  }
}
