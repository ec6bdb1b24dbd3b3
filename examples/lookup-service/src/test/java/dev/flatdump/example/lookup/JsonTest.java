package dev.flatdump.example.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void writesEachKindOfValue() {
    Json json =
        new Json()
            .put("s", "x")
            .put("n", 42L)
            .put("u", new BigInteger("18446744073709551615"))
            .put("d", 1.5)
            .put("nan", Double.NaN)
            .put("b", false)
            .put("none", null)
            .put("nested", new Json().put("a", 1));
    assertThat(json)
        .hasToString(
            "{\"s\":\"x\",\"n\":42,\"u\":18446744073709551615,\"d\":1.5,\"nan\":\"NaN\","
                + "\"b\":false,\"none\":null,\"nested\":{\"a\":1}}");
    assertThat(new Json()).hasToString("{}");
  }

  @Test
  void escapesQuotesBackslashesAndControlsAndKeepsOtherCharacters() {
    assertThat(Json.quote("a\"b\\c\nd\re\tf\u0000g\u001f/é日😀", new StringBuilder()))
        .hasToString("\"a\\\"b\\\\c\\nd\\re\\tf\\u0000g\\u001f/é日😀\"");
  }

  @Test
  void escapesALoneSurrogateSoThatTheAnswerStaysUtf8() {
    assertThat(Json.quote("a\ud800b\udc00", new StringBuilder()))
        .hasToString("\"a\\ud800b\\udc00\"");
    assertThat(new Json().put("k\"", "v")).hasToString("{\"k\\\"\":\"v\"}");
  }
}
