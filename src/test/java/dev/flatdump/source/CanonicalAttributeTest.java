package dev.flatdump.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.Attr;
import dev.flatdump.Org;
import dev.flatdump.OrgType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.bson.BsonArray;
import org.bson.BsonBinaryWriter;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CanonicalAttributeTest {

  /** The bytes of the attribute sub-document {@link OrgCodec} writes for {@code attr}. */
  static byte[] written(Attr attr) {
    var out = new BasicOutputBuffer();
    new OrgCodec()
        .encode(
            new BsonBinaryWriter(out),
            new BsonObjectId(new ObjectId()),
            new Org("n", "c", "ES", OrgType.FOO, List.of(attr)));
    BsonValue element = new RawBsonDocument(out.toByteArray()).getArray("attributes").get(0);
    ByteBuffer bytes = ((RawBsonDocument) element).getByteBuffer().asNIO();
    byte[] copy = new byte[bytes.remaining()];
    bytes.get(copy);
    return copy;
  }

  static byte[] bytes(BsonDocument document) {
    var out = new BasicOutputBuffer();
    new BsonDocumentCodec()
        .encode(new BsonBinaryWriter(out), document, EncoderContext.builder().build());
    return out.toByteArray();
  }

  private static boolean matches(byte[] attribute) {
    return CanonicalAttribute.matches(attribute, 0, attribute.length);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "a",
        "attr_123",
        "ñandú",
        "a long attribute id of sixty characters, padded out to it.."
      })
  void matchesWhatOrgCodecWritesAndFindsItsValuesAtTheirOffsets(String id) {
    var attr = new Attr(id, Byte.MIN_VALUE, Byte.MAX_VALUE, Short.MIN_VALUE, -0.0, true);
    byte[] b = written(attr);

    assertThat(matches(b)).isTrue();
    ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int values = b.length - CanonicalAttribute.TAIL;
    assertThat(le.getInt(CanonicalAttribute.ID_LENGTH)).isEqualTo(b.length - 12 - 63);
    assertThat(le.getInt(values + CanonicalAttribute.QUANTITY)).isEqualTo(Byte.MIN_VALUE);
    assertThat(le.getInt(values + CanonicalAttribute.AMOUNT)).isEqualTo(Byte.MAX_VALUE);
    assertThat(le.getInt(values + CanonicalAttribute.SIZE)).isEqualTo(Short.MIN_VALUE);
    assertThat(b[values + CanonicalAttribute.ACTIVE]).isEqualTo((byte) 1);
    assertThat(le.getLong(values + CanonicalAttribute.PERCENT))
        .isEqualTo(Double.doubleToRawLongBits(-0.0));
  }

  /**
   * Every byte of the layout's types, names, NULs and the id's length is checked; no value byte, id
   * byte or the document's own length (the caller's) is.
   */
  @Test
  void checksExactlyTheLayoutsFixedBytes() {
    byte[] b = written(new Attr("attr_123", (byte) 5, (byte) 6, (short) 7, 0.5, false));
    int idEnd = b.length - CanonicalAttribute.TAIL;
    int[][] values = {
      {0, 4}, // the document's length
      {12, idEnd}, // the id's bytes and NUL
      {idEnd + CanonicalAttribute.QUANTITY, idEnd + CanonicalAttribute.QUANTITY + 4},
      {idEnd + CanonicalAttribute.AMOUNT, idEnd + CanonicalAttribute.AMOUNT + 4},
      {idEnd + CanonicalAttribute.ACTIVE, idEnd + CanonicalAttribute.ACTIVE + 1},
      {idEnd + CanonicalAttribute.PERCENT, idEnd + CanonicalAttribute.PERCENT + 8},
      {idEnd + CanonicalAttribute.SIZE, idEnd + CanonicalAttribute.SIZE + 4}
    };
    for (int i = 0; i < b.length; i++) {
      boolean value = false;
      for (int[] range : values) {
        value |= i >= range[0] && i < range[1];
      }
      for (int bit = 0; bit < 8; bit++) {
        byte[] changed = b.clone();
        changed[i] ^= (byte) (1 << bit);
        assertThat(matches(changed)).as("byte %d bit %d", i, bit).isEqualTo(value);
      }
    }
  }

  @Test
  void refusesOtherLayouts() {
    BsonDocument canonical =
        new BsonDocument("id", new BsonString("attr_1"))
            .append("quantity", new BsonInt32(1))
            .append("amount", new BsonInt32(2))
            .append("active", org.bson.BsonBoolean.TRUE)
            .append("percent", new BsonDouble(0.5))
            .append("size", new BsonInt32(3));
    assertThat(matches(bytes(canonical))).isTrue();

    BsonDocument intPercent = canonical.clone().append("percent", new BsonInt32(1));
    BsonDocument extra = canonical.clone().append("x", new BsonInt32(1));
    BsonDocument missing = canonical.clone();
    missing.remove("amount");
    BsonDocument reordered = new BsonDocument("quantity", new BsonInt32(1));
    canonical.forEach((k, v) -> reordered.putIfAbsent(k, v));
    BsonDocument idNotString = canonical.clone().append("id", new BsonInt32(1));
    BsonDocument nested = new BsonDocument("a", new BsonArray());
    for (BsonDocument other : List.of(intPercent, extra, missing, reordered, idNotString, nested)) {
      assertThat(matches(bytes(other))).as(other.toJson()).isFalse();
    }
    // a document cut short, or longer than its end says
    byte[] b = bytes(canonical);
    assertThat(CanonicalAttribute.matches(b, 0, b.length - 1)).isFalse();
    byte[] longer = Arrays.copyOf(b, b.length + 8);
    assertThat(CanonicalAttribute.matches(longer, 0, longer.length)).isFalse();
  }
}
