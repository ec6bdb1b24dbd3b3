package dev.flatdump.example.lookup;

import dev.flatdump.reader.ExportManifest;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** The key of a request: taken from its path, and read as the export's key type. */
final class Keys {
  private Keys() {}

  /**
   * The URL path segment {@code raw}, percent-decoded as UTF-8 (RFC 3986: {@code +} stays a plus
   * sign, {@code %2F} is a slash).
   *
   * @throws IllegalArgumentException when an escape is malformed or the bytes are not UTF-8
   */
  static String decode(String raw) {
    if (raw.indexOf('%') < 0) {
      return raw;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '%') {
        bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
        continue;
      }
      int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
      int lo = hi >= 0 ? Character.digit(raw.charAt(i + 2), 16) : -1;
      if (lo < 0) {
        throw new IllegalArgumentException("malformed %-escape at " + i + " of '" + raw + "'");
      }
      bytes.write(hi << 4 | lo);
      i += 2;
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("the key '" + raw + "' is not UTF-8 once decoded");
    }
  }

  /**
   * {@code text} as the records' integer key: in decimal, within the range of its type ({@code
   * byte} ... {@code ulong}; an unsigned one's bits as a long, as {@code Snapshot.lookup} takes
   * it).
   *
   * @throws IllegalArgumentException saying why {@code text} is no such key
   */
  static long integer(String text, ExportManifest.Lookup lookup) {
    String type = lookup.keyType();
    boolean unsigned = type.startsWith("u");
    String what = "the records' key " + lookup.keyField() + " is a " + type;
    long value;
    try {
      value = unsigned ? Long.parseUnsignedLong(text) : Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not an integer key: " + what);
    }
    int bits =
        switch (unsigned ? type.substring(1) : type) {
          case "byte" -> 8;
          case "short" -> 16;
          case "int" -> 32;
          default -> 64;
        };
    boolean inRange =
        bits == 64
            || (unsigned
                ? value >>> bits == 0
                : value >= -(1L << (bits - 1)) && value < 1L << (bits - 1));
    if (!inRange) {
      throw new IllegalArgumentException(text + " is out of range: " + what);
    }
    return value;
  }
}
