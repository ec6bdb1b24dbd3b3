package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.flatdump.Attr;
import org.junit.jupiter.api.Test;

class RecentOffsetsTest {

  private final RecentOffsets<Attr> tables = new RecentOffsets<>(14);
  private final RecentOffsets<String> strings = new RecentOffsets<>(12);

  @Test
  void answersOnlyTheInstanceItWasGiven() {
    Attr attr = attr("a", 0.5);
    tables.put(attr, RecentOffsets.hash(attr), 120);
    String category = new String("Banking");
    strings.put(category, category.hashCode(), 40);

    assertThat(tables.get(attr, RecentOffsets.hash(attr))).isEqualTo(120);
    Attr equal = attr("a", 0.5);
    assertThat(tables.get(equal, RecentOffsets.hash(equal))).as("an equal attribute").isZero();
    assertThat(strings.get(category, category.hashCode())).isEqualTo(40);
    assertThat(strings.get(new String("Banking"), category.hashCode()))
        .as("an equal string")
        .isZero();
  }

  @Test
  void aLaterEqualInstanceTakesTheSlotOver() {
    Attr first = attr("a", 0.5);
    Attr second = attr("a", 0.5);
    tables.put(first, RecentOffsets.hash(first), 120);
    tables.put(second, RecentOffsets.hash(second), 240);

    assertThat(tables.get(second, RecentOffsets.hash(second))).isEqualTo(240);
    assertThat(tables.get(first, RecentOffsets.hash(first))).isZero();
  }

  @Test
  void remembersManyAttributesAtOnce() {
    Attr[] attrs = new Attr[1_000];
    for (int i = 0; i < attrs.length; i++) {
      attrs[i] = attr("attr_" + i, i / 7.0);
      tables.put(attrs[i], RecentOffsets.hash(attrs[i]), 8 * (i + 1));
    }

    int remembered = 0;
    for (int i = 0; i < attrs.length; i++) {
      int offset = tables.get(attrs[i], RecentOffsets.hash(attrs[i]));
      assertThat(offset).as("attribute %d", i).isIn(0, 8 * (i + 1));
      remembered += offset == 0 ? 0 : 1;
    }
    // 1,000 attributes in 16,384 slots: a few may share one, most must not.
    assertThat(remembered).isGreaterThan(950);
  }

  @Test
  void attributesThatShareAnIdLandInDifferentSlots() {
    // 400 ids × 4 tuples, as realistic data has: the scalars must spread them.
    Attr[] attrs = new Attr[1_600];
    for (int i = 0; i < attrs.length; i++) {
      attrs[i] = attr(String.format("attr_%03d", i / 4), (i % 4) * 0.25);
      tables.put(attrs[i], RecentOffsets.hash(attrs[i]), 8 * (i + 1));
    }

    long remembered = 0;
    for (int i = 0; i < attrs.length; i++) {
      remembered += tables.get(attrs[i], RecentOffsets.hash(attrs[i])) == 0 ? 0 : 1;
    }
    assertThat(remembered).isGreaterThan(1_450);
  }

  @Test
  void rejectsAnOffsetThatCannotBeWrittenAndSizesOutOfRange() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> strings.put("x", "x".hashCode(), 0))
        .withMessageContaining("offset must be positive, was 0");
    assertThatIllegalArgumentException().isThrownBy(() -> new RecentOffsets<String>(0));
    assertThatIllegalArgumentException().isThrownBy(() -> new RecentOffsets<String>(25));
  }

  private static Attr attr(String id, double percent) {
    return new Attr(id, (byte) 1, (byte) 2, (short) 3, percent, true);
  }
}
