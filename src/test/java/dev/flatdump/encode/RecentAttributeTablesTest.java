package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.flatdump.Attr;
import org.junit.jupiter.api.Test;

class RecentAttributeTablesTest {

  private final RecentAttributeTables recent = new RecentAttributeTables();

  @Test
  void answersTheInstanceItWasGiven() {
    Attr attr = attr("a", 0.5);
    recent.put(attr, 120);

    assertThat(recent.get(attr)).isEqualTo(120);
  }

  @Test
  void neverAnswersAnEqualInstance() {
    recent.put(attr("a", 0.5), 120);

    assertThat(recent.get(attr("a", 0.5))).isZero();
  }

  @Test
  void aLaterEqualInstanceTakesTheSlotOver() {
    Attr first = attr("a", 0.5);
    Attr second = attr("a", 0.5);
    recent.put(first, 120);
    recent.put(second, 240);

    assertThat(recent.get(second)).isEqualTo(240);
    assertThat(recent.get(first)).isZero();
  }

  @Test
  void remembersManyAttributesAtOnce() {
    Attr[] attrs = new Attr[1_000];
    for (int i = 0; i < attrs.length; i++) {
      attrs[i] = attr("attr_" + i, i / 7.0);
      recent.put(attrs[i], 8 * (i + 1));
    }

    int remembered = 0;
    for (int i = 0; i < attrs.length; i++) {
      int offset = recent.get(attrs[i]);
      assertThat(offset).as("attribute %d", i).isIn(0, 8 * (i + 1));
      remembered += offset == 0 ? 0 : 1;
    }
    // 1,000 attributes in 16,384 slots: a few may share one, most must not.
    assertThat(remembered).isGreaterThan(950);
  }

  @Test
  void rejectsAnOffsetThatCannotBeATable() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> recent.put(attr("a", 0.5), 0))
        .withMessageContaining("offset must be positive, was 0");
  }

  private static Attr attr(String id, double percent) {
    return new Attr(id, (byte) 1, (byte) 2, (short) 3, percent, true);
  }
}
