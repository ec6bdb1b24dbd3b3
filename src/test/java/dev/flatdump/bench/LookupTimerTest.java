package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.RepeatedTest;

class LookupTimerTest {

  /**
   * A phase that ends before its threads look anything up (here: at once; in the reader benchmark,
   * a reload that outlasts it) still times a lookup on each thread: its row gets latencies rather
   * than failing on no samples.
   */
  @RepeatedTest(20)
  void everyThreadTimesALookupHoweverSoonThePhaseEnds() throws InterruptedException {
    LookupTimer.UnderLoad run =
        LookupTimer.underLoad(() -> key -> key.length(), new String[] {"a", "bb"}, 3, 0, null);

    assertThat(run.samples().length).isGreaterThanOrEqualTo(3);
    assertThat(Latencies.of(run.samples()).count()).isEqualTo(run.samples().length);
  }
}
