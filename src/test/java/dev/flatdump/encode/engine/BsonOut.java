package dev.flatdump.encode.engine;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * BSON written byte by byte, so that a test can write what the driver's writer refuses: a field
 * given twice, strings that are not UTF-8, a bool byte of 2. Not thread-safe.
 */
final class BsonOut {

  static final byte DOUBLE = 0x01;
  static final byte STRING = 0x02;
  static final byte DOCUMENT = 0x03;
  static final byte ARRAY = 0x04;
  static final byte BINARY = 0x05;
  static final byte OBJECT_ID = 0x07;
  static final byte BOOL = 0x08;
  static final byte DATE = 0x09;
  static final byte NULL = 0x0A;
  static final byte INT32 = 0x10;
  static final byte TIMESTAMP = 0x11;
  static final byte INT64 = 0x12;
  static final byte DECIMAL128 = 0x13;
  static final byte REGEX = 0x0B;
  static final byte JAVASCRIPT = 0x0D;
  static final byte MIN_KEY = (byte) 0xFF;
  static final byte MAX_KEY = 0x7F;

  private byte[] b = new byte[256];
  private int n;

  /** Starts the top-level document; returns where it starts, for {@link #end}. */
  int begin() {
    int at = n;
    putInt(0);
    return at;
  }

  /** Starts a document or array value named {@code name}; returns where it starts. */
  int begin(byte type, String name) {
    head(type, name);
    return begin();
  }

  void end(int start) {
    put(0);
    int size = n - start;
    b[start] = (byte) size;
    b[start + 1] = (byte) (size >> 8);
    b[start + 2] = (byte) (size >> 16);
    b[start + 3] = (byte) (size >> 24);
  }

  /** A name of raw bytes (perhaps not UTF-8), its value to follow. */
  void head(byte type, byte[] name) {
    put(type);
    for (byte x : name) {
      put(x);
    }
    put(0);
  }

  /** An int32 value after {@link #head}. */
  void int32Payload(int v) {
    putInt(v);
  }

  /** A value of any type, its payload as given. */
  void raw(byte type, String name, byte[] payload) {
    head(type, name);
    for (byte x : payload) {
      put(x);
    }
  }

  void head(byte type, String name) {
    put(type);
    byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
    for (byte x : bytes) {
      put(x);
    }
    put(0);
  }

  void dbl(String name, long bits) {
    head(DOUBLE, name);
    putLong(bits);
  }

  void int32(String name, int v) {
    head(INT32, name);
    putInt(v);
  }

  void int64(String name, long v) {
    head(INT64, name);
    putLong(v);
  }

  void date(String name, long v) {
    head(DATE, name);
    putLong(v);
  }

  void timestamp(String name, long v) {
    head(TIMESTAMP, name);
    putLong(v);
  }

  void bool(String name, int byteValue) {
    head(BOOL, name);
    put(byteValue);
  }

  void nul(String name) {
    head(NULL, name);
  }

  void string(String name, byte[] utf8) {
    head(STRING, name);
    putInt(utf8.length + 1);
    for (byte x : utf8) {
      put(x);
    }
    put(0);
  }

  void string(String name, String s) {
    string(name, s.getBytes(StandardCharsets.UTF_8));
  }

  /** Binary data; subtype 2 ("old binary") gets its inner length before the bytes. */
  void binary(String name, int subtype, byte[] data) {
    head(BINARY, name);
    boolean old = subtype == 2;
    putInt(data.length + (old ? 4 : 0));
    put(subtype);
    if (old) {
      putInt(data.length);
    }
    for (byte x : data) {
      put(x);
    }
  }

  void objectId(String name, byte[] twelve) {
    head(OBJECT_ID, name);
    for (byte x : twelve) {
      put(x);
    }
  }

  void decimal128(String name, org.bson.types.Decimal128 d) {
    head(DECIMAL128, name);
    putLong(d.getLow());
    putLong(d.getHigh());
  }

  byte[] bytes() {
    return Arrays.copyOf(b, n);
  }

  private void put(int x) {
    if (n == b.length) {
      b = Arrays.copyOf(b, 2 * n);
    }
    b[n++] = (byte) x;
  }

  private void putInt(int v) {
    for (int i = 0; i < 4; i++) {
      put(v >> (8 * i));
    }
  }

  private void putLong(long v) {
    for (int i = 0; i < 8; i++) {
      put((int) (v >> (8 * i)));
    }
  }
}
