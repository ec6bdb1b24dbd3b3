package dev.flatdump.reader.s3;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Asks a running pull to stop at its next buffer: downloads and waits check it, so that a stop
 * never interrupts a thread (which would close the files it writes). Thread-safe.
 */
final class StopSignal {

  private final CountDownLatch stopped = new CountDownLatch(1);

  void stop() {
    stopped.countDown();
  }

  boolean stopped() {
    return stopped.getCount() == 0;
  }

  /**
   * @throws PullException marked {@linkplain PullException#stopped() stopped} once stopped
   */
  void check(String doing) {
    if (stopped()) {
      throw new PullException("stopped while " + doing, null, true);
    }
  }

  /** Waits {@code interval}, or less when stopped meanwhile; returns whether stopped. */
  boolean await(Duration interval) {
    try {
      return stopped.await(interval.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop();
      return true;
    }
  }
}
