package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReaderReportTest {

  @Test
  void printsSmallRatiosAsFractions() {
    assertThat(ReaderReport.ratio(3.79)).isEqualTo("3.79×");
    assertThat(ReaderReport.ratio(0.11)).isEqualTo("0.11×");
    assertThat(ReaderReport.ratio(0.0021)).isEqualTo("1/476");
    assertThat(ReaderReport.ratio(0.00002)).isEqualTo("1/50,000");
  }

  @Test
  void printsNanosecondsMicrosecondsThenMilliseconds() {
    assertThat(ReaderReport.nanos(850)).isEqualTo("850 ns");
    assertThat(ReaderReport.nanos(9_999)).isEqualTo("9,999 ns");
    assertThat(ReaderReport.nanos(12_345)).isEqualTo("12.3 µs");
    assertThat(ReaderReport.nanos(2_500_000)).isEqualTo("2.50 ms");
  }
}
