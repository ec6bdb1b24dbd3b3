package dev.flatdump.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class PrefetchingIteratorTest {

  /** Counts up to {@code n}, then fails if {@code failAt} is reached; remembers being closed. */
  static class Source implements Iterator<Integer>, AutoCloseable {
    final int n;
    final int failAt;
    final AtomicInteger produced = new AtomicInteger();
    final AtomicBoolean closed = new AtomicBoolean();
    final CountDownLatch closedLatch = new CountDownLatch(1);

    Source(int n, int failAt) {
      this.n = n;
      this.failAt = failAt;
    }

    @Override
    public boolean hasNext() {
      if (produced.get() == failAt) {
        throw new IllegalStateException("boom at " + failAt);
      }
      return produced.get() < n;
    }

    @Override
    public Integer next() {
      return produced.getAndIncrement();
    }

    @Override
    public void close() {
      closed.set(true);
      closedLatch.countDown();
    }
  }

  /**
   * A {@link Source} that says what it holds: {@code batch} elements at a time, as a cursor's
   * batches; past {@code gateAt} its {@code hasNext} waits for {@code gate}.
   */
  static final class BufferedSource extends Source implements PrefetchingIterator.Buffered {
    final int batch;
    final int gateAt;
    final CountDownLatch gate = new CountDownLatch(1);

    BufferedSource(int n, int failAt, int batch, int gateAt) {
      super(n, failAt);
      this.batch = batch;
      this.gateAt = gateAt;
    }

    @Override
    public boolean hasNext() {
      if (produced.get() == gateAt) {
        try {
          gate.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return super.hasNext();
    }

    @Override
    public int readyWithoutWaiting() {
      int p = produced.get();
      return p == gateAt ? 0 : Math.min(n - p, batch - p % batch);
    }
  }

  private static List<Integer> drain(Iterator<Integer> it) {
    List<Integer> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }

  @Test
  void deliversEveryElementInOrderThenEnds() throws Exception {
    Source source = new Source(10_000, -1);
    try (var it = new PrefetchingIterator<>(source, 7, "t")) {
      assertThat(drain(it)).containsExactlyElementsOf(IntStream.range(0, 10_000).boxed().toList());
      assertThat(it.hasNext()).isFalse();
      assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
    }
    assertThat(source.closedLatch.await(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void rethrowsTheSourcesFailureAfterTheElementsBeforeIt() throws Exception {
    Source source = new Source(100, 42);
    try (var it = new PrefetchingIterator<>(source, 5, "t")) {
      List<Integer> got = new ArrayList<>();
      assertThatThrownBy(() -> it.forEachRemaining(got::add))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("boom at 42");
      assertThat(got).containsExactlyElementsOf(IntStream.range(0, 42).boxed().toList());
    }
    assertThat(source.closed.get()).isTrue();
  }

  @Test
  void passesAnErrorOnTheReadingThreadToTheCallerWithItsCause() {
    OutOfMemoryError injected = new OutOfMemoryError("injected");
    Iterator<Integer> source =
        new Iterator<>() {
          int i;

          @Override
          public boolean hasNext() {
            return true;
          }

          @Override
          public Integer next() {
            if (i == 7) {
              throw injected;
            }
            return i++;
          }
        };
    assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () -> {
          try (var it = new PrefetchingIterator<>(source, 5, "t")) {
            List<Integer> got = new ArrayList<>();
            assertThatThrownBy(() -> it.forEachRemaining(got::add))
                .isInstanceOf(dev.flatdump.FlatdumpException.class)
                .hasMessageContaining("reading-ahead thread t failed")
                .hasCause(injected);
            assertThat(got).containsExactly(0, 1, 2, 3, 4, 5, 6);
            assertThat(it.hasNext()).isFalse();
          }
        });
  }

  @Test
  void readsNoFurtherAheadThanItsCapacity() throws Exception {
    Source source = new Source(1_000, -1);
    try (var it = new PrefetchingIterator<>(source, 3, "t")) {
      assertThat(it.next()).isZero();
      Thread.sleep(200);
      // one taken + three waiting + at most one in the producer's hand
      assertThat(source.produced.get()).isBetween(2, 5);
    }
  }

  @Test
  void readsNoFurtherAheadThanItsByteBudget() throws Exception {
    Source source = new Source(1_000, -1);
    // Every element weighs 10 KiB; 25 KiB may wait, so two can, whatever the capacity.
    try (var it = new PrefetchingIterator<>(source, 100, i -> 10 * 1024L, 25 * 1024L, "t")) {
      Thread.sleep(200);
      // two waiting + one in the producer's hand, waiting for room in the budget
      assertThat(source.produced.get()).isEqualTo(3);

      assertThat(it.next()).isZero();
      Thread.sleep(200);
      assertThat(source.produced.get()).isEqualTo(4);
      assertThat(drain(it)).hasSize(999);
    }
  }

  @Test
  void letsOneElementHeavierThanTheWholeBudgetThrough() throws Exception {
    Source source = new Source(3, -1);
    try (var it = new PrefetchingIterator<>(source, 10, i -> 1L << 30, 1024L, "t")) {
      assertThat(drain(it)).containsExactly(0, 1, 2);
    }
  }

  @Nested
  class InChunks {

    @Test
    void deliversEveryElementInOrderThenEnds() {
      var source = new BufferedSource(10_000, -1, 1_000, -1);
      assertTimeoutPreemptively(
          Duration.ofSeconds(20),
          () -> {
            try (var it = new PrefetchingIterator<>(source, 2_000, "t")) {
              assertThat(drain(it))
                  .containsExactlyElementsOf(IntStream.range(0, 10_000).boxed().toList());
            }
          });
    }

    @Test
    void handsOverWhatTheSourceHasBeforeTheSourceWaits() {
      // 10 ready, then the source waits: the caller must get all 10 without waiting with it.
      var source = new BufferedSource(20, -1, 1_000, 10);
      assertTimeoutPreemptively(
          Duration.ofSeconds(20),
          () -> {
            try (var it = new PrefetchingIterator<>(source, 1_000, "t")) {
              List<Integer> first = new ArrayList<>();
              for (int i = 0; i < 10; i++) {
                first.add(it.next());
              }
              assertThat(first).containsExactlyElementsOf(IntStream.range(0, 10).boxed().toList());
              source.gate.countDown();
              assertThat(drain(it))
                  .containsExactlyElementsOf(IntStream.range(10, 20).boxed().toList());
            }
          });
    }

    @Test
    void handsOverItsPartChunkBeforeWaitingForBudget() {
      // Every element weighs 10 KiB and 25 KiB may wait: the chunk cannot fill before the budget
      // runs out, so the background thread must hand over two elements and wait for the caller.
      var source = new BufferedSource(1_000, -1, 1_000, -1);
      assertTimeoutPreemptively(
          Duration.ofSeconds(20),
          () -> {
            try (var it =
                new PrefetchingIterator<>(source, 100, i -> 10 * 1024L, 25 * 1024L, "t")) {
              assertThat(drain(it))
                  .containsExactlyElementsOf(IntStream.range(0, 1_000).boxed().toList());
            }
          });
    }

    @Test
    void takesBudgetForWholeChunksWhileThereIsSome() throws Exception {
      // Every element weighs 1 KiB and 1 MiB may wait: the budget never runs short, so the
      // background thread fills whole chunks of 64. Room for one chunk in the queue: one waits
      // there, one full in the thread's hand, and nothing more is read.
      var source = new BufferedSource(1_000, -1, 1_000, -1);
      try (var it =
          new PrefetchingIterator<>(source, PrefetchingIterator.CHUNK, i -> 1024L, 1L << 20, "t")) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (source.produced.get() < 2 * PrefetchingIterator.CHUNK
            && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        Thread.sleep(100);
        assertThat(source.produced.get()).isEqualTo(2 * PrefetchingIterator.CHUNK);
        assertThat(drain(it)).containsExactlyElementsOf(IntStream.range(0, 1_000).boxed().toList());
      }
    }

    @Test
    void rethrowsTheSourcesFailureAfterTheElementsBeforeIt() throws Exception {
      var source = new BufferedSource(1_000, 100, 1_000, -1);
      try (var it = new PrefetchingIterator<>(source, 500, "t")) {
        List<Integer> got = new ArrayList<>();
        assertThatThrownBy(() -> it.forEachRemaining(got::add))
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("boom at 100");
        assertThat(got).containsExactlyElementsOf(IntStream.range(0, 100).boxed().toList());
      }
      assertThat(source.closedLatch.await(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void closeStopsTheProducerAndClosesTheSource() throws Exception {
    Source source = new Source(Integer.MAX_VALUE, -1);
    var it = new PrefetchingIterator<>(source, 2, "t");
    it.next();
    it.close();
    it.close();
    assertThat(source.closedLatch.await(10, TimeUnit.SECONDS)).isTrue();
    int after = source.produced.get();
    Thread.sleep(100);
    assertThat(source.produced.get()).isEqualTo(after);
  }
}
