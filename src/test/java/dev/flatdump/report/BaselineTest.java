package dev.flatdump.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BaselineTest {

  @Test
  void parsesACommaListInAnyOrderAndCase() {
    assertThat(Baseline.parse(" JSON, plain,strings ,protobuf,json"))
        .containsExactly(Baseline.PLAIN, Baseline.STRINGS, Baseline.PROTOBUF, Baseline.JSON);
  }

  @Test
  void parsesNoneAsTheEmptySet() {
    assertThat(Baseline.parse("none")).isEmpty();
  }

  @Test
  void rejectsAnUnknownNameNamingIt() {
    assertThatThrownBy(() -> Baseline.parse("plain,avro"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'avro'")
        .hasMessageContaining("plain, strings, protobuf, json, or none");
  }

  @Test
  void rejectsEmptyNamesAndNoneWithOthers() {
    assertThatThrownBy(() -> Baseline.parse("plain,,json"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown value ''");
    assertThatThrownBy(() -> Baseline.parse("none,json"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("combines 'none'");
    assertThatThrownBy(() -> Baseline.parse(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not be empty");
  }

  @Test
  void showsItsLowerCaseId() {
    assertThat(Baseline.STRINGS.id()).isEqualTo("strings");
  }
}
