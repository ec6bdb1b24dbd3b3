package dev.flatdump.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.Attr;
import dev.flatdump.Org;
import dev.flatdump.sample.OrgGenerator;
import dev.flatdump.sample.Profile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBinaryWriter;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonJavaScript;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;
import org.bson.types.Decimal128;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The byte walk must agree with {@link OrgCodec} on every document, good or bad. */
class RawOrgDecoderTest {

  private final RawOrgDecoder decoder = new RawOrgDecoder();
  private final OrgCodec codec = new OrgCodec();

  /**
   * What a decoder made of the document: the org with every percent's bits (records compare doubles
   * as {@link Double#compare}, which equates NaN payloads), or the exception and its text.
   */
  private static String outcome(java.util.function.Supplier<Org> decode) {
    try {
      Org org = decode.get();
      var text = new StringBuilder(org.toString());
      org.attributes()
          .forEach(a -> text.append(' ').append(Double.doubleToRawLongBits(a.percent())));
      return text.toString();
    } catch (InvalidDocumentException e) {
      return "rejected " + e.field() + ": " + e.reason() + " (_id " + e.id() + ")";
    } catch (RuntimeException e) {
      return e.getClass().getName() + ": " + e.getMessage();
    }
  }

  private void assertSameAsCodec(RawBsonDocument document) {
    assertThat(outcome(() -> decoder.decode(document)))
        .isEqualTo(outcome(() -> codec.decode(document)));
  }

  static Stream<BadInputCorpus.Case> corpus() {
    return Stream.of(
            BadInputCorpus.committed().stream(),
            BadInputCorpus.generated().stream(),
            Stream.of(BadInputCorpus.nanPayloadTwins(), BadInputCorpus.trailingDuplicate()))
        .flatMap(s -> s);
  }

  @ParameterizedTest
  @MethodSource("corpus")
  void agreesWithTheCodecOnTheBadInputCorpus(BadInputCorpus.Case c) {
    assertSameAsCodec(c.document());
  }

  @Test
  void walksGeneratedDocumentsWithoutHandingAnyOver() {
    for (Profile profile : Profile.values()) {
      var decoder = new RawOrgDecoder();
      var generator = new OrgGenerator(profile, 7);
      for (int i = 0; i < 500; i++) {
        Org org = generator.next();
        assertThat(decoder.decode(raw(generator.idOf(i), org))).isEqualTo(org);
      }
      assertThat(decoder.plainCount()).isEqualTo(500);
      assertThat(decoder.handedOverCount()).isZero();
    }
  }

  @Test
  void sharesRepeatedStringsAndAttributes() {
    var attr = new Attr("attr_001", (byte) 1, (byte) 2, (short) 3, 0.25, true);
    var org = new Org("n", "Banking", "ES", dev.flatdump.OrgType.FOO, List.of(attr, attr));

    Org first = decoder.decode(raw(new org.bson.types.ObjectId(), org));
    Org second = decoder.decode(raw(new org.bson.types.ObjectId(), org));

    assertThat(second).isEqualTo(org);
    assertThat(second.category()).isSameAs(first.category());
    assertThat(second.attributes().get(0)).isSameAs(first.attributes().get(0));
    assertThat(first.attributes().get(1)).isSameAs(first.attributes().get(0));
  }

  @Test
  void walksArraysWhoseElementNamesAreNotTheirIndexes() {
    // BSON arrays name their elements "0", "1", ...; the walk guesses that, and must not rely on
    // it.
    var names = List.of("", "x", "00", "999", "1", "10", "abc", "5", "2", "3", "4", "x1", "100");
    BsonDocument elements = new BsonDocument();
    BsonDocument attr = valid().getArray("attributes").get(0).asDocument();
    for (int i = 0; i < names.size(); i++) {
      elements.put(names.get(i), attr.clone().append("size", new BsonInt32(i)));
    }
    BsonDocument document = valid();
    document.put("attributes", elements);
    byte[] bytes = bytes(document);
    int type = indexOf(bytes, "\u0003attributes\u0000".getBytes(StandardCharsets.ISO_8859_1));
    bytes[type] = 0x04; // the embedded document becomes an array with these names

    assertSameAsCodec(new RawBsonDocument(bytes));
    Org org = decoder.decode(new RawBsonDocument(bytes));
    assertThat(org.attributes())
        .extracting(Attr::size)
        .containsExactly(
            (short) 0,
            (short) 1,
            (short) 2,
            (short) 3,
            (short) 4,
            (short) 5,
            (short) 6,
            (short) 7,
            (short) 8,
            (short) 9,
            (short) 10,
            (short) 11,
            (short) 12);
    assertThat(decoder.handedOverCount()).isZero();
  }

  /**
   * Attributes in the layout OrgCodec writes are read at fixed offsets (CanonicalAttribute), with
   * the attribute cache on and after it paused (more than a window of attributes that never
   * repeat): extreme values come out as the codec's, values out of range go to the codec.
   */
  @Test
  void readsCanonicalAttributesAsTheCodecDoesWithTheCacheOnAndPaused() {
    double nan = Double.longBitsToDouble(0x7ff8_0000_0000_0123L);
    List<Attr> extremes =
        List.of(
            new Attr("", Byte.MIN_VALUE, Byte.MAX_VALUE, Short.MIN_VALUE, -0.0, true),
            new Attr("ñandú", Byte.MAX_VALUE, Byte.MIN_VALUE, Short.MAX_VALUE, nan, false),
            new Attr("attr_1", (byte) 0, (byte) -1, (short) 0, Double.MAX_VALUE, true));
    Org org = new Org("n", "Banking", "ES", dev.flatdump.OrgType.FOO, extremes);
    List<RawBsonDocument> outOfRange = new ArrayList<>();
    for (String[] field :
        new String[][] {{"quantity", "128"}, {"amount", "-129"}, {"size", "32768"}}) {
      BsonDocument document = valid();
      BsonDocument attr = document.getArray("attributes").get(1).asDocument();
      attr.put(field[0], new BsonInt32(Integer.parseInt(field[1])));
      outOfRange.add(raw(document));
    }
    var generator = new OrgGenerator(Profile.ARTICLE, 5);
    for (int round = 0; round < 2; round++) {
      assertSameAsCodec(raw(new org.bson.types.ObjectId(), org));
      assertThat(outcome(() -> decoder.decode(raw(new org.bson.types.ObjectId(), org))))
          .endsWith(
              " "
                  + Double.doubleToRawLongBits(-0.0)
                  + " "
                  + Double.doubleToRawLongBits(nan)
                  + " "
                  + Double.doubleToRawLongBits(Double.MAX_VALUE));
      for (RawBsonDocument document : outOfRange) {
        assertSameAsCodec(document);
        assertThat(outcome(() -> decoder.decode(document))).startsWith("rejected attributes[1].");
      }
      // then 1,300 orgs of about 55 attributes that never repeat: the cache pauses
      for (int i = 0; round == 0 && i < 1_300; i++) {
        Org next = generator.next();
        assertThat(decoder.decode(raw(generator.idOf(i), next))).isEqualTo(next);
      }
    }
  }

  private static int indexOf(byte[] bytes, byte[] part) {
    for (int i = 0; i + part.length <= bytes.length; i++) {
      if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }

  @Nested
  class UnknownFields {

    static Stream<BsonValue> values() {
      return Stream.of(
          new BsonDouble(1.5),
          new BsonString("x"),
          new BsonDocument("a", new BsonArray(List.of(new BsonInt32(1)))),
          new BsonArray(List.of(new BsonString("y"))),
          new BsonBinary(new byte[] {1, 2, 3}),
          new BsonObjectId(),
          BsonBoolean.TRUE,
          new BsonDateTime(1),
          new BsonNull(),
          new BsonRegularExpression("a+", "i"),
          new BsonJavaScript("x"),
          new BsonInt32(3),
          new BsonTimestamp(4, 5),
          new BsonInt64(6),
          new BsonDecimal128(Decimal128.parse("7.5")),
          new BsonMinKey(),
          new BsonMaxKey());
    }

    @ParameterizedTest
    @MethodSource("values")
    void areSkippedAtTheTopAndInAttributes(BsonValue value) {
      BsonDocument document = valid();
      document.put("extra", value);
      document.getArray("attributes").get(0).asDocument().put("extra", value);

      assertSameAsCodec(raw(document));
      assertThat(decoder.decode(raw(document)).name()).isEqualTo("Acme");
    }
  }

  /**
   * Attribute field names that start like a known one, or are one of them with a byte more or less,
   * are other fields: the walk recognises a known name by its first byte and one 8-byte compare, so
   * the NUL must be where the known name ends. "i" as the very last field leaves fewer than 8 bytes
   * in the array, where the walk scans instead.
   */
  @Test
  void tellsKnownAttributeFieldsFromNamesThatStartAlike() {
    List<String> nearMisses =
        List.of(
            "i",
            "idx",
            "id2",
            "quantit",
            "quantity2",
            "quantityX",
            "QUANTITY",
            "am",
            "amountt",
            "activ",
            "actives",
            "a",
            "percen",
            "percent_",
            "sizes",
            "siz",
            "",
            "s");
    BsonDocument document = valid();
    document.remove("attributes");
    BsonDocument attribute = valid().getArray("attributes").get(0).asDocument();
    for (int i = 0; i < nearMisses.size(); i++) {
      attribute.put(nearMisses.get(i), new BsonInt32(i));
    }
    // last: "i", its NUL, true and three NULs are 6 bytes, too few to load 8
    attribute.remove("i");
    attribute.put("i", BsonBoolean.TRUE);
    document.put("attributes", new BsonArray(List.of(attribute)));
    RawBsonDocument raw = raw(document);
    long before = decoder.plainCount();

    assertSameAsCodec(raw);
    Org org = decoder.decode(raw);

    assertThat(decoder.plainCount() - before).as("walked, not handed over").isEqualTo(2);
    assertThat(org.attributes())
        .containsExactly(
            new dev.flatdump.Attr("attr_001", (byte) 1, (byte) -2, (short) 300, 0.5, false));
  }

  /**
   * Thousands of documents with one to three bytes changed: whatever the walk does with them, it
   * must end where the codec does (the same org, or the same rejection, or the same error).
   */
  @Test
  void agreesWithTheCodecOnCorruptedBytes() {
    var random = new Random(20261122);
    var generator = new OrgGenerator(Profile.REALISTIC, 3);
    List<byte[]> originals = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      originals.add(raw(generator.idOf(i), generator.next()).getByteBuffer().array().clone());
    }
    originals.add(bytes(valid()));
    int handedOver = 0;
    for (int round = 0; round < 20_000; round++) {
      byte[] bytes = originals.get(random.nextInt(originals.size()));
      byte[] corrupted = Arrays.copyOf(bytes, bytes.length);
      for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
        int at = random.nextInt(corrupted.length);
        corrupted[at] = random.nextBoolean() ? (byte) random.nextInt() : (byte) (corrupted[at] ^ 1);
      }
      long before = decoder.handedOverCount();
      assertSameAsCodec(new RawBsonDocument(corrupted));
      handedOver += (int) (decoder.handedOverCount() - before);
    }
    // Most changes break something the walk checks; the codec then decides.
    assertThat(handedOver).isGreaterThan(1_000);
  }

  private static BsonDocument valid() {
    var attr =
        new BsonDocument("id", new BsonString("attr_001"))
            .append("quantity", new BsonInt32(1))
            .append("amount", new BsonInt32(-2))
            .append("active", BsonBoolean.FALSE)
            .append("percent", new BsonDouble(0.5))
            .append("size", new BsonInt32(300));
    return new BsonDocument("_id", new BsonString("valid"))
        .append("name", new BsonString("Acme"))
        .append("category", new BsonString("Banking"))
        .append("country", new BsonString("ES"))
        .append("type", new BsonString("BAR"))
        .append("attributes", new BsonArray(List.of(attr, attr.clone())));
  }

  private RawBsonDocument raw(org.bson.types.ObjectId id, Org org) {
    var out = new BasicOutputBuffer();
    codec.encode(new BsonBinaryWriter(out), new BsonObjectId(id), org);
    return new RawBsonDocument(out.toByteArray());
  }

  private static RawBsonDocument raw(BsonDocument document) {
    return new RawBsonDocument(bytes(document));
  }

  private static byte[] bytes(BsonDocument document) {
    var out = new BasicOutputBuffer();
    new BsonDocumentCodec()
        .encode(new BsonBinaryWriter(out), document, EncoderContext.builder().build());
    return out.toByteArray();
  }
}
