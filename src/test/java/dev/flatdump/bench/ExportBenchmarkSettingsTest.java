package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExportBenchmarkSettingsTest {

  private static ExportBenchmark.Settings settings(int runs, int warmups) {
    return new ExportBenchmark.Settings(
        "host:1", "db", "orgs", runs, warmups, 1000, 1 << 20, Path.of("out"), false, List.of());
  }

  @Test
  void allowsNoWarmUpRunButNotANegativeNumber() {
    assertThat(settings(1, 0).warmups()).isZero();
    assertThat(settings(3, 3).warmups()).isEqualTo(3);
    assertThatThrownBy(() -> settings(1, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("warm-up runs must be >= 0, got -1");
    assertThatThrownBy(() -> settings(0, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("runs must be >= 1");
  }

  @Test
  void namesTheWarmUpsFromOneBeforeTheRuns() {
    ExportBenchmark.Settings s = settings(2, 3);

    assertThat(List.of(-3, -2, -1, 0, 1).stream().map(s::runName))
        .containsExactly("warm-up 1", "warm-up 2", "warm-up 3", "run 1", "run 2");
  }
}
