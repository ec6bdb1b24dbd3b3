package dev.flatdump.encode.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The short cuts agree with the hash lookup: names of 1..15 bytes, and never past their NUL. */
class FieldLookupTest {

  private static final List<String> NAMES =
      List.of(
          "a",
          "id",
          "size",
          "percent",
          "quantity",
          "attributes",
          "exactly15bytes_",
          "x16bytes_name_xx");

  private static FieldLookup lookup(List<String> names) {
    List<FieldPlan> fields = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      fields.add(
          new FieldPlan(
              names.get(i),
              names.get(i),
              i,
              4 + 2 * i,
              FieldKind.INT,
              null,
              -1,
              -1,
              false,
              false,
              false,
              false,
              false,
              false,
              0,
              0));
    }
    return new FieldLookup(fields);
  }

  private static FieldLookup lookup() {
    return lookup(NAMES);
  }

  /** {@code name}, its NUL, then {@code after}, padded so that 16 bytes can be read. */
  private static byte[] element(String name, String after) {
    byte[] n = (name + "\0" + after).getBytes(StandardCharsets.UTF_8);
    byte[] b = new byte[n.length + 32];
    System.arraycopy(n, 0, b, 3, n.length);
    return b;
  }

  @Test
  void recognisesEachNameUpToFifteenBytesByItsPosition() {
    FieldLookup lookup = lookup();
    for (int i = 0; i < NAMES.size(); i++) {
      String name = NAMES.get(i);
      byte[] b = element(name, "zzzzzzzz");
      int expected = name.length() <= 15 ? 3 + name.length() : -1;
      assertThat(lookup.nulAfter(i, b, 3)).as(name).isEqualTo(expected);
      assertThat(lookup.find(b, 3, name.length())).as(name).isEqualTo(i);
    }
  }

  @Test
  void neverTakesAPrefixOrALongerName() {
    FieldLookup lookup = lookup();
    assertThat(lookup.nulAfter(NAMES.indexOf("size"), element("sizes", ""), 3)).isEqualTo(-1);
    assertThat(lookup.nulAfter(NAMES.indexOf("quantity"), element("quantity2", ""), 3))
        .isEqualTo(-1);
    assertThat(lookup.nulAfter(NAMES.indexOf("id"), element("i", "d"), 3)).isEqualTo(-1);
    assertThat(lookup.nulAfter(NAMES.indexOf("percent"), element("percent", "x"), 3))
        .isEqualTo(3 + 7);
  }

  @Test
  void triesEveryShortNameOnlyWhenATableHasFew() {
    FieldLookup few = lookup();
    assertThat(few.findShort(element("quantity", "x"), 3)).isEqualTo(NAMES.indexOf("quantity"));
    assertThat(few.findShort(element("nope", ""), 3)).isEqualTo(-1);
    List<String> many = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      many.add("f" + i);
    }
    assertThat(lookup(many).findShort(element("f3", ""), 3)).isEqualTo(-1);
  }
}
