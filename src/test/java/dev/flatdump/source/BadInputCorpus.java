package dev.flatdump.source;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.flatdump.load.ExtendedJsonLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.bson.BsonBinaryWriter;
import org.bson.RawBsonDocument;
import org.bson.io.BasicOutputBuffer;

/**
 * The bad-input corpus: the documents of {@code sample-data/bad-input/corpus.jsonl}, and those that
 * can't be committed as Extended JSON (too big, or with bytes that are not UTF-8), generated here
 * as raw BSON. Every document has a string {@code _id} naming the case, a {@code comment} and an
 * {@code expect}: {@value #EXPORTED} or the exact {@code field: reason} of its rejection.
 */
public final class BadInputCorpus {

  /** The {@code expect} of a document that must be exported exactly. */
  public static final String EXPORTED = "exported";

  /** One document and what the exporter must do with it. */
  public record Case(String id, String comment, String expect, RawBsonDocument document) {

    public boolean exported() {
      return EXPORTED.equals(expect);
    }

    @Override
    public String toString() {
      return id;
    }
  }

  /** The committed file, relative to the project directory. */
  public static final String FILE = "sample-data/bad-input/corpus.jsonl";

  /** The largest document MongoDB stores: 16 MiB. */
  public static final int MAX_BSON_SIZE = 16 * 1024 * 1024;

  private BadInputCorpus() {}

  /** The committed file, from the project directory ({@code flatdump.basedir}, else here). */
  public static Path file() {
    return Path.of(System.getProperty("flatdump.basedir", ".")).resolve(FILE);
  }

  /**
   * The committed documents in file order; fails on a line that is not one JSON document or a
   * document without string {@code _id}, {@code comment} and {@code expect}.
   */
  public static List<Case> committed() {
    List<RawBsonDocument> documents = new ArrayList<>();
    new ExtendedJsonLoader(
            1000,
            documents::addAll,
            error -> {
              throw new IllegalStateException(FILE + ": " + error);
            })
        .load(file());
    return documents.stream().map(BadInputCorpus::describe).toList();
  }

  private static Case describe(RawBsonDocument d) {
    return new Case(
        d.getString("_id").getValue(),
        d.getString("comment").getValue(),
        d.getString("expect").getValue(),
        d);
  }

  /** The generated documents: huge ones, and strings whose bytes are not valid UTF-8. */
  public static List<Case> generated() {
    List<Case> cases = new ArrayList<>();
    cases.addAll(huge());
    cases.addAll(invalidUtf8());
    cases.add(nanPayloads());
    return cases;
  }

  private static List<Case> huge() {
    List<Case> cases = new ArrayList<>();
    cases.add(
        generate(
            "gen-name-1mib-ascii",
            "a name of 1 MiB (1,048,576 ASCII characters): exported whole, never truncated",
            EXPORTED,
            w -> {
              w.writeString("name", pattern("Acme ", 1 << 20));
              restAfterName(w);
            }));
    cases.add(
        generate(
            "gen-name-1mib-emoji",
            "a name of 262,144 emoji: 1 MiB of UTF-8, 524,288 UTF-16 chars (surrogate pairs)",
            EXPORTED,
            w -> {
              w.writeString("name", "\uD83C\uDFE2".repeat(1 << 18));
              restAfterName(w);
            }));
    cases.add(
        generate(
            "gen-attributes-100000",
            "100,000 attributes, ids from a pool of 1,000, every byte and short value in turn",
            EXPORTED,
            w -> {
              validTopLevel(w, "Many attributes");
              w.writeStartArray("attributes");
              for (int i = 0; i < 100_000; i++) {
                attribute(w, "k" + (i % 1000), i, i * 0.25);
              }
              w.writeEndArray();
            }));
    cases.add(
        generate(
            "gen-near-16mb-attributes",
            "about 15.9 MiB of BSON: attributes with unique ids until the document nearly fills"
                + " MongoDB's 16 MiB limit",
            EXPORTED,
            w -> {
              validTopLevel(w, "Nearly 16 MiB");
              w.writeStartArray("attributes");
              // Each attribute takes about 100 bytes: stop well within reach of the limit.
              var buffer = (BasicOutputBuffer) w.getBsonOutput();
              for (int i = 0; buffer.getPosition() < 16_670_000; i++) {
                attribute(w, "unique-attribute-id-" + i, i, Math.scalb(i, -7));
              }
              w.writeEndArray();
            }));
    // Exactly 16 MiB: measure the document with an empty category, then pad the category.
    int withoutCategory = exactly16MiB(0).document().getByteBuffer().remaining();
    cases.add(exactly16MiB(MAX_BSON_SIZE - withoutCategory));
    return cases;
  }

  private static Case exactly16MiB(int categoryBytes) {
    return generate(
        "gen-exactly-16mib",
        "exactly 16 MiB of BSON (MongoDB's largest document) through a long category",
        EXPORTED,
        w -> {
          w.writeString("name", "Exactly 16 MiB");
          w.writeString("category", pattern("Banking ", categoryBytes));
          w.writeString("country", "ES");
          w.writeString("type", "BAZ");
          w.writeStartArray("attributes");
          attribute(w, "a", 1, 0.5);
          w.writeEndArray();
        });
  }

  private static List<Case> invalidUtf8() {
    List<Case> cases = new ArrayList<>();
    cases.add(
        badString(
            "gen-utf8-name-lone-ff",
            "a name that is the single byte FF (never valid in UTF-8); the driver's one-byte"
                + " fast path would make it U+FFFD",
            "name",
            bytes(0xFF),
            "name: not valid UTF-8: byte 0xFF at offset 0"));
    cases.add(
        badString(
            "gen-utf8-category-latin1",
            "Latin-1 text (Caf\\xE9) stored as if it were UTF-8",
            "category",
            concat("Caf".getBytes(UTF_8), bytes(0xE9)),
            "category: not valid UTF-8: byte 0xE9 at offset 3"));
    cases.add(
        badString(
            "gen-utf8-country-lone-continuation",
            "a continuation byte (80) with no lead byte",
            "country",
            concat(bytes('E'), bytes(0x80), bytes('S')),
            "country: not valid UTF-8: byte 0x80 at offset 1"));
    cases.add(
        badString(
            "gen-utf8-type-truncated",
            "type ends in the first byte of a two-byte sequence (C3): truncated, not FOO",
            "type",
            concat("FO".getBytes(UTF_8), bytes(0xC3)),
            "type: not valid UTF-8: byte 0xC3 at offset 2"));
    cases.add(
        badString(
            "gen-utf8-name-overlong",
            "an overlong encoding of '/' (C0 AF), the classic path-traversal trick",
            "name",
            concat(bytes('a'), bytes(0xC0, 0xAF), bytes('b')),
            "name: not valid UTF-8: byte 0xC0 at offset 1"));
    cases.add(
        badString(
            "gen-utf8-name-cesu8",
            "an emoji as CESU-8 (two encoded surrogates, ED A0 BD ED B8 80); each would decode"
                + " to U+FFFD of the same byte length",
            "name",
            bytes(0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80),
            "name: not valid UTF-8: byte 0xED at offset 0"));
    cases.add(
        badString(
            "gen-utf8-name-above-max-code-point",
            "F4 90 80 80 would be U+110000, above the last code point",
            "name",
            concat("x".getBytes(UTF_8), bytes(0xF4, 0x90, 0x80, 0x80)),
            "name: not valid UTF-8: byte 0xF4 at offset 1"));
    cases.add(
        badString(
            "gen-utf8-name-1mib-bad-last-byte",
            "a 1 MiB name whose last byte is FF: the offset is exact at the end of a huge string",
            "name",
            concat(pattern("x", (1 << 20) - 1).getBytes(UTF_8), bytes(0xFF)),
            "name: not valid UTF-8: byte 0xFF at offset 1048575"));
    cases.add(
        generate(
            "gen-utf8-attribute-id",
            "the second attribute's id holds a lone FE byte between valid text",
            "attributes[1].id: not valid UTF-8: byte 0xFE at offset 2",
            (w, raw) -> {
              validTopLevel(w, "Bad attribute id");
              w.writeStartArray("attributes");
              attribute(w, "ok", 1, 0.5);
              w.writeStartDocument();
              raw.string("id", concat("ab".getBytes(UTF_8), bytes(0xFE), "cd".getBytes(UTF_8)));
              attributeValues(w, 2, 0.5);
              w.writeEndDocument();
              w.writeEndArray();
            }));
    cases.add(
        generate(
            "gen-utf8-in-unknown-fields",
            "invalid UTF-8 only in unknown fields (a value and a field name) inside an attribute:"
                + " every string value is checked, skipped ones too, so the value rejects it",
            "attributes[0].note: not valid UTF-8: byte 0xFF at offset 0",
            (w, raw) -> {
              validTopLevel(w, "Bad bytes where nobody reads");
              w.writeStartArray("attributes");
              w.writeStartDocument();
              w.writeString("id", "a");
              raw.string("note", bytes(0xFF, 0xFE));
              raw.name(concat(bytes('x'), bytes(0xFF)));
              w.writeInt32(1);
              attributeValues(w, 1, 0.5);
              w.writeEndDocument();
              w.writeEndArray();
            }));
    cases.add(
        generate(
            "gen-utf8-valid-replacement-character",
            "the bytes EF BF BD are a genuine U+FFFD: valid UTF-8, exported",
            EXPORTED,
            (w, raw) -> {
              raw.string("name", concat(bytes('<'), bytes(0xEF, 0xBF, 0xBD), bytes('>')));
              restAfterName(w);
            }));
    return cases;
  }

  /** The NaN bit patterns of {@link #nanPayloads()}, one attribute each, in order. */
  public static final long[] NAN_BITS = {
    0x7ff8000000000000L, // the canonical quiet NaN
    0x7ff8000000000001L, // a quiet NaN with a payload
    0xfff8000000000000L, // a negative quiet NaN
    0x7ff0000000000001L, // a signalling NaN
    0x7ff8deadbeef0000L, // a quiet NaN with a larger payload
    0xffffffffffffffffL, // all bits set
  };

  private static Case nanPayloads() {
    return generate(
        "gen-percent-nan-payloads",
        "NaNs with different sign and payload bits (quiet, signalling): each attribute has its"
            + " own id, and each percent must be exported bit for bit",
        EXPORTED,
        w -> {
          validTopLevel(w, "NaN payloads");
          w.writeStartArray("attributes");
          for (int i = 0; i < NAN_BITS.length; i++) {
            attribute(w, "nan-" + i, 1, Double.longBitsToDouble(NAN_BITS[i]));
          }
          w.writeEndArray();
        });
  }

  /**
   * Two attributes that differ only in their NaN's payload. Exported bit-exact only if equal
   * attribute tables are told apart by the raw bits of percent; not part of {@link #generated()}.
   */
  public static Case nanPayloadTwins() {
    return generate(
        "gen-percent-nan-payload-twins",
        "two attributes equal but for the payload of their NaN percent",
        EXPORTED,
        w -> {
          validTopLevel(w, "NaN twins");
          w.writeStartArray("attributes");
          attribute(w, "twin", 1, Double.longBitsToDouble(0x7ff8000000000000L));
          attribute(w, "twin", 1, Double.longBitsToDouble(0x7ff8000000000001L));
          w.writeEndArray();
        });
  }

  /**
   * A second {@code name} after every schema field. The codec rejects it; an inclusion projection
   * of the schema fields would stop before it (the reader reads whole documents, so it does not);
   * not part of {@link #generated()}.
   */
  public static Case trailingDuplicate() {
    return generate(
        "gen-duplicate-name-after-all-fields",
        "name again after every schema field, with another value",
        "name: the field appears twice in the document",
        w -> {
          validTopLevel(w, "First");
          w.writeStartArray("attributes");
          w.writeEndArray();
          w.writeString("name", "Second");
        });
  }

  // ---- writing

  /** Writes string values and field names from raw bytes, valid UTF-8 or not. */
  interface RawStrings {
    void string(String name, byte[] value);

    void name(byte[] name);
  }

  interface Body {
    void write(BsonBinaryWriter writer, RawStrings raw);
  }

  private static Case generate(
      String id, String comment, String expect, Consumer<BsonBinaryWriter> body) {
    return generate(id, comment, expect, (w, raw) -> body.accept(w));
  }

  /**
   * Writes {@code {_id, comment, expect, <body>}}. Raw strings are first written as placeholders of
   * the same byte length, and their bytes patched in afterwards.
   */
  private static Case generate(String id, String comment, String expect, Body body) {
    var buffer = new BasicOutputBuffer(1 << 16);
    Map<Integer, byte[]> patches = new HashMap<>();
    try (var writer = new BsonBinaryWriter(buffer)) {
      RawStrings raw =
          new RawStrings() {
            @Override
            public void string(String name, byte[] value) {
              // type byte, name, NUL, int32 length: then the value's bytes
              patches.put(buffer.getPosition() + 1 + name.length() + 1 + Integer.BYTES, value);
              writer.writeString(name, "?".repeat(value.length));
            }

            @Override
            public void name(byte[] name) {
              // the name follows the type byte, which is written with the value
              patches.put(buffer.getPosition() + 1, name);
              writer.writeName("?".repeat(name.length));
            }
          };
      writer.writeStartDocument();
      writer.writeString("_id", id);
      writer.writeString("comment", comment);
      writer.writeString("expect", expect);
      body.write(writer, raw);
      writer.writeEndDocument();
    }
    byte[] bytes = buffer.toByteArray();
    patches.forEach((at, value) -> System.arraycopy(value, 0, bytes, at, value.length));
    return new Case(id, comment, expect, new RawBsonDocument(bytes));
  }

  private static Case badString(
      String id, String comment, String field, byte[] value, String expect) {
    return generate(
        id,
        comment,
        expect,
        (w, raw) -> {
          Map<String, String> fields = new LinkedHashMap<>();
          fields.put("name", "Acme");
          fields.put("category", "Banking");
          fields.put("country", "ES");
          fields.put("type", "FOO");
          fields.forEach(
              (name, text) -> {
                if (name.equals(field)) {
                  raw.string(name, value);
                } else {
                  w.writeString(name, text);
                }
              });
          w.writeStartArray("attributes");
          attribute(w, "a", 1, 0.5);
          w.writeEndArray();
        });
  }

  private static void validTopLevel(BsonBinaryWriter w, String name) {
    w.writeString("name", name);
    w.writeString("category", "Banking");
    w.writeString("country", "ES");
    w.writeString("type", "BAR");
  }

  private static void restAfterName(BsonBinaryWriter w) {
    w.writeString("category", "Banking");
    w.writeString("country", "ES");
    w.writeString("type", "FOO");
    w.writeStartArray("attributes");
    attribute(w, "a", 1, 0.5);
    w.writeEndArray();
  }

  /** An attribute whose byte and short values run through their whole ranges as i grows. */
  private static void attribute(BsonBinaryWriter w, String id, int i, double percent) {
    w.writeStartDocument();
    w.writeString("id", id);
    attributeValues(w, i, percent);
    w.writeEndDocument();
  }

  private static void attributeValues(BsonBinaryWriter w, int i, double percent) {
    w.writeInt32("quantity", (byte) i);
    w.writeInt32("amount", (byte) (i >> 8));
    w.writeBoolean("active", i % 3 == 0);
    w.writeDouble("percent", percent);
    w.writeInt32("size", (short) (i * 7));
  }

  /** {@code unit} repeated and cut to exactly {@code length} ASCII characters. */
  private static String pattern(String unit, int length) {
    return unit.repeat(length / unit.length() + 1).substring(0, length);
  }

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  private static byte[] concat(byte[]... parts) {
    int length = 0;
    for (byte[] p : parts) {
      length += p.length;
    }
    byte[] all = new byte[length];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, all, at, p.length);
      at += p.length;
    }
    return all;
  }
}
