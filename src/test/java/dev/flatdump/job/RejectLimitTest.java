package dev.flatdump.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.flatdump.FlatdumpException;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RejectLimitTest {

  @Nested
  class Parsing {

    @Test
    void takesACountAPercentageOrNone() {
      assertThat(RejectLimit.parse("100")).isEqualTo(RejectLimit.count(100));
      assertThat(RejectLimit.parse(" 0 ")).isEqualTo(RejectLimit.count(0));
      assertThat(RejectLimit.parse("5%").percent()).isEqualByComparingTo("5");
      assertThat(RejectLimit.parse("0.5%").percent()).isEqualByComparingTo("0.5");
      assertThat(RejectLimit.parse("100%").percent()).isEqualByComparingTo("100");
      assertThat(RejectLimit.parse("none")).isEqualTo(RejectLimit.NONE);
      assertThat(RejectLimit.parse("-1")).isEqualTo(RejectLimit.NONE);
    }

    @Test
    void writesWhatItParses() {
      assertThat(RejectLimit.parse("5%")).hasToString("5%");
      assertThat(RejectLimit.parse("5.0%")).hasToString("5%").isEqualTo(RejectLimit.parse("5%"));
      assertThat(RejectLimit.parse("0.25%")).hasToString("0.25%");
      assertThat(RejectLimit.parse("100")).hasToString("100");
      assertThat(RejectLimit.parse("none")).hasToString("none");
    }

    @Test
    void defaultsToOnePercent() {
      assertThat(RejectLimit.parse(RejectLimit.DEFAULT)).hasToString("1%");
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "",
          "-2",
          "ten",
          "5 %%",
          "%",
          "1.5",
          "101%",
          "-1%",
          "1e400x%",
          "1e999999999%",
          "1e-999999999%"
        })
    void refusesAnythingElseNamingIt(String text) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> RejectLimit.parse(text))
          .withMessageContaining("max rejects");
    }
  }

  @Nested
  class Judging {

    @Test
    void aCountIsPassedAsSoonAsMoreAreRejected() {
      RejectLimit two = RejectLimit.count(2);

      assertThat(two.exceededSoFar(2)).isFalse();
      assertThat(two.exceededSoFar(3)).isTrue();
      assertThat(two.exceeded(3, 1_000_000)).isTrue();
    }

    @Test
    void aPercentageIsOfTheDocumentsRead() {
      RejectLimit one = RejectLimit.parse("1%");

      assertThat(one.exceededSoFar(1_000)).as("not known before all are read").isFalse();
      assertThat(one.exceeded(10, 1_000)).isFalse();
      assertThat(one.exceeded(11, 1_000)).isTrue();
      assertThat(one.exceeded(1, 99)).isTrue();
      assertThat(one.exceeded(0, 0)).isFalse();
      assertThat(RejectLimit.parse("0.1%").exceeded(1, 1_000)).isFalse();
      assertThat(RejectLimit.parse("0.1%").exceeded(2, 1_000)).isTrue();
    }

    @Test
    void noneNeverIs() {
      assertThat(RejectLimit.NONE.exceededSoFar(Long.MAX_VALUE)).isFalse();
      assertThat(RejectLimit.NONE.exceeded(999, 1_000)).isFalse();
    }
  }

  @Nested
  class Acceptable {

    @Test
    void anExportThatRejectedEveryDocumentItReadFailsWhateverTheLimit() {
      for (RejectLimit limit : new RejectLimit[] {RejectLimit.NONE, RejectLimit.parse("100%")}) {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> ExportTasklet.requireAcceptableRejects(limit, 0, 7, "see rejects.jsonl"))
            .isInstanceOf(FlatdumpException.class)
            .hasMessageContaining("every document read was rejected (7)")
            .hasMessageContaining("nothing is published");
      }
    }

    @Test
    void anEmptyExportOrOneWithinTheLimitPasses() {
      ExportTasklet.requireAcceptableRejects(RejectLimit.parse("1%"), 0, 0, "");
      ExportTasklet.requireAcceptableRejects(RejectLimit.parse("1%"), 990, 10, "");
      ExportTasklet.requireAcceptableRejects(RejectLimit.NONE, 1, 999, "");
    }

    @Test
    void oneAboveTheLimitFailsSayingBy() {
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () ->
                  ExportTasklet.requireAcceptableRejects(
                      RejectLimit.parse("1%"), 989, 11, "see rejects.jsonl"))
          .isInstanceOf(FlatdumpException.class)
          .hasMessage(
              "11 of 1000 documents rejected (1.10 %), more than --max-rejects 1%; nothing is"
                  + " published; see rejects.jsonl");
    }
  }
}
