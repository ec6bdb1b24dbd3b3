package dev.flatdump.columnar;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian reads and writes in byte arrays, bounds-checked by the JVM. */
final class LittleEndian {
  private static final VarHandle SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private LittleEndian() {}

  static void putShort(byte[] a, int p, short v) {
    SHORT.set(a, p, v);
  }

  static void putInt(byte[] a, int p, int v) {
    INT.set(a, p, v);
  }

  static void putLong(byte[] a, int p, long v) {
    LONG.set(a, p, v);
  }

  static short getShort(byte[] a, int p) {
    return (short) SHORT.get(a, p);
  }

  static int getInt(byte[] a, int p) {
    return (int) INT.get(a, p);
  }

  static long getLong(byte[] a, int p) {
    return (long) LONG.get(a, p);
  }
}
