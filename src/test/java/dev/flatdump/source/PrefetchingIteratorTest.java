package dev.flatdump.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PrefetchingIteratorTest {

  /** Counts up to {@code n}, then fails if {@code failAt} is reached; remembers being closed. */
  static final class Source implements Iterator<Integer>, AutoCloseable {
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
