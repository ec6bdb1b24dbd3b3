package dev.flatdump.bench.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.bson.BsonArray;
import org.bson.BsonBinaryWriter;
import org.bson.BsonBoolean;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDocumentReader;
import org.bson.BsonDocumentWriter;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.BsonWriter;
import org.bson.RawBsonDocument;
import org.bson.codecs.DecoderContext;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;
import org.bson.types.Decimal128;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OrgCodecTest {

  private final OrgCodec codec = new OrgCodec();

  private BsonDocument encode(Org org) {
    var document = new BsonDocument();
    codec.encode(new BsonDocumentWriter(document), org, EncoderContext.builder().build());
    return document;
  }

  private Org decode(BsonDocument document) {
    return codec.decode(new BsonDocumentReader(document), DecoderContext.builder().build());
  }

  /** The rejection as {@code field: reason}. */
  private String rejection(BsonDocument document) {
    var thrown = new InvalidDocumentException[1];
    assertThatThrownBy(() -> decode(document))
        .isInstanceOfSatisfying(InvalidDocumentException.class, e -> thrown[0] = e);
    return thrown[0].field() + ": " + thrown[0].reason();
  }

  /** A valid document with two attributes, in the codec's field order. */
  private static BsonDocument validDocument() {
    return new BsonDocument("_id", new BsonInt32(7))
        .append("name", new BsonString("Acme"))
        .append("category", new BsonString("Banking"))
        .append("country", new BsonString("ES"))
        .append("type", new BsonString("BAR"))
        .append("attributes", new BsonArray(List.of(attribute("a1"), attribute("a2"))));
  }

  private static BsonDocument attribute(String id) {
    return new BsonDocument("id", new BsonString(id))
        .append("quantity", new BsonInt32(1))
        .append("amount", new BsonInt32(2))
        .append("active", BsonBoolean.TRUE)
        .append("percent", new BsonDouble(0.5))
        .append("size", new BsonInt32(3));
  }

  /** The valid document with the second attribute's field set to value (null: removed). */
  private static BsonDocument withAttribute(String field, BsonValue value) {
    BsonDocument document = validDocument();
    BsonDocument second = document.getArray("attributes").get(1).asDocument();
    if (value == null) {
      second.remove(field);
    } else {
      second.put(field, value);
    }
    return document;
  }

  private static BsonDocument with(String field, BsonValue value) {
    BsonDocument document = validDocument();
    if (value == null) {
      document.remove(field);
    } else {
      document.put(field, value);
    }
    return document;
  }

  private static final Org ACME =
      new Org(
          "Acme",
          "Banking",
          "ES",
          OrgType.BAR,
          List.of(
              new Attr("a1", (byte) 1, (byte) 2, (short) 3, 0.5, true),
              new Attr("a2", (byte) 1, (byte) 2, (short) 3, 0.5, true)));

  @Nested
  class RoundTrips {

    @Test
    void decodesAValidDocument() {
      assertThat(decode(validDocument())).isEqualTo(ACME);
    }

    @Test
    void keepsEdgeValues() {
      var org =
          new Org(
              "Ñandú 日本 🏢 \uD834\uDD1E",
              "cat\u0000egory",
              "🇪🇸",
              OrgType.BAZ,
              List.of(
                  new Attr("min", Byte.MIN_VALUE, Byte.MIN_VALUE, Short.MIN_VALUE, -0.0, false),
                  new Attr("max", Byte.MAX_VALUE, Byte.MAX_VALUE, Short.MAX_VALUE, 0.0, true),
                  new Attr("nan", (byte) 0, (byte) 0, (short) 0, Double.NaN, true),
                  new Attr(
                      "+inf", (byte) -1, (byte) 1, (short) -1, Double.POSITIVE_INFINITY, false),
                  new Attr("-inf", (byte) 1, (byte) -1, (short) 1, Double.NEGATIVE_INFINITY, true),
                  new Attr("tiny", (byte) 2, (byte) 3, (short) 4, Double.MIN_VALUE, false),
                  new Attr("huge", (byte) 5, (byte) 6, (short) 7, -Double.MAX_VALUE, true),
                  new Attr("", (byte) 8, (byte) 9, (short) 10, 12.345678901234567, false)));

      Org back = decode(encode(org));

      assertThat(back).isEqualTo(org);
      assertThat(Double.doubleToRawLongBits(back.attributes().get(0).percent()))
          .isEqualTo(Double.doubleToRawLongBits(-0.0));
    }

    @Test
    void keepsEmptyStringsAndEmptyAttributes() {
      var org = new Org("", "", "", OrgType.FOO, List.of());

      assertThat(decode(encode(org))).isEqualTo(org);
    }

    @Test
    void keepsAttributeOrderAndRepeatedIds() {
      var attrs = new ArrayList<Attr>();
      for (int i = 0; i < 70; i++) {
        attrs.add(
            new Attr(
                "id" + (69 - i) % 7, (byte) i, (byte) -i, (short) (i * 400), i / 3.0, i % 2 == 0));
      }
      var org = new Org("n", "c", "AR", OrgType.FOO, attrs);

      assertThat(decode(encode(org))).isEqualTo(org);
    }

    @Test
    void writesFieldsInSchemaOrderWithTheirBsonTypes() {
      BsonDocument document = encode(ACME);

      assertThat(document.keySet())
          .containsExactly("name", "category", "country", "type", "attributes");
      BsonDocument first = document.getArray("attributes").get(0).asDocument();
      assertThat(first.keySet())
          .containsExactly("id", "quantity", "amount", "active", "percent", "size");
      assertThat(List.of(first.get("quantity"), first.get("amount"), first.get("size")))
          .allSatisfy(v -> assertThat(v.getBsonType()).isEqualTo(BsonType.INT32));
      assertThat(first.get("percent").getBsonType()).isEqualTo(BsonType.DOUBLE);
      assertThat(first.get("active").getBsonType()).isEqualTo(BsonType.BOOLEAN);
    }

    @Test
    void writesTheIdFirstWhenGivenOne() {
      var document = new BsonDocument();
      codec.encode(new BsonDocumentWriter(document), new BsonInt64(99), ACME);

      assertThat(document.keySet())
          .containsExactly("_id", "name", "category", "country", "type", "attributes");
      assertThat(document.get("_id")).isEqualTo(new BsonInt64(99));
      assertThat(decode(document)).isEqualTo(ACME);
    }

    @Test
    void decodesRawDocuments() {
      var raw = new RawBsonDocument(ACME, codec);

      assertThat(codec.decode(raw)).isEqualTo(ACME);
      assertThat(codec.getEncoderClass()).isEqualTo(Org.class);
    }
  }

  @Nested
  class Skipping {

    @Test
    void skipsUnknownFields() {
      BsonDocument document = validDocument();
      document.put("comment", new BsonString("not part of the schema"));
      document.put(
          "extra",
          new BsonDocument(
              "nested",
              new BsonArray(
                  List.of(new BsonInt32(1), new BsonDocument("name", new BsonInt32(5))))));
      document
          .getArray("attributes")
          .get(0)
          .asDocument()
          .put("unit", new BsonDocument("quantity", BsonNull.VALUE));

      assertThat(decode(document)).isEqualTo(ACME);
    }

    @Test
    void needsNoId() {
      BsonDocument document = validDocument();
      document.remove("_id");

      assertThat(decode(document)).isEqualTo(ACME);
    }

    @Test
    void skipsIdsOfAnyType() {
      assertThat(decode(with("_id", new BsonDocument("a", new BsonArray())))).isEqualTo(ACME);
    }
  }

  @Nested
  class Widening {

    private Attr second(BsonDocument document) {
      return decode(document).attributes().get(1);
    }

    @Test
    void acceptsInt64AndIntegralDoublesInRange() {
      assertThat(second(withAttribute("quantity", new BsonInt64(127))).quantity())
          .isEqualTo((byte) 127);
      assertThat(second(withAttribute("amount", new BsonInt64(-128))).amount())
          .isEqualTo((byte) -128);
      assertThat(second(withAttribute("size", new BsonInt64(-32768))).size())
          .isEqualTo((short) -32768);
      assertThat(second(withAttribute("quantity", new BsonDouble(-128.0))).quantity())
          .isEqualTo((byte) -128);
      assertThat(second(withAttribute("size", new BsonDouble(32767.0))).size())
          .isEqualTo((short) 32767);
      assertThat(second(withAttribute("amount", new BsonDouble(-0.0))).amount())
          .isEqualTo((byte) 0);
    }

    @Test
    void acceptsExactPercents() {
      assertThat(second(withAttribute("percent", new BsonInt32(-7))).percent()).isEqualTo(-7.0);
      assertThat(second(withAttribute("percent", new BsonInt64(1L << 53))).percent())
          .isEqualTo(0x1p53);
      assertThat(second(withAttribute("percent", new BsonInt64(Long.MIN_VALUE))).percent())
          .isEqualTo(-0x1p63);
      assertThat(second(withAttribute("percent", decimal("0.25"))).percent()).isEqualTo(0.25);
      assertThat(second(withAttribute("percent", decimal("1.50"))).percent()).isEqualTo(1.5);
      assertThat(second(withAttribute("percent", new BsonDecimal128(Decimal128.NaN))).percent())
          .isNaN();
      assertThat(
              second(withAttribute("percent", new BsonDecimal128(Decimal128.POSITIVE_INFINITY)))
                  .percent())
          .isEqualTo(Double.POSITIVE_INFINITY);
      assertThat(
              second(withAttribute("percent", new BsonDecimal128(Decimal128.NEGATIVE_INFINITY)))
                  .percent())
          .isEqualTo(Double.NEGATIVE_INFINITY);
      assertThat(
              second(withAttribute("percent", new BsonDecimal128(Decimal128.NEGATIVE_ZERO)))
                  .percent())
          .isEqualTo(-0.0);
      assertThat(second(withAttribute("percent", decimal("0"))).percent()).isEqualTo(0.0);
    }
  }

  private static BsonDecimal128 decimal(String value) {
    return new BsonDecimal128(Decimal128.parse(value));
  }

  static Stream<Arguments> rejections() {
    return Stream.of(
        // missing
        arguments(with("name", null), "name: missing"),
        arguments(with("category", null), "category: missing"),
        arguments(with("country", null), "country: missing"),
        arguments(with("type", null), "type: missing"),
        arguments(with("attributes", null), "attributes: missing"),
        arguments(withAttribute("id", null), "attributes[1].id: missing"),
        arguments(withAttribute("quantity", null), "attributes[1].quantity: missing"),
        arguments(withAttribute("amount", null), "attributes[1].amount: missing"),
        arguments(withAttribute("active", null), "attributes[1].active: missing"),
        arguments(withAttribute("percent", null), "attributes[1].percent: missing"),
        arguments(withAttribute("size", null), "attributes[1].size: missing"),
        // null
        arguments(with("name", BsonNull.VALUE), "name: null"),
        arguments(with("category", BsonNull.VALUE), "category: null"),
        arguments(with("country", BsonNull.VALUE), "country: null"),
        arguments(with("type", BsonNull.VALUE), "type: null"),
        arguments(with("attributes", BsonNull.VALUE), "attributes: null"),
        arguments(
            with("attributes", new BsonArray(List.of(attribute("a"), BsonNull.VALUE))),
            "attributes[1]: null"),
        arguments(withAttribute("id", BsonNull.VALUE), "attributes[1].id: null"),
        arguments(withAttribute("quantity", BsonNull.VALUE), "attributes[1].quantity: null"),
        arguments(withAttribute("amount", BsonNull.VALUE), "attributes[1].amount: null"),
        arguments(withAttribute("active", BsonNull.VALUE), "attributes[1].active: null"),
        arguments(withAttribute("percent", BsonNull.VALUE), "attributes[1].percent: null"),
        arguments(withAttribute("size", BsonNull.VALUE), "attributes[1].size: null"),
        // wrong type
        arguments(with("name", new BsonInt32(5)), "name: expected string, got int32"),
        arguments(with("category", BsonBoolean.TRUE), "category: expected string, got boolean"),
        arguments(with("country", new BsonDocument()), "country: expected string, got document"),
        arguments(with("type", new BsonInt32(1)), "type: expected string, got int32"),
        arguments(
            with("attributes", new BsonString("none")), "attributes: expected array, got string"),
        arguments(
            with("attributes", new BsonDocument()), "attributes: expected array, got document"),
        arguments(
            with("attributes", new BsonArray(List.of(new BsonInt32(5)))),
            "attributes[0]: expected document, got int32"),
        arguments(
            with("attributes", new BsonArray(List.of(attribute("a"), new BsonArray()))),
            "attributes[1]: expected document, got array"),
        arguments(
            withAttribute("id", new BsonInt32(1)), "attributes[1].id: expected string, got int32"),
        arguments(
            withAttribute("quantity", new BsonString("1")),
            "attributes[1].quantity: expected int32, got string"),
        arguments(
            withAttribute("quantity", decimal("1")),
            "attributes[1].quantity: expected int32, got decimal128"),
        arguments(
            withAttribute("amount", BsonBoolean.FALSE),
            "attributes[1].amount: expected int32, got boolean"),
        arguments(
            withAttribute("size", new BsonArray()),
            "attributes[1].size: expected int32, got array"),
        arguments(
            withAttribute("percent", new BsonString("0.5")),
            "attributes[1].percent: expected double, got string"),
        arguments(
            withAttribute("active", new BsonInt32(1)),
            "attributes[1].active: expected boolean, got int32"),
        arguments(
            withAttribute("active", new BsonString("true")),
            "attributes[1].active: expected boolean, got string"),
        // out of range by one, each direction, each numeric BSON type
        arguments(
            withAttribute("quantity", new BsonInt32(128)),
            "attributes[1].quantity: 128 is out of range for byte (-128..127)"),
        arguments(
            withAttribute("quantity", new BsonInt32(-129)),
            "attributes[1].quantity: -129 is out of range for byte (-128..127)"),
        arguments(
            withAttribute("amount", new BsonInt32(128)),
            "attributes[1].amount: 128 is out of range for byte (-128..127)"),
        arguments(
            withAttribute("amount", new BsonInt32(-129)),
            "attributes[1].amount: -129 is out of range for byte (-128..127)"),
        arguments(
            withAttribute("size", new BsonInt32(32768)),
            "attributes[1].size: 32768 is out of range for short (-32768..32767)"),
        arguments(
            withAttribute("size", new BsonInt32(-32769)),
            "attributes[1].size: -32769 is out of range for short (-32768..32767)"),
        arguments(
            withAttribute("quantity", new BsonInt64(128)),
            "attributes[1].quantity: 128 is out of range for byte (-128..127)"),
        arguments(
            withAttribute("size", new BsonInt64(-32769)),
            "attributes[1].size: -32769 is out of range for short (-32768..32767)"),
        arguments(
            withAttribute("amount", new BsonInt64(Long.MAX_VALUE)),
            "attributes[1].amount: 9223372036854775807 is out of range for byte (-128..127)"),
        arguments(
            withAttribute("amount", new BsonDouble(-129.0)),
            "attributes[1].amount: -129.0 is out of range for byte (-128..127)"),
        arguments(
            withAttribute("size", new BsonDouble(32768.0)),
            "attributes[1].size: 32768.0 is out of range for short (-32768..32767)"),
        arguments(
            withAttribute("size", new BsonDouble(1e20)),
            "attributes[1].size: 1.0E20 is out of range for short (-32768..32767)"),
        // not an integer
        arguments(
            withAttribute("size", new BsonDouble(1.5)),
            "attributes[1].size: 1.5 is not an integer"),
        arguments(
            withAttribute("quantity", new BsonDouble(-0.25)),
            "attributes[1].quantity: -0.25 is not an integer"),
        arguments(
            withAttribute("amount", new BsonDouble(Double.NaN)),
            "attributes[1].amount: NaN is not an integer"),
        arguments(
            withAttribute("size", new BsonDouble(Double.NEGATIVE_INFINITY)),
            "attributes[1].size: -Infinity is not an integer"),
        // percent not exactly a double
        arguments(
            withAttribute("percent", new BsonInt64((1L << 53) + 1)),
            "attributes[1].percent: 9007199254740993 is not exactly representable as a double"),
        arguments(
            withAttribute("percent", new BsonInt64(Long.MAX_VALUE)),
            "attributes[1].percent: 9223372036854775807 is not exactly representable as a double"),
        arguments(
            withAttribute("percent", decimal("0.1")),
            "attributes[1].percent: 0.1 is not exactly representable as a double"),
        arguments(
            withAttribute("percent", decimal("1E+400")),
            "attributes[1].percent: 1E+400 is not exactly representable as a double"),
        arguments(
            withAttribute("percent", decimal("1E-400")),
            "attributes[1].percent: 1E-400 is not exactly representable as a double"),
        // unknown type
        arguments(
            with("type", new BsonString("QUX")),
            "type: unknown value \"QUX\" (expected FOO, BAR or BAZ)"),
        arguments(
            with("type", new BsonString("foo")),
            "type: unknown value \"foo\" (expected FOO, BAR or BAZ)"),
        arguments(
            with("type", new BsonString("")),
            "type: unknown value \"\" (expected FOO, BAR or BAZ)"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("rejections")
  void rejects(BsonDocument document, String expected) {
    assertThat(rejection(document)).isEqualTo(expected);
  }

  @Test
  void namesTheIndexOfTheBadAttribute() {
    BsonDocument document = validDocument();
    BsonArray attributes = document.getArray("attributes");
    attributes.add(attribute("a3"));
    attributes.add(attribute("a4"));
    attributes.get(3).asDocument().put("quantity", new BsonInt32(128));

    assertThat(rejection(document))
        .isEqualTo("attributes[3].quantity: 128 is out of range for byte (-128..127)");
  }

  @Nested
  class Duplicates {

    /** BsonDocument can't hold a name twice, so these are written as raw BSON. */
    private RawBsonDocument raw(Consumer<BsonWriter> body) {
      var buffer = new BasicOutputBuffer();
      try (var writer = new BsonBinaryWriter(buffer)) {
        writer.writeStartDocument();
        body.accept(writer);
        writer.writeEndDocument();
      }
      return new RawBsonDocument(buffer.toByteArray());
    }

    private void validFields(BsonWriter w) {
      w.writeString("name", "Acme");
      w.writeString("category", "Banking");
      w.writeString("country", "ES");
      w.writeString("type", "FOO");
    }

    private void attribute(BsonWriter w, boolean twice) {
      w.writeStartDocument();
      w.writeString("id", "a");
      w.writeInt32("quantity", 1);
      if (twice) {
        w.writeInt32("quantity", 2);
      }
      w.writeInt32("amount", 1);
      w.writeBoolean("active", true);
      w.writeDouble("percent", 1);
      w.writeInt32("size", 1);
      w.writeEndDocument();
    }

    private InvalidDocumentException rejected(RawBsonDocument document) {
      var thrown = new InvalidDocumentException[1];
      assertThatThrownBy(() -> codec.decode(document))
          .isInstanceOfSatisfying(InvalidDocumentException.class, e -> thrown[0] = e);
      return thrown[0];
    }

    @Test
    void rejectsADuplicateTopLevelField() {
      var e =
          rejected(
              raw(
                  w -> {
                    w.writeString("_id", "dup");
                    validFields(w);
                    w.writeString("name", "Other");
                    w.writeStartArray("attributes");
                    w.writeEndArray();
                  }));

      assertThat(e.field() + ": " + e.reason()).isEqualTo("name: duplicate field");
      assertThat(e.id()).isEqualTo(new BsonString("dup"));
      assertThat(e.getMessage()).isEqualTo("name: duplicate field (document _id \"dup\")");
    }

    @Test
    void rejectsADuplicateAttributeField() {
      var e =
          rejected(
              raw(
                  w -> {
                    validFields(w);
                    w.writeStartArray("attributes");
                    attribute(w, false);
                    attribute(w, true);
                    w.writeEndArray();
                  }));

      assertThat(e.field() + ": " + e.reason())
          .isEqualTo("attributes[1].quantity: duplicate field");
      assertThat(e.id()).isNull();
    }

    @Test
    void rejectsADuplicateId() {
      var e =
          rejected(
              raw(
                  w -> {
                    w.writeInt32("_id", 1);
                    w.writeInt32("_id", 2);
                    validFields(w);
                    w.writeStartArray("attributes");
                    w.writeEndArray();
                  }));

      assertThat(e.field() + ": " + e.reason()).isEqualTo("_id: duplicate field");
    }

    @Test
    void skipsDuplicateUnknownFields() {
      var document =
          raw(
              w -> {
                w.writeString("note", "one");
                w.writeString("note", "two");
                validFields(w);
                w.writeStartArray("attributes");
                w.writeEndArray();
              });

      assertThat(codec.decode(document))
          .isEqualTo(new Org("Acme", "Banking", "ES", OrgType.FOO, List.of()));
    }
  }

  @Test
  void aRejectedRawDocumentCarriesItsId() {
    var raw =
        RawBsonDocument.parse("{\"_id\": {\"$oid\": \"659200800000000000000001\"}, \"name\": 1}");

    assertThatThrownBy(() -> codec.decode(raw))
        .isInstanceOfSatisfying(
            InvalidDocumentException.class,
            e -> {
              assertThat(e.id().asObjectId().getValue().toHexString())
                  .isEqualTo("659200800000000000000001");
              assertThat(e.field()).isEqualTo("name");
              assertThat(e.reason()).isEqualTo("expected string, got int32");
            });
  }

  /** A valid raw document whose name is exactly these bytes, UTF-8 or not. */
  private static RawBsonDocument withNameBytes(byte... name) {
    var buffer = new BasicOutputBuffer();
    int at;
    try (var writer = new BsonBinaryWriter(buffer)) {
      writer.writeStartDocument();
      writer.writeString("_id", "utf8");
      // type byte, "name", NUL, int32 length: then the value, written as a placeholder first
      at = buffer.getPosition() + 1 + "name".length() + 1 + Integer.BYTES;
      writer.writeString("name", "?".repeat(name.length));
      writer.writeString("category", "Banking");
      writer.writeString("country", "ES");
      writer.writeString("type", "FOO");
      writer.writeStartArray("attributes");
      writer.writeEndArray();
      writer.writeEndDocument();
    }
    byte[] bytes = buffer.toByteArray();
    System.arraycopy(name, 0, bytes, at, name.length);
    return new RawBsonDocument(bytes);
  }

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  static Stream<Arguments> invalidUtf8() {
    return Stream.of(
        arguments(bytes(0xFF), "byte 0xFF at offset 0"),
        arguments(bytes('C', 'a', 'f', 0xE9), "byte 0xE9 at offset 3"),
        arguments(bytes('a', 0xC0, 0xAF), "byte 0xC0 at offset 1"),
        arguments(bytes(0xED, 0xA0, 0x80), "byte 0xED at offset 0"),
        arguments(bytes('x', 0xF0, 0x9F, 0x98), "byte 0xF0 at offset 1"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("invalidUtf8")
  void rejectsStringBytesThatAreNotUtf8InsteadOfReplacingThem(byte[] name, String where) {
    assertThatThrownBy(() -> codec.decode(withNameBytes(name)))
        .isInstanceOfSatisfying(
            InvalidDocumentException.class,
            e -> {
              assertThat(e.field() + ": " + e.reason()).isEqualTo("name: invalid UTF-8: " + where);
              assertThat(e.id()).isEqualTo(new BsonString("utf8"));
            });
  }

  @Test
  void findsInvalidUtf8InADocumentThatStartsInsideItsArray() {
    byte[] document = withNameBytes(bytes('a', 0xFF)).getByteBuffer().array();
    byte[] padded = new byte[document.length + 7];
    System.arraycopy(document, 0, padded, 5, document.length);

    assertThatThrownBy(() -> codec.decode(new RawBsonDocument(padded, 5, document.length)))
        .isInstanceOfSatisfying(
            InvalidDocumentException.class,
            e -> assertThat(e.reason()).isEqualTo("invalid UTF-8: byte 0xFF at offset 1"));
  }

  @Test
  void keepsAGenuineReplacementCharacter() {
    assertThat(codec.decode(withNameBytes(bytes('<', 0xEF, 0xBF, 0xBD, '>'))).name())
        .isEqualTo("<\uFFFD>");
  }

  @Test
  void escapesAnUnknownTypeSoTheReasonShowsItExactly() {
    assertThat(rejection(with("type", new BsonString("FOO\u0000"))))
        .isEqualTo("type: unknown value \"FOO\\u0000\" (expected FOO, BAR or BAZ)");
    assertThat(rejection(with("type", new BsonString("a\"b\\c\n"))))
        .isEqualTo("type: unknown value \"a\\\"b\\\\c\\u000a\" (expected FOO, BAR or BAZ)");
  }
}
