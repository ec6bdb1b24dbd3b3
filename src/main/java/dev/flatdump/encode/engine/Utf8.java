package dev.flatdump.encode.engine;

/** Strict UTF-8 checks of byte ranges: no overlong forms, no surrogates, nothing past U+10FFFF. */
final class Utf8 {

  private static final java.lang.invoke.VarHandle LONG_LE =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
          long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

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
            java.util.Locale.ROOT,
            "not valid UTF-8: byte 0x%02X at offset %d",
            b[from + at] & 0xff,
            at);
  }

  /** The offset (from {@code from}) of the first byte that begins a bad sequence, or -1. */
  static int firstInvalid(byte[] b, int from, int to) {
    int i = from;
    while (i < to) {
      // eight ASCII bytes at a time: most text is, and they need no more
      while (i + 8 <= to && ((long) LONG_LE.get(b, i) & 0x8080808080808080L) == 0) {
        i += 8;
      }
      if (i >= to) {
        break;
      }
      int c = b[i] & 0xff;
      if (c < 0x80) {
        i++;
        continue;
      }
      int n;
      int min;
      if (c >= 0xC2 && c <= 0xDF) {
        n = 1;
        min = 0x80;
      } else if (c >= 0xE0 && c <= 0xEF) {
        n = 2;
        min = 0x800;
      } else if (c >= 0xF0 && c <= 0xF4) {
        n = 3;
        min = 0x10000;
      } else {
        return i - from;
      }
      if (to - i <= n) {
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
      if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return i - from;
      }
      i += n + 1;
    }
    return -1;
  }
}
