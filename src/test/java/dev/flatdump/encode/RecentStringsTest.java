package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class RecentStringsTest {

  private final RecentStrings recent = new RecentStrings();

  @Test
  void answersOnlyTheInstanceItWasGiven() {
    String category = new String("Banking");
    recent.put(category, 120);

    assertThat(recent.get(category)).isEqualTo(120);
    assertThat(recent.get(new String("Banking"))).as("an equal instance").isZero();
  }

  @Test
  void aLaterEqualInstanceTakesTheSlotOver() {
    String first = new String("ES");
    String second = new String("ES");
    recent.put(first, 120);
    recent.put(second, 240);

    assertThat(recent.get(second)).isEqualTo(240);
    assertThat(recent.get(first)).isZero();
  }

  @Test
  void remembersTheAttributeIdsOfAnExportAtOnce() {
    String[] ids = new String[400];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = String.format("attr_%03d", i);
      recent.put(ids[i], 4 * (i + 1));
    }

    int remembered = 0;
    for (int i = 0; i < ids.length; i++) {
      int offset = recent.get(ids[i]);
      assertThat(offset).as("id %d", i).isIn(0, 4 * (i + 1));
      remembered += offset == 0 ? 0 : 1;
    }
    // 400 ids in 4,096 slots: a few may share one, most must not.
    assertThat(remembered).isGreaterThan(350);
  }

  @Test
  void rejectsAnOffsetThatCannotBeAString() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> recent.put("x", 0))
        .withMessageContaining("offset must be positive, was 0");
  }
}
