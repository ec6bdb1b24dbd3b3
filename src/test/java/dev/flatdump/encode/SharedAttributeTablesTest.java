package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.Attr;
import dev.flatdump.schema.fb.Attribute;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SharedAttributeTablesTest {

  private final FlatBufferBuilder builder = new FlatBufferBuilder(64);

  private SharedStrings strings;
  private SharedAttributeTables tables;

  private void open(boolean shareStrings, boolean shareTables) {
    strings = new SharedStrings(builder, shareStrings);
    tables = new SharedAttributeTables(builder, strings, shareTables);
  }

  private static Attr attr(String id, int quantity, double percent) {
    // a new String each time: equal attributes are never the same instances here
    return new Attr(new String(id), (byte) quantity, (byte) -3, (short) 700, percent, true);
  }

  /** Finishes the buffer (the builder reads out only then), its root at {@code root}. */
  private ByteBuffer finish(int root) {
    builder.finish(root);
    return builder.dataBuffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The table at {@code offset} of a finished buffer, read by the generated code. */
  private static Attr tableAt(ByteBuffer bb, int offset) {
    Attribute a = new Attribute().__assign(bb.capacity() - offset, bb);
    return new Attr(a.id(), a.quantity(), a.amount(), a.size(), a.percent(), a.active());
  }

  @ParameterizedTest(name = "strings shared: {0}")
  @ValueSource(booleans = {true, false})
  void equalAttributesShareOneTable(boolean shareStrings) {
    open(shareStrings, true);

    int first = tables.offset(attr("attr_1", 5, 12.5));
    int written = builder.offset();
    int again = tables.offset(attr("attr_1", 5, 12.5));
    int otherQuantity = tables.offset(attr("attr_1", 6, 12.5));

    assertThat(again).isEqualTo(first);
    assertThat(builder.offset()).isGreaterThan(written); // only the third was written
    assertThat(otherQuantity).isNotEqualTo(first);
    assertThat(tables.counter()).isEqualTo(new DedupStats.Counter(3, 2));
    // the id is written once when strings are shared, once per new table when they are not
    assertThat(strings.counter()).isEqualTo(new DedupStats.Counter(2, shareStrings ? 1 : 2));
    ByteBuffer bb = finish(otherQuantity);
    assertThat(tableAt(bb, first)).isEqualTo(attr("attr_1", 5, 12.5));
    assertThat(tableAt(bb, otherQuantity)).isEqualTo(attr("attr_1", 6, 12.5));
  }

  @Test
  void anAttributePushedOutOfTheRecentCacheStillFindsItsTable() {
    open(true, true);
    int first = tables.offset(attr("attr_1", 5, 12.5));
    // 40,000 other attributes, more than the 16,384 recent slots; each comes twice, so half are
    // found again and the table index stays active
    for (int i = 0; i < 20_000; i++) {
      Attr a = attr("attr_" + (i % 300), i % 100, i);
      tables.offset(a);
      tables.offset(a);
    }
    int written = builder.offset();

    assertThat(tables.offset(attr("attr_1", 5, 12.5))).isEqualTo(first);
    assertThat(builder.offset()).isEqualTo(written);
  }

  @Test
  void percentsAreComparedByTheirBits() {
    open(true, true);
    double nan1 = Double.longBitsToDouble(0x7ff8_0000_0000_0001L);
    double nan2 = Double.longBitsToDouble(0x7ff8_0000_0000_0002L);

    int zero = tables.offset(attr("a", 1, 0.0));
    int negativeZero = tables.offset(attr("a", 1, -0.0));
    int firstNan = tables.offset(attr("a", 1, nan1));
    int otherNan = tables.offset(attr("a", 1, nan2));

    assertThat(Set.of(zero, negativeZero, firstNan, otherNan)).hasSize(4);
    assertThat(tables.offset(attr("a", 1, nan1))).isEqualTo(firstNan);
    ByteBuffer bb = finish(otherNan);
    assertThat(Double.doubleToRawLongBits(tableAt(bb, negativeZero).percent()))
        .isEqualTo(Double.doubleToRawLongBits(-0.0));
    assertThat(Double.doubleToRawLongBits(tableAt(bb, otherNan).percent()))
        .isEqualTo(Double.doubleToRawLongBits(nan2));
  }

  @Test
  void withoutSharingEveryAttributeIsWritten() {
    open(true, false);

    int first = tables.offset(attr("attr_1", 5, 12.5));
    int second = tables.offset(attr("attr_1", 5, 12.5));

    assertThat(second).isNotEqualTo(first);
    assertThat(tables.counter()).isEqualTo(new DedupStats.Counter(2, 2));
    assertThat(strings.counter()).isEqualTo(new DedupStats.Counter(2, 1)); // the id still shared
    ByteBuffer bb = finish(second);
    assertThat(tableAt(bb, first)).isEqualTo(attr("attr_1", 5, 12.5));
    assertThat(tableAt(bb, second)).isEqualTo(attr("attr_1", 5, 12.5));
  }

  @Test
  void pausesWhereAttributesDoNotRepeatAndWritesThemAllMeanwhile() {
    open(true, true);
    // One sampling window (65,536) of attributes that never repeat: under 10 % found, so the
    // index pauses for 15 windows.
    for (int i = 0; i < 1 << 16; i++) {
      tables.offset(attr("attr_" + (i % 50), 1, i));
    }
    int before = tables.offset(attr("attr_7", 1, -1.0));

    int again = tables.offset(attr("attr_7", 1, -1.0));

    assertThat(again).isNotEqualTo(before); // not looked up: written again
    assertThat(tables.counter().total()).isEqualTo(tables.counter().unique());
    // every table reads back as what was given, paused or not
    int[] offsets = new int[100];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = tables.offset(attr("attr_" + i, 2, i * 0.25));
    }
    ByteBuffer bb = finish(offsets[offsets.length - 1]);
    assertThat(tableAt(bb, again))
        .isEqualTo(tableAt(bb, before))
        .isEqualTo(attr("attr_7", 1, -1.0));
    for (int i = 0; i < offsets.length; i++) {
      assertThat(tableAt(bb, offsets[i])).isEqualTo(attr("attr_" + i, 2, i * 0.25));
    }
    assertThat(Arrays.stream(offsets).distinct().count()).isEqualTo(offsets.length);
  }
}
