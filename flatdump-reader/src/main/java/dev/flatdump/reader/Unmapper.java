package dev.flatdump.reader;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * Releases a mapped buffer's mapping at once, on Java 9 to 20, as Lucene's {@code MMapDirectory}
 * does on Java 17: {@code sun.misc.Unsafe.invokeCleaner}, looked up reflectively once. Where it is
 * not available (a JVM without {@code jdk.unsupported}, a security manager), {@link #unmap} does
 * nothing and the mapping is released when the garbage collector finds the buffer unreachable:
 * later, but never a crash. Thread-safe.
 *
 * <p>The caller's invariant: nothing touches the buffer, or any duplicate or slice of it, after
 * {@link #unmap}; a read of unmapped memory crashes the JVM. {@link Snapshot}'s reference count is
 * what keeps it.
 */
public final class Unmapper {

  /** {@code (ByteBuffer)void}, bound to the {@code Unsafe} instance; null when unavailable. */
  private static final MethodHandle CLEANER;

  /** Why the cleaner is unavailable, or null. */
  private static final String UNAVAILABLE;

  static {
    MethodHandle cleaner = null;
    String why = null;
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field f = unsafeClass.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      Object unsafe = f.get(null);
      cleaner =
          MethodHandles.lookup()
              .findVirtual(
                  unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
              .bindTo(unsafe);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      why = e.toString();
    }
    CLEANER = cleaner;
    UNAVAILABLE = why;
  }

  private Unmapper() {}

  /** Whether {@link #unmap} releases mappings at once; if not, the GC does. */
  public static boolean available() {
    return CLEANER != null;
  }

  /** Why mappings are left to the GC, or null when they are not. */
  static String unavailableReason() {
    return UNAVAILABLE;
  }

  /**
   * Releases {@code buffer}'s mapping now when possible.
   *
   * @param buffer a buffer returned by {@code FileChannel.map} itself, not a duplicate or slice
   * @return whether it was released now (false: left to the GC)
   */
  public static boolean unmap(ByteBuffer buffer) {
    if (CLEANER == null || !buffer.isDirect()) {
      return false;
    }
    try {
      CLEANER.invokeExact(buffer);
      return true;
    } catch (Throwable e) {
      // a duplicate, or a JVM that refuses: leave it to the GC rather than fail a close
      return false;
    }
  }
}
