package dev.flatdump.reader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.reader.LookupByKeyTest.Generated;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lookups by key while exports are published and reloaded under them: each answer must be the one
 * the export it came from holds (every export has its own keys and its own tags), and the regions
 * mapped from the output directory must not grow with the number of reloads.
 */
class LookupUnderReloadsIT {

  private static final int KEYS = 400;
  private static final int THREADS = 8;

  /**
   * Key {@code k} of export {@code e}: present in four exports of five, in a different one each.
   */
  private static boolean holds(int e, int k) {
    return (k + e) % 5 != 0;
  }

  private static String key(int k) {
    return String.format("k%04d", k);
  }

  private static String tag(int e, int k) {
    return "e" + e + "/" + key(k);
  }

  private static Path publish(KeyedExports exports, Path out, int e) {
    List<String> keys = new ArrayList<>();
    List<String> tags = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      if (holds(e, k)) {
        keys.add(key(k));
        tags.add(tag(e, k));
      }
    }
    return exports.publish(out, String.format("e%05d", e), 3, keys, tags);
  }

  private static int exportOf(Snapshot s) {
    return Integer.parseInt(s.id().substring(1));
  }

  @Test
  void everyAnswerIsItsExportsAndMappingsStayBoundedOverAThousandReloads(@TempDir Path dir)
      throws Exception {
    KeyedExports exports = new KeyedExports(dir, "string", 4096);
    Path out = dir.resolve("out");
    publish(exports, out, 0);
    Generated g = new Generated(exports.fbs(), String.class);
    Queue<String> failures = new ConcurrentLinkedQueue<>();
    AtomicLong lookups = new AtomicLong();
    AtomicLong found = new AtomicLong();
    AtomicBoolean done = new AtomicBoolean();
    long shardsPerExport;
    long most = 0;
    try (ExportReader reader = ExportReader.open(out)) {
      try (Snapshot s = reader.snapshot()) {
        shardsPerExport = s.shardCount();
      }
      assertThat(shardsPerExport).as("several shards an export").isGreaterThan(2);
      CountDownLatch started = new CountDownLatch(THREADS);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        Thread thread =
            new Thread(
                () -> {
                  Snapshot.RecordAt<Object> at;
                  try {
                    at = g.at();
                  } catch (Exception e) {
                    failures.add(e.toString());
                    return;
                  }
                  started.countDown();
                  ThreadLocalRandom random = ThreadLocalRandom.current();
                  while (!done.get()) {
                    int k = random.nextInt(KEYS + 20); // some keys no export holds
                    try (Snapshot s = reader.snapshot()) {
                      int e = exportOf(s);
                      Object r = s.lookup(key(k), at);
                      lookups.incrementAndGet();
                      boolean expected = k < KEYS && holds(e, k);
                      if (expected != (r != null)) {
                        failures.add(s.id() + ": " + key(k) + " found " + (r != null));
                      } else if (r != null) {
                        found.incrementAndGet();
                        String tag = g.tag(r);
                        if (!tag.equals(tag(e, k))) {
                          failures.add(s.id() + ": " + key(k) + " answered " + tag);
                        }
                      }
                    } catch (Throwable x) {
                      failures.add(x.toString());
                    }
                  }
                });
        threads.add(thread);
        thread.start();
      }
      assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
      long atHalf = 0;
      for (int e = 1; e <= 1000; e++) {
        publish(exports, out, e);
        assertThat(reader.reload()).as("reload to export %d", e).isTrue();
        long regions = MappedRegions.under(out);
        most = Math.max(most, regions);
        if (e == 500) {
          atHalf = most;
        }
      }
      done.set(true);
      for (Thread t : threads) {
        t.join(30_000);
      }
      System.out.printf(
          "%d lookups (%d found) over 1,000 reloads; at most %d regions mapped from OUT"
              + " (%d shards an export)%n",
          lookups.get(), found.get(), most, shardsPerExport);
      assertThat(failures).as("failed or torn lookups").isEmpty();
      assertThat(lookups.get()).as("lookups during the reloads").isGreaterThan(10_000);
      assertThat(found.get()).isPositive();
      // the current export, one being opened, and one held by each thread at most
      assertThat(most)
          .as("regions mapped from OUT at any time over 1,000 reloads")
          .isLessThanOrEqualTo(shardsPerExport * (THREADS + 2));
      assertThat(most)
          .as("the most regions over the second 500 reloads, against the first 500's")
          .isLessThanOrEqualTo(Math.max(atHalf, shardsPerExport * (THREADS + 2)));
      assertThat(MappedRegions.under(out))
          .as("once the threads are done: the current export's shards only")
          .isEqualTo(shardsPerExport);
    }
    assertThat(MappedRegions.under(out)).isZero();
  }

  @Test
  void followReloadsWhenTheJobPublishes(@TempDir Path dir) throws Exception {
    KeyedExports exports = new KeyedExports(dir, "string", 4096);
    Path out = dir.resolve("out");
    publish(exports, out, 0);
    try (ExportReader reader = ExportReader.open(out)) {
      List<String> refreshed = new CopyOnWriteList();
      reader.addListener(
          new ReloadListener() {
            @Override
            public void refreshed(String oldId, String newId) {
              refreshed.add(newId);
            }
          });
      try (AutoCloseable following = reader.follow(Duration.ofMinutes(10))) {
        for (int e = 1; e <= 5; e++) {
          publish(exports, out, e);
          String expected = String.format("e%05d", e);
          // the watch service, not the ten-minute interval, must bring the reload
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
          while (!reader.currentId().equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(10);
          }
          assertThat(reader.currentId()).isEqualTo(expected);
        }
      }
      assertThat(refreshed).endsWith("e00005");
      publish(exports, out, 6);
      Thread.sleep(300);
      assertThat(reader.currentId()).as("no reload once following stopped").isEqualTo("e00005");
    }
  }

  /** A thread-safe list for the listener. */
  private static final class CopyOnWriteList
      extends java.util.concurrent.CopyOnWriteArrayList<String> {}
}
