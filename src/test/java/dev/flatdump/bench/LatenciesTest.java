package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LatenciesTest {

  @Test
  void takesPercentilesByNearestRank() {
    long[] nanos = new long[1000];
    for (int i = 0; i < nanos.length; i++) {
      nanos[i] = 1000 - i; // 1000..1, unsorted
    }

    Latencies l = Latencies.of(nanos);

    assertThat(l.count()).isEqualTo(1000);
    assertThat(l.p50()).isEqualTo(500);
    assertThat(l.p99()).isEqualTo(990);
    assertThat(l.p999()).isEqualTo(999);
    assertThat(l.max()).isEqualTo(1000);
    assertThat(l.meanNanos()).isEqualTo(500.5);
  }

  @Test
  void summarizesOnlyTheFilledPartOfTheArray() {
    long[] nanos = {30, 10, 20, 0, 0};

    Latencies l = Latencies.of(nanos, 3);

    assertThat(l.p50()).isEqualTo(20);
    assertThat(l.p99()).isEqualTo(30);
    assertThat(l.max()).isEqualTo(30);
    assertThat(l.meanNanos()).isEqualTo(20.0);
  }

  @Test
  void oneSampleIsEveryPercentile() {
    Latencies l = Latencies.of(new long[] {7});

    assertThat(l.p50()).isEqualTo(7);
    assertThat(l.p999()).isEqualTo(7);
  }

  @Test
  void refusesNoSamples() {
    assertThatThrownBy(() -> Latencies.of(new long[3], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got 0");
  }
}
