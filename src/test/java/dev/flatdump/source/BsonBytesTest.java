package dev.flatdump.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.source.BsonBytes.FieldName;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BsonBytesTest {

  /** {@code text} as bytes, then zeros up to {@code length}. */
  private static byte[] bytes(String text, int length) {
    byte[] b = new byte[length];
    byte[] t = text.getBytes(StandardCharsets.ISO_8859_1);
    System.arraycopy(t, 0, b, 0, t.length);
    return b;
  }

  @Test
  void lowBytesMasksExactlyTheFirstNBytesOfAWord() {
    assertThat(BsonBytes.lowBytes(-8)).isZero();
    assertThat(BsonBytes.lowBytes(0)).isZero();
    assertThat(BsonBytes.lowBytes(1)).isEqualTo(0xFFL);
    assertThat(BsonBytes.lowBytes(7)).isEqualTo(0x00FF_FFFF_FFFF_FFFFL);
    assertThat(BsonBytes.lowBytes(8)).isEqualTo(-1L);
    assertThat(BsonBytes.lowBytes(9)).isEqualTo(-1L);
  }

  @Test
  void aFieldNameIsRecognisedOnlyWithItsNulRightAfterIt() {
    FieldName size = FieldName.of("size");
    assertThat(size.size()).isEqualTo(5);
    byte[] b = bytes("xsize\0\1\2\3\4\5\6", 16);
    assertThat(size.at(b, 1, 16)).isTrue();
    assertThat(size.at(bytes("xsizes\0\1\2\3\4\5", 16), 1, 16)).isFalse();
    assertThat(size.at(bytes("xsiz\0\1\2\3\4\5\6", 16), 1, 16)).isFalse();
    assertThat(size.at(bytes("xSize\0\1\2\3\4\5\6", 16), 1, 16)).isFalse();
    // the name and its NUL must lie before the end of the enclosing document
    assertThat(size.at(b, 1, 5)).isFalse();
    assertThat(size.at(b, 1, 6)).isTrue();
  }

  @Test
  void aNameOfEightBytesHasItsNulAfterTheWord() {
    FieldName quantity = FieldName.of("quantity");
    assertThat(quantity.size()).isEqualTo(9);
    assertThat(quantity.at(bytes("quantity\0\1\2", 11), 0, 11)).isTrue();
    assertThat(quantity.at(bytes("quantityX\0\2", 11), 0, 11)).isFalse();
    assertThat(quantity.at(bytes("quantitx\0\1\2", 11), 0, 11)).isFalse();
    assertThat(quantity.at(bytes("quantity\0\1\2", 11), 0, 8)).isFalse();
  }

  @Test
  void withFewerThanEightBytesLeftInTheArrayItCannotTell() {
    FieldName id = FieldName.of("id");
    byte[] b = bytes("..id\0\1\2\3", 8);
    assertThat(id.at(b, 0, 8)).isFalse(); // "..id" is not "id"
    assertThat(id.at(b, 2, 8)).as("only 6 bytes left: the caller scans").isFalse();
    assertThat(id.at(bytes("id\0\1\2\3\4\5", 8), 0, 8)).isTrue();
  }

  @Test
  void namesMustBeOneToEightBytesWithoutNul() {
    assertThatThrownBy(() -> FieldName.of("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FieldName.of("quantity9"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FieldName.of("a\0b")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void readsLittleEndianNumbersAnywhereInTheArray() {
    ByteBuffer buffer = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
    buffer.putInt(3, -123_456_789);
    buffer.putInt(11, Integer.MIN_VALUE);
    buffer.putLong(17, Double.doubleToRawLongBits(-0.25));
    byte[] b = buffer.array();
    assertThat(BsonBytes.int32At(b, 3)).isEqualTo(-123_456_789);
    assertThat(BsonBytes.int32At(b, 11)).isEqualTo(Integer.MIN_VALUE);
    assertThat(Double.longBitsToDouble(BsonBytes.int64(b, 17, 25))).isEqualTo(-0.25);
    assertThatThrownBy(() -> BsonBytes.int64(b, 17, 24)).isSameAs(BsonBytes.NOT_PLAIN);
    assertThatThrownBy(() -> BsonBytes.int32At(b, 29))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }
}
