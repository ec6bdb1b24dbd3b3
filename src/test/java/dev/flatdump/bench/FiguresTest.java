package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FiguresTest {

  @Test
  void takesTheMiddleValueOrTheMeanOfTheTwoMiddleOnes() {
    assertThat(Figures.median(new long[] {9, 1, 5})).isEqualTo(5);
    assertThat(Figures.median(new long[] {4, 1, 3, 2})).isEqualTo(2);
    assertThat(Figures.median(new long[] {7})).isEqualTo(7);
    assertThatThrownBy(() -> Figures.median(new long[0]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void printsMillisecondsAsTheArticlesDo() {
    assertThat(Figures.millis(11_718_000_000L)).isEqualTo("11,718 ms");
    assertThat(Figures.millis(2_500_000L)).isEqualTo("2.50 ms");
  }

  @Test
  void printsBinaryByteUnits() {
    assertThat(Figures.bytes(512)).isEqualTo("512 B");
    assertThat(Figures.bytes(1536)).isEqualTo("1.50 KiB");
    assertThat(Figures.bytes(600L << 20)).isEqualTo("600 MiB");
  }
}
