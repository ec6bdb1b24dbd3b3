package dev.flatdump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RepeatSamplerTest {

  /** Feeds n values, each a hit or not, the way a caller does; returns how many were looked up. */
  private static int feed(RepeatSampler sampler, int n, boolean hit) {
    int looked = 0;
    for (int i = 0; i < n; i++) {
      if (sampler.active()) {
        sampler.found(hit);
        looked++;
      } else {
        sampler.skipped();
      }
    }
    return looked;
  }

  @Test
  void keepsLookingWhileValuesRepeat() {
    var sampler = new RepeatSampler(100, 10, 3);

    assertThat(feed(sampler, 10_000, true)).isEqualTo(10_000);
    assertThat(sampler.active()).isTrue();
  }

  @Test
  void pausesAfterAPoorWindowAndSamplesAgainAfterThePause() {
    var sampler = new RepeatSampler(100, 10, 3);

    assertThat(feed(sampler, 100, false)).isEqualTo(100);
    assertThat(sampler.active()).isFalse();
    assertThat(feed(sampler, 300, false)).isZero();
    assertThat(sampler.active()).isTrue();
    // Nothing repeats: one window in four is looked up.
    assertThat(feed(sampler, 4_000, false)).isEqualTo(1_000);
  }

  @Test
  void aWindowAtTheThresholdKeepsLooking() {
    var sampler = new RepeatSampler(100, 10, 3);
    for (int i = 0; i < 100; i++) {
      sampler.found(i < 10);
    }
    assertThat(sampler.active()).isTrue();

    for (int i = 0; i < 100; i++) {
      sampler.found(i < 9);
    }
    assertThat(sampler.active()).isFalse();
  }

  @Test
  void resumesForGoodWhenValuesStartRepeating() {
    var sampler = new RepeatSampler(100, 10, 3);
    feed(sampler, 100, false);
    feed(sampler, 300, false);

    assertThat(feed(sampler, 1_000, true)).isEqualTo(1_000);
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> new RepeatSampler(0, 10, 3))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RepeatSampler(10, 101, 3))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RepeatSampler(10, 10, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
