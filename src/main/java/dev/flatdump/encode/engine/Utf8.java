package dev.flatdump.encode.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Locale;

/**
 * Strict UTF-8 (RFC 3629), the one rule for every string flatdump reads or writes: no overlong
 * forms, no surrogates (U+D800..U+DFFF), nothing above U+10FFFF, no truncated sequence. This is
 * exactly what FlatBuffers' {@code Utf8Safe} (the Java default) accepts, so a string that passes
 * here decodes without an exception there.
 *
 * <p>The engine checks BSON strings in byte arrays, the verifier FlatBuffers strings in (mapped)
 * buffers. Both loops apply the same two rules, {@link #continuations} and {@link #shortestScalar},
 * and both give the offset of the first byte that begins a bad sequence; each caller words its own
 * message. Static and stateless.
 */
public final class Utf8 {

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The high bit of each of a long's eight bytes: clear in all for eight ASCII bytes. */
  private static final long HIGH_BITS = 0x8080808080808080L;

  private Utf8() {}

  /** Whether {@code b[from, to)} is well-formed UTF-8. */
  static boolean valid(byte[] b, int from, int to) {
    return firstInvalid(b, from, to) < 0;
  }

  /**
   * Why {@code b[from, to)} is not UTF-8, for a reject: the first byte that begins a bad sequence
   * and its offset in the string's bytes, as {@code not valid UTF-8: byte 0xFF at offset 0}.
   */
  static String reason(byte[] b, int from, int to) {
    int at = firstInvalid(b, from, to);
    return at < 0
        ? "valid UTF-8"
        : String.format(
            Locale.ROOT, "not valid UTF-8: byte 0x%02X at offset %d", b[from + at] & 0xff, at);
  }

  /** The offset (from {@code from}) of the first byte that begins a bad sequence, or -1. */
  static int firstInvalid(byte[] b, int from, int to) {
    int i = from;
    while (i < to) {
      // eight ASCII bytes at a time: most text is, and they need no more
      while (i + Long.BYTES <= to && ((long) LONG_LE.get(b, i) & HIGH_BITS) == 0) {
        i += Long.BYTES;
      }
      if (i >= to) {
        break;
      }
      int c = b[i] & 0xff;
      if (c < 0x80) {
        i++;
        continue;
      }
      int n = continuations(c);
      if (n < 0 || to - i <= n) {
        return i - from;
      }
      int cp = c & (0x3F >> n);
      for (int k = 1; k <= n; k++) {
        int cc = b[i + k] & 0xff;
        if ((cc & 0xC0) != 0x80) {
          return i - from;
        }
        cp = (cp << 6) | (cc & 0x3F);
      }
      if (!shortestScalar(cp, n)) {
        return i - from;
      }
      i += n + 1;
    }
    return -1;
  }

  /**
   * The offset (from {@code start}) of the first byte that begins a bad sequence in the {@code
   * length} bytes at {@code start}, read by absolute index, or -1 when all are valid UTF-8. The
   * caller has checked that {@code start + length} lies within the buffer's limit; the buffer's
   * position and order do not matter and are kept.
   */
  public static int firstInvalid(ByteBuffer buf, int start, int length) {
    int i = 0;
    while (i < length) {
      if (length - i >= Long.BYTES && (buf.getLong(start + i) & HIGH_BITS) == 0) {
        i += Long.BYTES; // eight ASCII bytes at once: the common case
        continue;
      }
      int c = buf.get(start + i) & 0xff;
      if (c < 0x80) {
        i++;
        continue;
      }
      int n = continuations(c);
      if (n < 0 || length - i <= n) {
        return i;
      }
      int cp = c & (0x3F >> n);
      for (int k = 1; k <= n; k++) {
        int cc = buf.get(start + i + k) & 0xff;
        if ((cc & 0xC0) != 0x80) {
          return i;
        }
        cp = (cp << 6) | (cc & 0x3F);
      }
      if (!shortestScalar(cp, n)) {
        return i;
      }
      i += n + 1;
    }
    return -1;
  }

  /**
   * How many continuation bytes follow the lead byte {@code c} (0x80 and up): 1 to 3; -1 for a byte
   * no sequence begins with (a continuation byte, 0xC0 and 0xC1, which begin only overlong forms,
   * and 0xF5 and up, which begin only values above U+10FFFF).
   */
  private static int continuations(int c) {
    if (c >= 0xC2 && c <= 0xDF) {
      return 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      return 2;
    } else if (c >= 0xF0 && c <= 0xF4) {
      return 3;
    }
    return -1;
  }

  /**
   * Whether {@code cp}, decoded from a lead byte and {@code n} continuation bytes, is a scalar
   * value in its shortest form: not overlong, not a surrogate, at most U+10FFFF.
   */
  private static boolean shortestScalar(int cp, int n) {
    int min = n == 1 ? 0x80 : n == 2 ? 0x800 : 0x10000;
    return cp >= min && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
  }
}
