package dev.flatdump.artifact;

import java.nio.ByteBuffer;

/**
 * Strict UTF-8 validation (RFC 3629) of bytes in a buffer, read by absolute index: no overlong
 * forms, no surrogates (U+D800..U+DFFF), nothing above U+10FFFF, no truncated sequence. This is
 * exactly what FlatBuffers' {@code Utf8Safe} (the Java default) accepts, so a string that passes
 * here decodes without an exception there.
 */
final class VerifierUtf8 {

  private static final long HIGH_BITS = 0x8080808080808080L;

  private VerifierUtf8() {}

  /**
   * The index (from {@code start}) of the first byte that begins an invalid sequence, or -1 when
   * all {@code length} bytes are valid UTF-8. The caller has checked that {@code start + length}
   * lies within the buffer's limit.
   */
  static int firstInvalid(ByteBuffer buf, int start, int length) {
    int i = 0;
    while (i < length) {
      if (length - i >= Long.BYTES && (buf.getLong(start + i) & HIGH_BITS) == 0) {
        i += Long.BYTES; // eight ASCII bytes at once: the common case
        continue;
      }
      int b1 = buf.get(start + i) & 0xFF;
      if (b1 < 0x80) {
        i++;
        continue;
      }
      int continuation;
      int min2 = 0x80;
      int max2 = 0xBF;
      if (b1 < 0xC2) {
        return i; // a continuation byte in lead position, or an overlong 2-byte form
      } else if (b1 < 0xE0) {
        continuation = 1;
      } else if (b1 < 0xF0) {
        continuation = 2;
        if (b1 == 0xE0) {
          min2 = 0xA0; // overlong
        } else if (b1 == 0xED) {
          max2 = 0x9F; // surrogates
        }
      } else if (b1 < 0xF5) {
        continuation = 3;
        if (b1 == 0xF0) {
          min2 = 0x90; // overlong
        } else if (b1 == 0xF4) {
          max2 = 0x8F; // above U+10FFFF
        }
      } else {
        return i;
      }
      if (length - i <= continuation) {
        return i; // truncated
      }
      int b2 = buf.get(start + i + 1) & 0xFF;
      if (b2 < min2 || b2 > max2) {
        return i;
      }
      for (int k = 2; k <= continuation; k++) {
        int b = buf.get(start + i + k) & 0xFF;
        if (b < 0x80 || b > 0xBF) {
          return i;
        }
      }
      i += continuation + 1;
    }
    return -1;
  }
}
