package dev.flatdump.encode.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
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
    var sampler = new RepeatSampler(100, 10, 3, 3);

    assertThat(feed(sampler, 10_000, true)).isEqualTo(10_000);
    assertThat(sampler.active()).isTrue();
  }

  @Test
  void pausesAfterAPoorWindowAndSamplesAgainAfterThePause() {
    var sampler = new RepeatSampler(100, 10, 3, 3);

    assertThat(feed(sampler, 100, false)).isEqualTo(100);
    assertThat(sampler.active()).isFalse();
    assertThat(feed(sampler, 300, false)).isZero();
    assertThat(sampler.active()).isTrue();
    // Nothing repeats, and the pause cannot grow: one window in four is looked up.
    assertThat(feed(sampler, 4_000, false)).isEqualTo(1_000);
  }

  /** Which of the first n windows of values, all of them hits or all misses, were looked up. */
  private static List<Integer> windowsLookedUp(RepeatSampler sampler, int n, boolean hit) {
    List<Integer> looked = new ArrayList<>();
    for (int w = 0; w < n; w++) {
      if (feed(sampler, 100, hit) > 0) {
        looked.add(w);
      }
    }
    return looked;
  }

  @Test
  void thePauseDoublesWithEachPoorWindowInARowUpToItsLongest() {
    var sampler = new RepeatSampler(100, 10, 3, 15);

    // pauses of 3, 7, 15, then 15 again: windows 0, 4, 12, 28, 44, 60
    assertThat(windowsLookedUp(sampler, 61, false)).containsExactly(0, 4, 12, 28, 44, 60);
  }

  @Test
  void aGoodWindowResetsThePause() {
    var sampler = new RepeatSampler(100, 10, 3, 15);
    assertThat(windowsLookedUp(sampler, 28, false)).containsExactly(0, 4, 12); // then 15 paused
    assertThat(sampler.active()).isTrue();

    assertThat(feed(sampler, 100, true)).isEqualTo(100); // a good window: lookups go on
    assertThat(sampler.active()).isTrue();
    // a poor window pauses for 3 again, not 15
    assertThat(windowsLookedUp(sampler, 9, false)).containsExactly(0, 4);
  }

  @Test
  void theAttributePolicyGrowsItsPauseTo255Windows() {
    var sampler = RepeatSampler.forTables();
    int window = 1 << 16;
    int looked = 0;
    List<Integer> windows = new ArrayList<>();
    for (int w = 0; w < 1_000; w++) {
      if (sampler.active()) {
        windows.add(w);
      }
      looked += feed(sampler, window, false);
    }

    // pauses of 15, 31, 63, 127, then 255
    assertThat(windows).containsExactly(0, 16, 48, 112, 240, 496, 752);
    assertThat(looked).isEqualTo(7 * window);
  }

  @Test
  void aWindowAtTheThresholdKeepsLooking() {
    var sampler = new RepeatSampler(100, 10, 3, 3);
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
    var sampler = new RepeatSampler(100, 10, 3, 3);
    feed(sampler, 100, false);
    feed(sampler, 300, false);

    assertThat(feed(sampler, 1_000, true)).isEqualTo(1_000);
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> new RepeatSampler(0, 10, 3, 3))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RepeatSampler(10, 101, 3, 3))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RepeatSampler(10, 10, 0, 3))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RepeatSampler(10, 10, 4, 3))
        .isInstanceOf(IllegalArgumentException.class);
    // the longest pause, in values, must fit an int
    assertThatThrownBy(() -> new RepeatSampler(1 << 16, 10, 3, 1 << 15))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new RepeatSampler(1 << 16, 10, 3, (1 << 15) - 1).active()).isTrue();
  }

  /** Whether each of n more values is looked up, hits or not as {@code hit} says. */
  private static List<Boolean> decisions(RepeatSampler sampler, int n, boolean hit) {
    List<Boolean> looked = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      looked.add(feed(sampler, 1, hit) == 1);
    }
    return looked;
  }

  @Test
  void restoreForgetsTheValuesSinceTheSave() {
    var restored = new RepeatSampler(10, 50, 2, 8);
    var untouched = new RepeatSampler(10, 50, 2, 8);
    feed(restored, 25, false); // paused, mid-pause
    feed(untouched, 25, false);
    restored.save();
    feed(restored, 37, true); // a rejected document's values: through the pause, windows ended
    restored.restore();

    assertThat(decisions(restored, 200, false)).isEqualTo(decisions(untouched, 200, false));
  }
}
