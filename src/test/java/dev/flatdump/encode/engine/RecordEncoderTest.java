package dev.flatdump.encode.engine;

import static dev.flatdump.testing.SchemaFixtures.bson;
import static dev.flatdump.testing.SchemaFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.bson.BsonBinary;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonObjectId;
import org.bson.BsonTimestamp;
import org.bson.UuidRepresentation;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** Documents built by the engine and read back by flatc ({@code --json}). */
class RecordEncoderTest {

  private static final String EVERY_KIND =
      """
      enum Color : ubyte { Red, Green, Blue }
      struct Point { x: float; y: double; }
      table Child { label: string; n: int; }
      table R {
        b: bool; i8: byte; u8: ubyte; i16: short; u16: ushort; i32: int; u32: uint;
        i64: long; u64: ulong; f32: float; f64: double;
        s: string; color: Color; at: Point; child: Child;
        ints: [int]; names: [string]; children: [Child]; points: [Point]; colors: [Color];
        bytes: [ubyte];
      }
      table Root { rs: [R]; }
      root_type Root;
      """;

  @TempDir Path dir;

  /**
   * The records as flatc reads them, after checking that flatdump's own reader ({@link
   * dev.flatdump.artifact.read.RecordJson}) reads every one the same.
   */
  private JsonNode roundTrip(String schema, String... docs) throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, schema);
    RecordEncoder encoder = new RecordEncoder(fx.plan, false);
    ByteBuffer buffer =
        fx.encode(encoder, java.util.Arrays.stream(docs).map(SchemaFixtures::bson).toList());
    JsonNode records = fx.flatcRecords(buffer);
    var reader = new dev.flatdump.artifact.read.RecordJson(fx.plan);
    assertThat(reader.count(buffer)).isEqualTo(records.size());
    for (int i = 0; i < records.size(); i++) {
      assertThat(json(reader.record(buffer, i))).as("record %d", i).isEqualTo(records.get(i));
    }
    return records;
  }

  private RejectedRecord reject(String schema, BsonDocument doc) throws Exception {
    return reject(schema, bson(doc));
  }

  /** The reject of a document given as its bytes, which may be ones no driver would write. */
  private RejectedRecord reject(String schema, byte[] b) throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, schema);
    try {
      new RecordEncoder(fx.plan, false).encode(new FlatBufferBuilder(), b, 0, b.length);
    } catch (RejectedRecord e) {
      return e;
    }
    throw new AssertionError("not rejected: " + java.util.HexFormat.of().formatHex(b));
  }

  private RejectedRecord reject(String schema, String doc) throws Exception {
    return reject(schema, BsonDocument.parse(doc));
  }

  @Test
  void buildsEveryKindAsFlatcReadsIt() throws Exception {
    JsonNode records =
        roundTrip(
            EVERY_KIND,
            """
            {"_id": 1, "b": true, "i8": -128, "u8": 255, "i16": -32768, "u16": 65535,
             "i32": {"$numberInt": "-2147483648"}, "u32": {"$numberLong": "4294967295"},
             "i64": {"$numberLong": "-9223372036854775808"},
             "u64": {"$numberLong": "9223372036854775807"},
             "f32": 1.5, "f64": 0.1, "s": "héllo ✓", "color": "Blue",
             "at": {"x": 2.5, "y": -1.25}, "child": {"label": "c", "n": 7},
             "ints": [1, 2, 3], "names": ["a", "b"], "children": [{"n": 1}, {"label": "z"}],
             "points": [{"x": 1.0, "y": 2.0}, {"x": 3.0, "y": 4.0}], "colors": ["Red", 1],
             "bytes": [0, 255]}
            """,
            "{}");

    assertThat(records.get(0))
        .isEqualTo(
            json(
                """
                {"b": true, "i8": -128, "u8": 255, "i16": -32768, "u16": 65535,
                 "i32": -2147483648, "u32": 4294967295, "i64": -9223372036854775808,
                 "u64": 9223372036854775807, "f32": 1.5, "f64": 0.1, "s": "héllo ✓",
                 "color": "Blue", "at": {"x": 2.5, "y": -1.25}, "child": {"label": "c", "n": 7},
                 "ints": [1, 2, 3], "names": ["a", "b"], "children": [{"n": 1}, {"label": "z"}],
                 "points": [{"x": 1.0, "y": 2.0}, {"x": 3.0, "y": 4.0}],
                 "colors": ["Red", "Green"], "bytes": [0, 255]}
                """));
    assertThat(records.get(1)).isEqualTo(json("{}"));
  }

  @Test
  void writesTheSameBytesAsFlatcsGeneratedCodeForTheSameTable() throws Exception {
    // Attribute's generated createAttribute: percent, id, size, active, amount, quantity
    SchemaFixtures fx =
        new SchemaFixtures(
            dir,
            """
            table Attribute { id: string; quantity: byte; amount: byte; size: short;
                              percent: double; active: bool; }
            table Root { rs: [Attribute]; }
            root_type Root;
            """);
    byte[] doc =
        bson(
            "{\"id\": \"a\", \"quantity\": 1, \"amount\": 2, \"size\": 3, \"percent\": 0.5,"
                + " \"active\": true}");
    FlatBufferBuilder ours = new FlatBufferBuilder(64);
    int at = new RecordEncoder(fx.plan, false).encode(ours, doc, 0, doc.length);
    ours.finish(at);

    FlatBufferBuilder theirs = new FlatBufferBuilder(64);
    int id = theirs.createString("a");
    theirs.finish(
        dev.flatdump.schema.fb.Attribute.createAttribute(
            theirs, id, (byte) 1, (byte) 2, (short) 3, 0.5, true));

    assertThat(ours.sizedByteArray()).isEqualTo(theirs.sizedByteArray());
  }

  @Nested
  class Conversions {

    @Test
    void losslessWidening() throws Exception {
      JsonNode r =
          roundTrip(
                  EVERY_KIND,
                  "{\"i8\": {\"$numberLong\": \"-5\"}, \"i32\": 7.0, \"u64\": 3, \"f32\": 3,"
                      + " \"f64\": {\"$numberLong\": \"9007199254740992\"}, \"i64\": -0.0}")
              .get(0);

      assertThat(r)
          .isEqualTo(
              json(
                  "{\"i8\": -5, \"i32\": 7, \"u64\": 3, \"f32\": 3.0,"
                      + " \"f64\": 9007199254740992.0}"));
    }

    @Test
    void bsonTypesWithNoFlatBuffersTwin() throws Exception {
      SchemaFixtures fx =
          new SchemaFixtures(
              dir,
              """
              table R { oid: string; oidBytes: [ubyte]; when: long; ts: ulong; dec: string;
                        uuid: string; uuidBytes: [ubyte]; bin: [ubyte]; }
              table Root { rs: [R]; }
              root_type Root;
              """);
      ObjectId oid = new ObjectId("0123456789abcdef01234567");
      UUID uuid = UUID.fromString("00112233-4455-6677-8899-aabbccddeeff");
      BsonDocument doc =
          new BsonDocument("oid", new BsonObjectId(oid))
              .append("oidBytes", new BsonObjectId(oid))
              .append("when", new BsonDateTime(1_700_000_000_123L))
              .append("ts", new BsonTimestamp(1_700_000_000, 7))
              .append("dec", new BsonDecimal128(Decimal128.parse("12345.6789")))
              .append("uuid", new BsonBinary(uuid, UuidRepresentation.STANDARD))
              .append("uuidBytes", new BsonBinary(uuid, UuidRepresentation.STANDARD))
              .append("bin", new BsonBinary(new byte[] {9, 8, 7}));

      JsonNode r =
          fx.flatcRecords(fx.encode(new RecordEncoder(fx.plan, false), List.of(bson(doc)))).get(0);

      assertThat(r.get("oid").asString()).isEqualTo("0123456789abcdef01234567");
      assertThat(r.get("oidBytes")).hasSize(12);
      assertThat(r.get("oidBytes").get(0).asInt()).isEqualTo(0x01);
      assertThat(r.get("when").asLong()).isEqualTo(1_700_000_000_123L);
      assertThat(r.get("ts").asLong()).isEqualTo((1_700_000_000L << 32) | 7);
      assertThat(r.get("dec").asString()).isEqualTo("12345.6789");
      assertThat(r.get("uuid").asString()).isEqualTo(uuid.toString());
      assertThat(r.get("uuidBytes")).hasSize(16);
      assertThat(r.get("bin").toString()).isEqualTo("[9,8,7]");
    }

    @Test
    void keepsTheSignOfZeroAgainstAZeroDefault() throws Exception {
      SchemaFixtures fx =
          new SchemaFixtures(dir, "table R { d: double; } table Root { rs: [R]; } root_type Root;");
      byte[] doc = bson("{\"d\": -0.0}");
      FlatBufferBuilder builder = new FlatBufferBuilder(64);
      builder.finish(new RecordEncoder(fx.plan, false).encode(builder, doc, 0, doc.length));
      ByteBuffer bb = builder.dataBuffer();
      int table = bb.getInt(bb.position()) + bb.position();
      int vtable = table - bb.getInt(table);
      int fieldOffset = bb.getShort(vtable + 4);

      assertThat(fieldOffset).as("written, though it equals the default by ==").isNotZero();
      assertThat(Double.doubleToRawLongBits(bb.getDouble(table + fieldOffset)))
          .isEqualTo(Double.doubleToRawLongBits(-0.0));
    }

    @Test
    void writesAnOptionalScalarEqualToItsDefaultAndLeavesAnAbsentOneOut() throws Exception {
      JsonNode records =
          roundTrip(
              "table R { n: int = null; m: int = 4; } table Root { rs: [R]; } root_type Root;",
              "{\"n\": 0, \"m\": 4}",
              "{}");

      assertThat(records.get(0)).isEqualTo(json("{\"n\": 0}"));
      assertThat(records.get(1)).isEqualTo(json("{}"));
    }
  }

  @Nested
  class Rejects {

    @Test
    void aValueOutOfRangeWithItsPath() throws Exception {
      RejectedRecord e =
          reject(
              """
              table A { size: short; }
              table R { attributes: [A]; }
              table Root { rs: [R]; }
              root_type Root;
              """,
              "{\"attributes\": [{}, {}, {}, {\"size\": 70000}]}");

      assertThat(e.getMessage()).isEqualTo("attributes[3].size: 70000 out of range for short");
    }

    /** Nothing is wrapped, truncated or rounded, and what does not map says why, with its path. */
    @ParameterizedTest
    @CsvSource(
        delimiter = '|',
        quoteCharacter = '`',
        textBlock =
            """
            {"u8": -1}                                     | u8: -1 out of range for ubyte
            {"u64": -1}                                    | u64: -1 out of range for ulong
            {"i32": 1.5}                                   | i32: 1.5 is not an integer, as int needs
            {"i32": {"$numberLong": "1099511627776"}}      | i32: 1099511627776 out of range for int
            {"f32": 0.1}                                   | f32: 0.1 is not exactly a float
            {"f64": {"$numberLong": "9007199254740993"}}   | f64: 9007199254740993 is not exactly a double
            {"b": 1}                                       | b: expected bool, got int
            {"s": 5}                                       | s: expected string, got int
            {"child": [1]}                                 | child: expected a document (table), got array
            {"i32": {"$date": 0}}                          | i32: a date maps to long (ms since the epoch), not int
            {"color": "Purple"}                            | color: 'Purple' is not a value of Color
            {"colors": [0, 7]}                             | colors[1]: 7 is not a value of Color
            {"at": {"x": 1.0}}                             | at.y: missing: a struct needs every field
            {"names": ["a", null]}                         | names[1]: null in a vector
            """)
    void rejectsWithThePathAndTheReason(String doc, String message) throws Exception {
      assertThat(reject(EVERY_KIND, doc).getMessage()).isEqualTo(message);
    }

    @Test
    void aRequiredFieldMissingOrNull() throws Exception {
      String schema =
          "table R { name: string (required); } table Root { rs: [R]; } root_type Root;";
      assertThat(reject(schema, "{}").getMessage())
          .isEqualTo("name: required, and missing or null");
      assertThat(reject(schema, "{\"name\": null}").getMessage())
          .isEqualTo("name: required, and missing or null");
    }

    @Test
    void aFieldGivenTwice() throws Exception {
      BsonDocument twice = new BsonDocument("i32", new BsonInt32(1));
      byte[] one = bson(twice);
      // {"i32": 1, "i32": 2}: BsonDocument cannot hold it, so write the bytes by hand
      byte[] doc = new byte[one.length + 9];
      System.arraycopy(one, 0, doc, 0, one.length - 1);
      int p = one.length - 1;
      doc[p++] = 0x10;
      doc[p++] = 'i';
      doc[p++] = '3';
      doc[p++] = '2';
      doc[p++] = 0;
      doc[p++] = 2;
      p += 3;
      doc[p] = 0;
      ByteBuffer.wrap(doc).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(0, doc.length);

      assertThat(reject(EVERY_KIND, doc).getMessage())
          .isEqualTo("i32: the field appears twice in the document");
    }

    @Test
    void invalidUtf8() throws Exception {
      byte[] doc = bson("{\"s\": \"ab\"}");
      doc[doc.length - 3] = (byte) 0xC0; // 'b' becomes an overlong lead byte

      assertThat(reject(EVERY_KIND, doc).getMessage())
          .isEqualTo("s: not valid UTF-8: byte 0xC0 at offset 1");
    }
  }

  @Nested
  class UnknownFields {

    @Test
    void areSkippedAndCountedByPathButTheIdIsNot() throws Exception {
      SchemaFixtures fx = new SchemaFixtures(dir, EVERY_KIND);
      RecordEncoder encoder = new RecordEncoder(fx.plan, false);
      JsonNode records =
          fx.flatcRecords(
              fx.encode(
                  encoder,
                  List.of(
                      bson("{\"_id\": 1, \"extra\": 1, \"child\": {\"n\": 2, \"more\": [1]}}"),
                      bson("{\"_id\": 2, \"extra\": \"x\"}"))));

      assertThat(records.get(0)).isEqualTo(json("{\"child\": {\"n\": 2}}"));
      assertThat(encoder.unknownFields())
          .containsExactly(java.util.Map.entry("child.more", 1L), java.util.Map.entry("extra", 2L));
    }

    @Test
    void rejectTheDocumentWhenStrict() throws Exception {
      SchemaFixtures fx = new SchemaFixtures(dir, EVERY_KIND);
      byte[] doc = bson("{\"_id\": 1, \"child\": {\"more\": 1}}");

      assertThatThrownBy(
              () ->
                  new RecordEncoder(fx.plan, true)
                      .encode(new FlatBufferBuilder(), doc, 0, doc.length))
          .isInstanceOf(RejectedRecord.class)
          .hasMessage("child.more: not a field of the schema (--strict)");
    }
  }
}
