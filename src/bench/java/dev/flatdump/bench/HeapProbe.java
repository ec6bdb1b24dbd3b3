package dev.flatdump.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.ref.Reference;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Measures how much heap one piece of work needs, above what was live before it, in two ways:
 *
 * <ul>
 *   <li><b>peak used</b>: the sum of the heap pools' peak usage ({@link
 *       MemoryPoolMXBean#resetPeakUsage()} at the start), garbage included. An upper bound: the
 *       pools may peak at different moments, and the young generation fills up to its size before
 *       every collection whatever the work retains.
 *   <li><b>peak live</b>: the most heap in use right after any collection during the work, and
 *       after a full collection at its end while its result is still reachable. What the work
 *       really holds at its worst moment, as far as collections sampled it.
 * </ul>
 *
 * <p>{@link #start()} collects garbage (outside the measured time) and {@link #stop(Object)} does a
 * full collection: time the work between the two calls, not around them. One probe at a time per
 * JVM; not thread-safe.
 */
final class HeapProbe {

  /** What {@link #stop} found, in bytes above the live heap at {@link #start}; never negative. */
  record HeapUse(long peakUsedBytes, long peakLiveBytes) {}

  private static final long NOTIFICATION_WAIT_MILLIS = 2_000;

  private final List<MemoryPoolMXBean> heapPools =
      ManagementFactory.getMemoryPoolMXBeans().stream()
          .filter(p -> p.getType() == MemoryType.HEAP && p.isValid())
          .toList();
  private final Set<String> heapPoolNames =
      heapPools.stream().map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
  private final List<GarbageCollectorMXBean> collectors =
      ManagementFactory.getGarbageCollectorMXBeans();

  private final AtomicLong maxAfterGc = new AtomicLong();
  private final AtomicLong notified = new AtomicLong();
  private final NotificationListener listener = this::onCollection;
  private long baseline;
  private long collectionsAtStart;

  /** Collects garbage, takes the live heap as the baseline and starts watching. */
  void start() {
    baseline = liveHeapBytes();
    maxAfterGc.set(baseline);
    notified.set(0);
    collectionsAtStart = collections();
    for (GarbageCollectorMXBean gc : collectors) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
      }
    }
    for (MemoryPoolMXBean pool : heapPools) {
      pool.resetPeakUsage();
    }
  }

  /**
   * Stops watching and returns the work's heap use.
   *
   * @param result what the work still holds; kept reachable through the final collection
   */
  HeapUse stop(Object result) {
    long peakUsed = 0;
    for (MemoryPoolMXBean pool : heapPools) {
      peakUsed += pool.getPeakUsage().getUsed();
    }
    long liveAtEnd = liveHeapBytes();
    Reference.reachabilityFence(result);
    awaitNotifications();
    for (GarbageCollectorMXBean gc : collectors) {
      if (gc instanceof NotificationEmitter emitter) {
        try {
          emitter.removeNotificationListener(listener);
        } catch (javax.management.ListenerNotFoundException ignored) {
          // never added: nothing to remove
        }
      }
    }
    long peakLive = Math.max(maxAfterGc.get(), liveAtEnd);
    return new HeapUse(Math.max(0, peakUsed - baseline), Math.max(0, peakLive - baseline));
  }

  /** The heap in use after two full collections (the second one catches finalized leftovers). */
  static long liveHeapBytes() {
    System.gc();
    System.gc();
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    return heap.getUsed();
  }

  private void onCollection(Notification n, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
      return;
    }
    var info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
    long after = 0;
    for (var e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      if (heapPoolNames.contains(e.getKey())) {
        after += e.getValue().getUsed();
      }
    }
    maxAfterGc.accumulateAndGet(after, Math::max);
    notified.incrementAndGet();
  }

  /** Notifications arrive on another thread: wait until every collection so far has reported. */
  private void awaitNotifications() {
    long deadline = System.nanoTime() + NOTIFICATION_WAIT_MILLIS * 1_000_000;
    while (notified.get() < collections() - collectionsAtStart && System.nanoTime() < deadline) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private long collections() {
    long count = 0;
    for (GarbageCollectorMXBean gc : collectors) {
      count += Math.max(0, gc.getCollectionCount());
    }
    return count;
  }
}
