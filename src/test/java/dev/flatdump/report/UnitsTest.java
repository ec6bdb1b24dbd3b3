package dev.flatdump.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class UnitsTest {

  @Test
  void writesAChosenSizeInTheLargestUnitThatHoldsItExactly() {
    assertThat(Units.setting(128L << 20)).isEqualTo("128 MiB");
    assertThat(Units.setting(64L << 20)).isEqualTo("64 MiB");
    assertThat(Units.setting(1L << 30)).isEqualTo("1 GiB");
    assertThat(Units.setting(1536L << 10)).isEqualTo("1,536 KiB");
    assertThat(Units.setting(1000)).isEqualTo("1000 B");
    assertThat(Units.setting(1_000_000)).isEqualTo("977 KiB (1,000,000 B)");
  }

  @Test
  void writesAnInstantToTheSecond() {
    assertThat(Units.second(Instant.parse("2025-03-01T10:00:12.987654321Z")))
        .isEqualTo("2025-03-01T10:00:12Z");
    assertThat(Units.second(Instant.parse("2025-03-01T10:00:00Z")))
        .isEqualTo("2025-03-01T10:00:00Z");
  }
}
