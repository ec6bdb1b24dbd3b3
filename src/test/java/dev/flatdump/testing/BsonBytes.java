package dev.flatdump.testing;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.bson.RawBsonDocument;

/**
 * BSON documents written byte by byte, for what no driver writes: a field given twice, a string
 * that is not UTF-8, a bool of 2. Each method returns one element ({@code type, name, value}) or a
 * whole document; {@link #raw} wraps one for inserting.
 */
public final class BsonBytes {

  private BsonBytes() {}

  /** A document of these elements. */
  public static byte[] doc(byte[]... elements) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (byte[] e : elements) {
      body.writeBytes(e);
    }
    body.write(0);
    return concat(le32(body.size() + 4), body.toByteArray());
  }

  public static RawBsonDocument raw(byte[]... elements) {
    return new RawBsonDocument(doc(elements));
  }

  public static byte[] element(int type, String name, byte[] value) {
    return concat(new byte[] {(byte) type}, cstring(name), value);
  }

  public static byte[] int32(String name, int v) {
    return element(0x10, name, le32(v));
  }

  public static byte[] int64(String name, long v) {
    return element(
        0x12, name, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
  }

  public static byte[] nul(String name) {
    return element(0x0A, name, new byte[0]);
  }

  public static byte[] bool(String name, int b) {
    return element(0x08, name, new byte[] {(byte) b});
  }

  public static byte[] string(String name, String s) {
    return string(name, s.getBytes(StandardCharsets.UTF_8));
  }

  /** A string of these bytes, valid UTF-8 or not. */
  public static byte[] string(String name, byte[] utf8) {
    return element(0x02, name, concat(le32(utf8.length + 1), utf8, new byte[] {0}));
  }

  /** Code (0x0D) or a symbol (0x0E): a string of these bytes. */
  public static byte[] code(int type, String name, byte[] utf8) {
    return element(type, name, concat(le32(utf8.length + 1), utf8, new byte[] {0}));
  }

  /** Code with scope: its code's bytes, and its scope document. */
  public static byte[] codeWithScope(String name, byte[] code, byte[] scope) {
    byte[] string = concat(le32(code.length + 1), code, new byte[] {0});
    return element(0x0F, name, concat(le32(4 + string.length + scope.length), string, scope));
  }

  /** A DBPointer: its namespace's bytes and a 12-byte id. */
  public static byte[] dbPointer(String name, byte[] namespace) {
    return element(
        0x0C, name, concat(le32(namespace.length + 1), namespace, new byte[] {0}, new byte[12]));
  }

  public static byte[] document(String name, byte[] doc) {
    return element(0x03, name, doc);
  }

  /** An array of these values' elements, named 0, 1, ... by the caller. */
  public static byte[] array(String name, byte[] doc) {
    return element(0x04, name, doc);
  }

  public static byte[] le32(int v) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
  }

  public static byte[] cstring(String s) {
    return concat(s.getBytes(StandardCharsets.UTF_8), new byte[] {0});
  }

  public static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
