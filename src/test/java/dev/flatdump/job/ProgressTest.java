package dev.flatdump.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ProgressTest {

  private static final long SECOND = 1_000_000_000L;

  /** A nano clock that moves only when told to. */
  private static final class FakeClock implements LongSupplier {
    long nanos = 123 * SECOND; // nanoTime has an arbitrary origin

    void advance(Duration d) {
      nanos += d.toNanos();
    }

    @Override
    public long getAsLong() {
      return nanos;
    }
  }

  private final FakeClock clock = new FakeClock();
  private final List<String> lines = new ArrayList<>();

  private Progress progress(long estimatedTotal) {
    return new Progress("exportStep", estimatedTotal, Duration.ofSeconds(5), lines::add, clock);
  }

  private static void advance(Progress progress, int documents) {
    for (int i = 0; i < documents; i++) {
      progress.advance(1);
    }
  }

  @Nested
  class Printing {

    @Test
    void printsNothingBeforeTheIntervalHasPassed() {
      Progress progress = progress(100_000);
      advance(progress, 5_000);
      clock.advance(Duration.ofMillis(4_999));
      advance(progress, 5_000);

      assertThat(lines).isEmpty();
    }

    @Test
    void printsOnceTheIntervalHasPassed() {
      Progress progress = progress(100_000);
      advance(progress, 1_000);
      clock.advance(Duration.ofSeconds(5));

      advance(progress, 1_000);

      assertThat(lines).singleElement().asString().startsWith("exportStep: 1,024 / ~100,000");
    }

    @Test
    void printsAtMostOncePerInterval() {
      Progress progress = progress(100_000);
      clock.advance(Duration.ofSeconds(5));
      advance(progress, 10_000);
      assertThat(lines).hasSize(1);

      clock.advance(Duration.ofSeconds(4));
      advance(progress, 10_000);
      assertThat(lines).hasSize(1);

      clock.advance(Duration.ofSeconds(1)); // 5 s since the last line
      advance(progress, 10_000);
      assertThat(lines).hasSize(2);
    }

    @Test
    void doneAlwaysPrints() {
      Progress progress = progress(100_000);
      advance(progress, 3);

      progress.done();

      assertThat(lines).singleElement().asString().startsWith("exportStep: 3 / ~100,000");
    }
  }

  @Nested
  class Line {

    @Test
    void showsCountTotalPercentRateAndTimeLeft() {
      Progress progress = progress(10_000);
      advance(progress, 2_000);
      clock.advance(Duration.ofSeconds(4));

      progress.done();

      assertThat(lines)
          .containsExactly("exportStep: 2,000 / ~10,000 documents (20%), 500 docs/s, ETA 0:16");
    }

    @Test
    void showsTimeLeftInMinutesAndSeconds() {
      Progress progress = progress(100_000);
      advance(progress, 2_000);
      clock.advance(Duration.ofSeconds(4));

      progress.done();

      // 98,000 left at 500/s: 196 s
      assertThat(lines)
          .containsExactly("exportStep: 2,000 / ~100,000 documents (2%), 500 docs/s, ETA 3:16");
    }

    @Test
    void anUnknownTotalShowsNoPercentAndNoTimeLeft() {
      Progress progress = progress(0);
      advance(progress, 2_000);
      clock.advance(Duration.ofSeconds(4));

      progress.done();

      assertThat(lines).containsExactly("exportStep: 2,000 documents, 500 docs/s");
    }

    @Test
    void moreDocumentsThanEstimatedShowsAHundredPercentAndNoTimeLeft() {
      Progress progress = progress(1_000);
      advance(progress, 2_000);
      clock.advance(Duration.ofSeconds(4));

      progress.done();

      assertThat(lines).containsExactly("exportStep: 2,000 / ~1,000 documents (100%), 500 docs/s");
    }
  }

  @Nested
  class Resume {

    @Test
    void continuesCountingFromTheEarlierRun() {
      Progress progress = progress(10_000);
      clock.advance(Duration.ofMinutes(10)); // the restart happens later

      progress.resume(5_000);
      advance(progress, 1_000);
      clock.advance(Duration.ofSeconds(2));
      progress.done();

      // the rate counts only this run's documents and time: 1,000 in 2 s
      assertThat(lines)
          .containsExactly("exportStep: 6,000 / ~10,000 documents (60%), 500 docs/s, ETA 0:08");
    }

    @Test
    void waitsAFullIntervalAfterResuming() {
      Progress progress = progress(100_000);
      clock.advance(Duration.ofMinutes(10));
      progress.resume(5_000);

      advance(progress, 3_000);
      assertThat(lines).isEmpty();

      clock.advance(Duration.ofSeconds(5));
      advance(progress, 2_000);
      assertThat(lines).singleElement().asString().startsWith("exportStep: 8,192 / ~100,000");
    }
  }
}
