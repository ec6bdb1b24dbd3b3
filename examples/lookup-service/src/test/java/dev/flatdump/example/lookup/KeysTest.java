package dev.flatdump.example.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.reader.ExportManifest;
import org.junit.jupiter.api.Test;

class KeysTest {

  private static ExportManifest.Lookup key(String type) {
    return new ExportManifest.Lookup("rs", 4, "id", type, 4, 0);
  }

  @Test
  void decodesPercentEscapesAsUtf8AndLeavesPlusSigns() {
    assertThat(Keys.decode("plain")).isEqualTo("plain");
    assertThat(Keys.decode("a%20b+c%2Fd%25")).isEqualTo("a b+c/d%");
    assertThat(Keys.decode("%C3%A9%e6%97%a5%F0%9F%98%80")).isEqualTo("é日😀");
    assertThat(Keys.decode("")).isEmpty();
  }

  @Test
  void refusesMalformedEscapesAndBytesThatAreNotUtf8() {
    for (String raw : new String[] {"%", "a%2", "%zz", "%g0"}) {
      assertThatThrownBy(() -> Keys.decode(raw))
          .as(raw)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("malformed %-escape");
    }
    assertThatThrownBy(() -> Keys.decode("%C3"))
        .hasMessageContaining("is not UTF-8")
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Keys.decode("%ED%A0%80")) // a surrogate, encoded
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void readsIntegersWithinTheRangeOfTheKeysType() {
    assertThat(Keys.integer("-9223372036854775808", key("long"))).isEqualTo(Long.MIN_VALUE);
    assertThat(Keys.integer("18446744073709551615", key("ulong"))).isEqualTo(-1L);
    assertThat(Keys.integer("4294967295", key("uint"))).isEqualTo(0xffff_ffffL);
    assertThat(Keys.integer("-32768", key("short"))).isEqualTo(-32768);
    assertThat(Keys.integer("-128", key("byte"))).isEqualTo(-128);
    assertThat(Keys.integer("255", key("ubyte"))).isEqualTo(255);
    for (String[] bad :
        new String[][] {
          {"4294967296", "uint"},
          {"32768", "short"},
          {"-129", "byte"},
          {"256", "ubyte"},
          {"2147483648", "int"}
        }) {
      assertThatThrownBy(() -> Keys.integer(bad[0], key(bad[1])))
          .hasMessage(bad[0] + " is out of range: the records' key id is a " + bad[1]);
    }
    for (String[] bad :
        new String[][] {{"-1", "ulong"}, {"x", "long"}, {"", "int"}, {"1.0", "int"}}) {
      assertThatThrownBy(() -> Keys.integer(bad[0], key(bad[1])))
          .hasMessage("'" + bad[0] + "' is not an integer key: the records' key id is a " + bad[1]);
    }
  }
}
