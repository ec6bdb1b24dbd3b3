package dev.flatdump.reader.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code pull --watch} backs off after failed pulls, so a corrupt export is not fetched at every
 * poll.
 */
class RetryAfterTest {

  @Test
  void theWaitDoublesWithEachFailureInARowUpToAnHour() {
    Duration five = Duration.ofSeconds(5);
    assertThat(ExportPuller.retryAfter(five, 0)).isEqualTo(five);
    assertThat(ExportPuller.retryAfter(five, 1)).isEqualTo(Duration.ofSeconds(10));
    assertThat(ExportPuller.retryAfter(five, 3)).isEqualTo(Duration.ofSeconds(40));
    assertThat(ExportPuller.retryAfter(five, 20)).isEqualTo(Duration.ofHours(1));
    assertThat(ExportPuller.retryAfter(five, Integer.MAX_VALUE)).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void anIntervalLongerThanAnHourIsKept() {
    Duration day = Duration.ofDays(1);
    assertThat(ExportPuller.retryAfter(day, 0)).isEqualTo(day);
    assertThat(ExportPuller.retryAfter(day, 5)).isEqualTo(day);
  }
}
