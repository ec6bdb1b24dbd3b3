package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.FlatdumpException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SharedStringsTest {

  private final FlatBufferBuilder builder = new FlatBufferBuilder(64);

  /** Finishes the buffer (the builder reads out only then), its root at {@code root}. */
  private ByteBuffer finish(int root) {
    builder.finish(root);
    return builder.dataBuffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The string at {@code offset} of a finished buffer, read as a reader would. */
  private static String stringAt(ByteBuffer bb, int offset) {
    int at = bb.capacity() - offset;
    byte[] bytes = new byte[bb.getInt(at)];
    bb.get(at + 4, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Test
  void equalStringsShareOneOffsetAndAreWrittenOnce() {
    SharedStrings strings = new SharedStrings(builder, true);

    int first = strings.offset(new String("Spain"), "country");
    int written = builder.offset();
    int again = strings.offset(new String("Spain"), "country"); // another instance, equal
    int other = strings.offset("France", "country");

    assertThat(again).isEqualTo(first);
    assertThat(other).isNotEqualTo(first);
    assertThat(builder.offset()).isGreaterThan(written); // only France was written after Spain
    assertThat(strings.counter()).isEqualTo(new DedupStats.Counter(3, 2));
    ByteBuffer bb = finish(other);
    assertThat(stringAt(bb, first)).isEqualTo("Spain");
    assertThat(stringAt(bb, other)).isEqualTo("France");
  }

  @Test
  void aStringPushedOutOfTheRecentCacheIsStillShared() {
    SharedStrings strings = new SharedStrings(builder, true);
    int spain = strings.offset("Spain", "country");
    // 10,000 other strings: far more than the 4,096 recent slots
    for (int i = 0; i < 10_000; i++) {
      strings.offset("name " + i, "name");
    }
    int written = builder.offset();

    assertThat(strings.offset(new String("Spain"), "country")).isEqualTo(spain);
    assertThat(builder.offset()).isEqualTo(written);
    assertThat(strings.counter()).isEqualTo(new DedupStats.Counter(10_002, 10_001));
  }

  @Test
  void withoutSharingEveryStringIsWritten() {
    SharedStrings strings = new SharedStrings(builder, false);

    int first = strings.offset("Spain", "country");
    int second = strings.offset("Spain", "country");

    assertThat(strings.sharing()).isFalse();
    assertThat(second).isNotEqualTo(first);
    assertThat(strings.counter()).isEqualTo(new DedupStats.Counter(2, 2));
    ByteBuffer bb = finish(second);
    assertThat(stringAt(bb, first)).isEqualTo("Spain");
    assertThat(stringAt(bb, second)).isEqualTo("Spain");
  }

  @Test
  void aReuseTheCallerKeptCountsAsAUseOnly() {
    SharedStrings strings = new SharedStrings(builder, true);
    strings.offset("attr_1", "attribute id");

    strings.reused();

    assertThat(strings.counter()).isEqualTo(new DedupStats.Counter(2, 1));
  }

  @Test
  void aStringThatIsNotUtf8IsRefusedNamingItsFieldAndWritesNothing() {
    SharedStrings strings = new SharedStrings(builder, true);
    strings.offset("before", "name");
    int written = builder.offset();

    assertThatThrownBy(() -> strings.offset("bad \uD800 surrogate", "attribute id"))
        .isInstanceOf(FlatdumpException.class)
        .hasMessageStartingWith("cannot encode attribute id 'bad \uD800 surrogate' as UTF-8");

    assertThat(builder.offset()).isEqualTo(written);
    // not remembered either: a good string after it is written and shared as usual
    int after = strings.offset("after", "name");
    assertThat(strings.offset("after", "name")).isEqualTo(after);
    assertThat(strings.counter().unique()).isEqualTo(2);
    assertThat(stringAt(finish(after), after)).isEqualTo("after");
  }
}
