package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ByteSizesTest {

  @Nested
  class Parses {

    @Test
    void plainBytes() {
      assertThat(ByteSizes.parse("1024")).isEqualTo(1024);
      assertThat(ByteSizes.parse("1048576")).isEqualTo(1 << 20);
      assertThat(ByteSizes.parse("0")).isZero();
    }

    @Test
    void anExplicitByteUnit() {
      assertThat(ByteSizes.parse("512b")).isEqualTo(512);
    }

    @Test
    void binaryUnits() {
      assertThat(ByteSizes.parse("64KiB")).isEqualTo(64L * 1024);
      assertThat(ByteSizes.parse("512MiB")).isEqualTo(512L * 1024 * 1024);
      assertThat(ByteSizes.parse("1GiB")).isEqualTo(1L << 30);
    }

    @Test
    void shortBinaryUnits() {
      assertThat(ByteSizes.parse("64k")).isEqualTo(64L * 1024);
      assertThat(ByteSizes.parse("64Ki")).isEqualTo(64L * 1024);
      assertThat(ByteSizes.parse("2g")).isEqualTo(2L << 30);
    }

    @Test
    void decimalUnits() {
      assertThat(ByteSizes.parse("10KB")).isEqualTo(10_000);
      assertThat(ByteSizes.parse("10MB")).isEqualTo(10_000_000);
      assertThat(ByteSizes.parse("3GB")).isEqualTo(3_000_000_000L);
    }

    @Test
    void ignoringCase() {
      assertThat(ByteSizes.parse("64kib")).isEqualTo(64L * 1024);
      assertThat(ByteSizes.parse("512MIB")).isEqualTo(512L << 20);
      assertThat(ByteSizes.parse("1gIb")).isEqualTo(1L << 30);
      assertThat(ByteSizes.parse("10mb")).isEqualTo(10_000_000);
    }

    @Test
    void withSpaceAroundAndBeforeTheUnit() {
      assertThat(ByteSizes.parse("  1 GiB ")).isEqualTo(1L << 30);
    }

    @Test
    void upToTheLargestLong() {
      assertThat(ByteSizes.parse(Long.toString(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
      assertThat(ByteSizes.parse("8589934591GiB")).isEqualTo(8_589_934_591L << 30);
    }
  }

  @Nested
  class Rejects {

    @ParameterizedTest
    @ValueSource(
        strings = {"", " ", "abc", "GiB", "-1", "1.5GiB", "1TiB", "10 MBs", "1,024", "0x400"})
    void garbageNamingIt(String text) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> ByteSizes.parse(text))
          .withMessageContaining("invalid size '" + text + "'");
    }

    @Test
    void aNumberTooLargeForALong() {
      // NumberFormatException is an IllegalArgumentException
      assertThatIllegalArgumentException().isThrownBy(() -> ByteSizes.parse("9223372036854775808"));
    }

    @Test
    void aProductTooLargeForALong() {
      assertThatExceptionOfType(ArithmeticException.class)
          .isThrownBy(() -> ByteSizes.parse("8589934592GiB"));
    }
  }
}
