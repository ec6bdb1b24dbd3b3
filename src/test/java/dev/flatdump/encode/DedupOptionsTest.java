package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.encode.engine.Sharing;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class DedupOptionsTest {

  @Nested
  class Parse {

    @Test
    void readsAllThreeKinds() {
      assertThat(DedupOptions.parse("strings,tables,vectors")).isEqualTo(DedupOptions.ALL);
    }

    @Test
    void readsNone() {
      assertThat(DedupOptions.parse("none")).isEqualTo(DedupOptions.NONE);
    }

    @Test
    void ignoresCaseWhitespaceOrderAndRepeats() {
      assertThat(DedupOptions.parse(" Vectors ,STRINGS,\tstrings "))
          .isEqualTo(new DedupOptions(true, false, true));
      assertThat(DedupOptions.parse(" NONE ")).isEqualTo(DedupOptions.NONE);
      assertThat(DedupOptions.parse("strings")).isEqualTo(DedupOptions.STRINGS_ONLY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sharing", "strings,table", "strings,", ",vectors", "strings;vectors"})
    void rejectsUnknownValuesNamingThemAndTheAcceptedOnes(String text) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> DedupOptions.parse(text))
          .withMessageContaining("'" + text + "'")
          .withMessageContaining("strings, tables, vectors, or none");
    }

    @Test
    void namesTheOneBadValueInAList() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> DedupOptions.parse("strings, objects ,vectors"))
          .withMessageContaining("unknown value 'objects'");
    }

    @Test
    void knowsTablesOfEveryTypeAndNoRecordTypesName() {
      assertThat(DedupOptions.parse("tables").kinds())
          .isEqualTo(new Sharing.Kinds(false, true, false));
      // the demo schema's attribute tables are tables like any other: no name of their own
      assertThatThrownBy(() -> DedupOptions.parse("attributes"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("unknown value 'attributes'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  "})
    void rejectsEmptyText(String text) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> DedupOptions.parse(text))
          .withMessageContaining("must not be empty");
    }

    @Test
    void rejectsNull() {
      assertThatIllegalArgumentException().isThrownBy(() -> DedupOptions.parse(null));
    }

    @Test
    void rejectsNoneWithOtherKinds() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> DedupOptions.parse("none,strings"))
          .withMessageContaining("combines 'none'");
    }
  }

  @Nested
  class Text {

    @Test
    void isCanonical() {
      assertThat(DedupOptions.ALL).hasToString("strings,tables,vectors");
      assertThat(DedupOptions.NONE).hasToString("none");
      assertThat(DedupOptions.STRINGS_ONLY).hasToString("strings");
      assertThat(new DedupOptions(false, true, true)).hasToString("tables,vectors");
    }

    @ParameterizedTest
    @MethodSource("dev.flatdump.encode.DedupOptionsTest#allDedupOptions")
    void parsesBackToTheSameOptions(DedupOptions options) {
      assertThat(DedupOptions.parse(options.toString())).isEqualTo(options);
    }
  }

  /** Every combination of the three de-dup switches. */
  static Stream<DedupOptions> allDedupOptions() {
    var all = Stream.<DedupOptions>builder();
    for (int bits = 0; bits < 8; bits++) {
      all.add(new DedupOptions((bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0));
    }
    return all.build();
  }
}
