package dev.flatdump.columnar;

/**
 * A column's scalars as one stream: an encoding byte, the count, then the values in that encoding.
 * The writer tries the encodings that suit the column's kind, compresses each and keeps the
 * smallest: what wins is measured per column, not chosen by kind alone. Values are held as longs:
 * signed kinds sign-extended, unsigned ones zero-extended, floats as their bits.
 */
final class Values {

  /** Each value's {@code width} bytes, little-endian. */
  static final int RAW = 0;

  /** Zig-zag varints. */
  static final int VARINT = 1;

  /** Zig-zag varints of each value minus the one before (the first minus 0), wrapping. */
  static final int DELTA = 2;

  /**
   * Frame of reference: the least value (zig-zag varint), a bit width, then each value minus it,
   * bit-packed.
   */
  static final int FOR = 3;

  /** Byte planes: every value's lowest byte, then every value's next byte, ... */
  static final int SPLIT = 4;

  /** Byte planes of each value XOR the one before (the first XOR 0). */
  static final int XOR_SPLIT = 5;

  /** One bit per value (0 or 1), low bits first. */
  static final int BITS = 6;

  /** Columns with fewer values are written as varints (or raw bytes) without trying others. */
  private static final int TRY_FROM = 32;

  private Values() {}

  /**
   * The stream of a column's codes (references, vtables, lengths): non-negative, as wide as the
   * largest needs.
   */
  static ByteSink writeCodes(Streams.Writer streams, long[] values, int n) {
    long max = 0;
    for (int i = 0; i < n; i++) {
      max |= values[i];
    }
    int width = Math.max(1, (64 - Long.numberOfLeadingZeros(max) + 7) / 8);
    width = width <= 2 ? width : width <= 4 ? 4 : 8;
    return write(streams, values, n, width, false);
  }

  /** The stream of {@code values} of a column of {@code width} bytes. */
  static ByteSink write(Streams.Writer streams, long[] values, int n, int width, boolean real) {
    int[] candidates;
    if (real) {
      candidates = n < TRY_FROM ? new int[] {RAW} : new int[] {SPLIT, XOR_SPLIT};
    } else if (width == 1) {
      boolean bits = true;
      for (int i = 0; i < n && bits; i++) {
        bits = (values[i] & ~1L) == 0;
      }
      candidates = bits ? new int[] {BITS} : n < TRY_FROM ? new int[] {RAW} : new int[] {RAW, FOR};
    } else {
      candidates = n < TRY_FROM ? new int[] {VARINT} : new int[] {VARINT, DELTA, FOR, SPLIT};
    }
    if (candidates.length > 1 && n > SAMPLE) {
      // Measured on a sample: four runs of the column's values, from its start to its end.
      long[] sample = new long[SAMPLE];
      int run = SAMPLE / 4;
      for (int k = 0; k < 4; k++) {
        System.arraycopy(values, (int) ((long) (n - run) * k / 3), sample, k * run, run);
      }
      int chosen = best(streams, candidates, sample, SAMPLE, width).array()[0];
      candidates = new int[] {chosen};
    }
    return best(streams, candidates, values, n, width);
  }

  /** Columns with more values choose their encoding on a sample of this many. */
  private static final int SAMPLE = 1 << 16;

  private static ByteSink best(
      Streams.Writer streams, int[] candidates, long[] values, int n, int width) {
    ByteSink best = null;
    int bestSize = Integer.MAX_VALUE;
    for (int encoding : candidates) {
      ByteSink payload = new ByteSink(Math.max(64, n * Math.min(width, 4) + 16));
      encode(payload, encoding, values, n, width);
      int size =
          candidates.length == 1 || payload.size() < Streams.SMALL
              ? payload.size()
              : streams.storedSize(payload.array(), payload.size());
      if (size < bestSize) {
        bestSize = size;
        best = payload;
      }
    }
    return best;
  }

  static void encode(ByteSink p, int encoding, long[] v, int n, int width) {
    p.write(encoding);
    p.write(width);
    p.varint(n);
    switch (encoding) {
      case RAW -> {
        for (int i = 0; i < n; i++) {
          p.fixed(v[i], width);
        }
      }
      case VARINT -> {
        for (int i = 0; i < n; i++) {
          p.zigzag(v[i]);
        }
      }
      case DELTA -> {
        long prev = 0;
        for (int i = 0; i < n; i++) {
          p.zigzag(v[i] - prev);
          prev = v[i];
        }
      }
      case FOR -> {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
          min = Math.min(min, v[i]);
        }
        long or = 0;
        for (int i = 0; i < n; i++) {
          or |= v[i] - min;
        }
        int bits = 64 - Long.numberOfLeadingZeros(or);
        p.zigzag(n == 0 ? 0 : min);
        p.write(bits);
        packBits(p, v, n, min, bits);
      }
      case SPLIT, XOR_SPLIT -> {
        byte[] planes = new byte[n * width];
        long prev = 0;
        for (int i = 0; i < n; i++) {
          long x = encoding == SPLIT ? v[i] : v[i] ^ prev;
          prev = v[i];
          for (int b = 0; b < width; b++) {
            planes[b * n + i] = (byte) (x >>> (8 * b));
          }
        }
        p.write(planes);
      }
      case BITS -> packBits(p, v, n, 0, 1);
      default -> throw new IllegalArgumentException("encoding " + encoding);
    }
  }

  private static void packBits(ByteSink p, long[] v, int n, long min, int bits) {
    if (bits == 0) {
      return;
    }
    int cur = 0;
    int used = 0;
    for (int i = 0; i < n; i++) {
      long x = v[i] - min;
      int done = 0;
      while (done < bits) {
        int take = Math.min(8 - used, bits - done);
        cur |= (int) ((x >>> done) & ((1 << take) - 1)) << used;
        used += take;
        done += take;
        if (used == 8) {
          p.write(cur);
          cur = 0;
          used = 0;
        }
      }
    }
    if (used > 0) {
      p.write(cur);
    }
  }

  /**
   * Reads a stream {@link #write} wrote: its values, {@code width} bytes each, sign-extended when
   * {@code signed}.
   */
  static long[] read(byte[] stream, boolean signed, int max) {
    return read(stream, signed, new java.util.concurrent.atomic.AtomicLong(max));
  }

  /**
   * As {@link #read(byte[], boolean, int)}, its count taken from {@code budget}, shared by the
   * streams of one copy: every value of a copy stands for at least one byte of the shard, so their
   * count is at most its size, checked before their array is allocated.
   */
  static long[] read(byte[] stream, boolean signed, java.util.concurrent.atomic.AtomicLong budget) {
    ByteSource in = new ByteSource(stream);
    if (stream.length == 0) {
      return new long[0];
    }
    int encoding = in.read();
    int width = in.read();
    if (width != 1 && width != 2 && width != 4 && width != 8) {
      throw Columns.damaged("values " + width + " bytes wide");
    }
    int n = in.count();
    if (budget.addAndGet(-n) < 0) {
      throw Columns.damaged("a column of " + n + " values in " + stream.length + " bytes");
    }
    long[] v = new long[n];
    switch (encoding) {
      case RAW -> {
        if ((long) n * width > in.remaining()) {
          throw ByteSource.truncated();
        }
        byte[] a = in.array();
        int p = in.position();
        for (int i = 0; i < n; i++, p += width) {
          long x =
              switch (width) {
                case 1 -> a[p];
                case 2 -> LittleEndian.getShort(a, p);
                case 4 -> LittleEndian.getInt(a, p);
                default -> LittleEndian.getLong(a, p);
              };
          v[i] = extend(x, width, signed);
        }
        in.skip(n * width);
      }
      case VARINT -> {
        for (int i = 0; i < n; i++) {
          v[i] = in.zigzag();
        }
      }
      case DELTA -> {
        long prev = 0;
        for (int i = 0; i < n; i++) {
          prev += in.zigzag();
          v[i] = prev;
        }
      }
      case FOR -> {
        long min = in.zigzag();
        int bits = in.read();
        if (bits > 64) {
          throw Columns.damaged("a bit width of " + bits);
        }
        unpackBits(in, v, n, min, bits);
      }
      case SPLIT, XOR_SPLIT -> {
        if ((long) n * width > in.remaining()) {
          throw ByteSource.truncated();
        }
        byte[] a = in.array();
        int base = in.position();
        long prev = 0;
        for (int i = 0; i < n; i++) {
          long x = 0;
          for (int b = 0; b < width; b++) {
            x |= (a[base + b * n + i] & 0xffL) << (8 * b);
          }
          if (encoding == XOR_SPLIT) {
            x ^= prev;
          }
          prev = x;
          v[i] = extend(x, width, signed);
        }
        in.skip(n * width);
      }
      case BITS -> unpackBits(in, v, n, 0, 1);
      default -> throw Columns.damaged("unknown value encoding " + encoding);
    }
    if (in.remaining() != 0) {
      throw Columns.damaged("a column with " + in.remaining() + " bytes after its values");
    }
    return v;
  }

  private static void unpackBits(ByteSource in, long[] v, int n, long min, int bits) {
    if (bits == 0) {
      java.util.Arrays.fill(v, min);
      return;
    }
    long needed = ((long) n * bits + 7) / 8;
    if (needed > in.remaining()) {
      throw ByteSource.truncated();
    }
    byte[] a = in.array();
    int base = in.position();
    long mask = bits == 64 ? -1L : (1L << bits) - 1;
    if (bits <= 56) {
      // Eight bytes from the value's first hold all of its bits: read them at once.
      byte[] padded = java.util.Arrays.copyOfRange(a, base, base + (int) needed + 8);
      long bit = 0;
      for (int i = 0; i < n; i++) {
        long word = LittleEndian.getLong(padded, (int) (bit >>> 3));
        v[i] = ((word >>> (bit & 7)) & mask) + min;
        bit += bits;
      }
      in.skip((int) needed);
      return;
    }
    long bit = 0;
    for (int i = 0; i < n; i++) {
      long x = 0;
      int got = 0;
      while (got < bits) {
        int byteIndex = (int) (bit >>> 3);
        int shift = (int) (bit & 7);
        int take = Math.min(8 - shift, bits - got);
        long chunk = ((a[base + byteIndex] & 0xff) >>> shift) & ((1 << take) - 1);
        x |= chunk << got;
        got += take;
        bit += take;
      }
      v[i] = (x & mask) + min;
    }
    in.skip((int) needed);
  }

  static long extend(long x, int width, boolean signed) {
    if (width == 8) {
      return x;
    }
    int shift = 64 - 8 * width;
    return signed ? (x << shift) >> shift : x & ((1L << (8 * width)) - 1);
  }
}
