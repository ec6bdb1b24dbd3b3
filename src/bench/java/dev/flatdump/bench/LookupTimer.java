package dev.flatdump.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Times lookups one by one with {@link System#nanoTime()} around each, on random keys: on this
 * thread ({@link #time}), or on several threads for a while, with or without something running
 * beside them ({@link #underLoad}). Each timing includes one {@code nanoTime} call's cost.
 */
final class LookupTimer {

  /** One lookup: the found record's name's length (so the JIT keeps the read), or -1. */
  @FunctionalInterface
  interface Lookup {
    int find(String key);
  }

  /**
   * What {@link #underLoad} measured.
   *
   * @param samples every lookup's time, of every thread
   * @param nanos how long the threads ran
   * @param background how many times the background ran
   */
  record UnderLoad(long[] samples, long nanos, int background) {

    /** The lookups of several runs together, as if one. */
    static UnderLoad merge(List<UnderLoad> runs) {
      int total = 0;
      long nanos = 0;
      int background = 0;
      for (UnderLoad r : runs) {
        total += r.samples.length;
        nanos += r.nanos;
        background += r.background;
      }
      long[] all = new long[total];
      int at = 0;
      for (UnderLoad r : runs) {
        System.arraycopy(r.samples, 0, all, at, r.samples.length);
        at += r.samples.length;
      }
      return new UnderLoad(all, nanos, background);
    }

    double lookupsPerSecond() {
      return samples.length * 1e9 / nanos;
    }
  }

  /** Keeps every thread's sink reachable, so that no lookup is dead code. */
  private static volatile long sink;

  private static final int PER_THREAD_SAMPLES = 4_000_000;

  private LookupTimer() {}

  /** {@code count} lookups of keys drawn from {@code keys}, each timed on its own. */
  static Latencies time(Lookup lookup, String[] keys, int count, long seed) {
    long[] nanos = new long[count];
    sample(lookup, keys, nanos, 0, count, new SplittableRandom(seed));
    return Latencies.of(nanos);
  }

  /** Times {@code count} lookups of keys drawn from {@code keys} into {@code nanos[from...]}. */
  static void sample(
      Lookup lookup, String[] keys, long[] nanos, int from, int count, SplittableRandom random) {
    long sum = 0;
    for (int i = from; i < from + count; i++) {
      String key = keys[random.nextInt(keys.length)];
      long start = System.nanoTime();
      sum += lookup.find(key);
      nanos[i] = System.nanoTime() - start;
    }
    sink += sum;
  }

  /** The median cost of a {@code nanoTime} pair with nothing between, in nanoseconds. */
  static long timerOverhead() {
    long[] nanos = new long[100_000];
    for (int i = 0; i < nanos.length; i++) {
      long start = System.nanoTime();
      nanos[i] = System.nanoTime() - start;
    }
    return Latencies.of(nanos).p50();
  }

  /**
   * Runs {@code threads} threads of timed lookups (each with its own {@link Lookup} from {@code
   * perThread}) for {@code millis}, while this thread runs {@code background} over and over (or
   * sleeps when it is null); a thread that has taken {@value #PER_THREAD_SAMPLES} samples stops.
   *
   * @param background returns false to stop before the time is up
   */
  static UnderLoad underLoad(
      Supplier<Lookup> perThread,
      String[] keys,
      int threads,
      long millis,
      BooleanSupplier background)
      throws InterruptedException {
    AtomicBoolean stop = new AtomicBoolean();
    long[][] samples = new long[threads][];
    int[] counts = new int[threads];
    List<Thread> running = new ArrayList<>();
    Throwable[] failure = new Throwable[1];
    for (int t = 0; t < threads; t++) {
      int index = t;
      Lookup lookup = perThread.get();
      Thread thread =
          new Thread(
              () -> {
                long[] nanos = new long[PER_THREAD_SAMPLES];
                SplittableRandom random = new SplittableRandom(index);
                long sum = 0;
                int n = 0;
                // at least one lookup each, however soon the phase ends (a stalled start, a
                // reload that outlasts the phase): a row is never left without samples
                while (n == 0 || (!stop.get() && n < nanos.length)) {
                  String key = keys[random.nextInt(keys.length)];
                  long start = System.nanoTime();
                  sum += lookup.find(key);
                  nanos[n++] = System.nanoTime() - start;
                }
                sink += sum;
                samples[index] = nanos;
                counts[index] = n;
              },
              "lookups-" + t);
      thread.setUncaughtExceptionHandler((th, e) -> failure[0] = e);
      running.add(thread);
    }
    long start = System.nanoTime();
    running.forEach(Thread::start);
    long deadline = start + millis * 1_000_000;
    int ran = 0;
    while (System.nanoTime() < deadline) {
      if (background == null) {
        Thread.sleep(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      } else if (background.getAsBoolean()) {
        ran++;
      } else {
        break;
      }
    }
    stop.set(true);
    for (Thread thread : running) {
      thread.join();
    }
    long nanos = System.nanoTime() - start;
    if (failure[0] != null) {
      throw new IllegalStateException("a lookup failed: " + failure[0], failure[0]);
    }
    List<UnderLoad> byThread = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      byThread.add(new UnderLoad(Arrays.copyOf(samples[t], counts[t]), 0, 0));
    }
    UnderLoad all = UnderLoad.merge(byThread);
    return new UnderLoad(all.samples(), nanos, ran);
  }
}
