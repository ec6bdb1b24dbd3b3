package dev.flatdump.reader;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON parser, for {@code manifest.json} only: objects become {@link Map}s (in order),
 * arrays {@link List}s, strings {@link String}s, integers {@link Long}s (or {@link
 * java.math.BigInteger}s beyond a long's range: a {@code ulong} key), other numbers {@link
 * Double}s, {@code true}/{@code false} {@link Boolean}s and {@code null} null. Strict RFC 8259
 * syntax; an error says at which character. Stateless apart from one parse.
 */
final class ManifestJson {

  private final String text;
  private int pos;

  private ManifestJson(String text) {
    this.text = text;
  }

  /**
   * Parses one JSON value filling the whole text.
   *
   * @throws IllegalArgumentException with the offset of the first error
   */
  static Object parse(String text) {
    ManifestJson p = new ManifestJson(text);
    Object value = p.value();
    p.skipSpace();
    if (p.pos != text.length()) {
      throw p.error("text after the JSON value");
    }
    return value;
  }

  private Object value() {
    skipSpace();
    if (pos >= text.length()) {
      throw error("a value expected, found the end");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw error("unexpected '" + c + "'");
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    pos++;
    skipSpace();
    if (peek() == '}') {
      pos++;
      return map;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw error("a member name expected");
      }
      String name = string();
      skipSpace();
      expect(':');
      map.put(name, value());
      skipSpace();
      char c = next();
      if (c == '}') {
        return map;
      }
      if (c != ',') {
        throw error("',' or '}' expected");
      }
    }
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    pos++;
    skipSpace();
    if (peek() == ']') {
      pos++;
      return list;
    }
    while (true) {
      list.add(value());
      skipSpace();
      char c = next();
      if (c == ']') {
        return list;
      }
      if (c != ',') {
        throw error("',' or ']' expected");
      }
    }
  }

  private String string() {
    pos++;
    StringBuilder sb = new StringBuilder();
    while (true) {
      char c = next();
      if (c == '"') {
        return sb.toString();
      }
      if (c < 0x20) {
        throw error("a control character in a string");
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char e = next();
      switch (e) {
        case '"', '\\', '/' -> sb.append(e);
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          if (pos + 4 > text.length()) {
            throw error("a short \\u escape");
          }
          try {
            sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          } catch (NumberFormatException x) {
            throw error("a bad \\u escape");
          }
          pos += 4;
        }
        default -> throw error("a bad escape '\\" + e + "'");
      }
    }
  }

  private Object number() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    boolean integral = true;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c >= '0' && c <= '9') {
        pos++;
      } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        integral = false;
        pos++;
      } else {
        break;
      }
    }
    String n = text.substring(start, pos);
    try {
      if (!integral) {
        return Double.parseDouble(n);
      }
      java.math.BigInteger big = new java.math.BigInteger(n);
      return big.bitLength() < 64 ? (Object) big.longValue() : big;
    } catch (NumberFormatException e) {
      pos = start;
      throw error("a bad number '" + n + "'");
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected '" + text.charAt(pos) + "'");
    }
    pos += word.length();
    return value;
  }

  private void expect(char c) {
    if (next() != c) {
      pos--;
      throw error("'" + c + "' expected");
    }
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private char next() {
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    return text.charAt(pos++);
  }

  private void skipSpace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at character " + pos);
  }

  /**
   * {@code bytes} as text, refusing what is not UTF-8.
   *
   * @throws CharacterCodingException when they are not
   */
  static String utf8(byte[] bytes) throws CharacterCodingException {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(bytes))
        .toString();
  }

  /**
   * {@code value} as a parsed object, or an {@link IllegalArgumentException} naming {@code what}.
   */
  static Map<?, ?> object(Object value, String what) {
    if (value instanceof Map<?, ?> m) {
      return m;
    }
    throw new IllegalArgumentException(what + " is not an object: " + value);
  }

  /** {@code value} as a parsed array, likewise. */
  static List<?> list(Object value, String what) {
    if (value instanceof List<?> l) {
      return l;
    }
    throw new IllegalArgumentException(what + " is not an array: " + value);
  }

  /** {@code value} as a string, likewise. */
  static String string(Object value, String what) {
    if (value instanceof String s) {
      return s;
    }
    throw new IllegalArgumentException(what + " is not a string: " + value);
  }

  /** {@code value} as an integer, likewise. */
  static long number(Object value, String what) {
    if (value instanceof Long n) {
      return n;
    }
    throw new IllegalArgumentException(what + " is not an integer: " + value);
  }
}
