package dev.flatdump.encode.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.bson.BsonBinary;
import org.bson.BsonBinaryReader;
import org.bson.BsonBinarySubType;
import org.bson.BsonDbPointer;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonJavaScript;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonSymbol;
import org.bson.BsonTimestamp;
import org.bson.BsonUndefined;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's decoding against the driver's, on corrupt BSON: whole length fields rewritten
 * (negative, zero, off by one, too large), type bytes rewritten, documents cut short, bytes
 * flipped. Wherever the driver cannot decode a document, the engine rejects it; wherever the driver
 * can, the engine never calls it malformed (it may still reject it for the schema). It never fails
 * in any other way.
 */
class MalformedBsonDifferentialTest {

  private static final String SCHEMA =
      """
      table Attr { id: string; size: short; ratio: double; on: bool; }
      table R { name: string; n: int; big: long; tags: [string]; attrs: [Attr]; raw: [ubyte];
                inner: Attr; oid: string; }
      table Root { rs: [R]; }
      root_type Root;
      """;

  @TempDir Path dir;

  private static List<BsonDocument> bases() {
    BsonDocument mapped =
        BsonDocument.parse(
            """
            {"_id": {"$oid": "0123456789abcdef01234567"}, "name": "Acme", "n": 42,
             "big": {"$numberLong": "1234567890123"}, "tags": ["a", "bb", "ccc"],
             "attrs": [{"id": "x", "size": 3, "ratio": 0.5, "on": true},
                       {"id": "y", "size": -1, "ratio": 1.5, "on": false}],
             "inner": {"id": "z", "size": 9}, "extra": {"deep": [1, {"k": "v"}]}}
            """);
    mapped.put("raw", new BsonBinary(new byte[] {1, 2, 3, 4}));
    mapped.put("oid", new BsonObjectId(new ObjectId("fedcba9876543210fedcba98")));
    BsonDocument everyType = new BsonDocument("name", new org.bson.BsonString("types"));
    everyType.put("old", new BsonBinary(BsonBinarySubType.OLD_BINARY, new byte[] {5, 6, 7}));
    everyType.put("re", new BsonRegularExpression("a+b", "i"));
    everyType.put("ptr", new BsonDbPointer("db.c", new ObjectId("0123456789abcdef01234567")));
    everyType.put("js", new BsonJavaScript("x = 1"));
    everyType.put("sym", new BsonSymbol("s"));
    everyType.put("scope", new BsonJavaScriptWithScope("y = x", BsonDocument.parse("{\"x\": 1}")));
    everyType.put("ts", new BsonTimestamp(5, 6));
    everyType.put("dec", new BsonDecimal128(Decimal128.parse("1.5")));
    everyType.put("min", new BsonMinKey());
    everyType.put("max", new BsonMaxKey());
    everyType.put("undef", new BsonUndefined());
    everyType.put("when", new org.bson.BsonDateTime(123));
    everyType.put("nothing", new org.bson.BsonNull());
    return List.of(mapped, everyType);
  }

  /** Where a document's length fields and element type bytes lie. */
  private record Places(List<Integer> lengths, List<Integer> types) {}

  private static Places places(byte[] b) {
    Places places = new Places(new ArrayList<>(), new ArrayList<>());
    walk(b, 0, places);
    return places;
  }

  private static void walk(byte[] b, int p, Places places) {
    places.lengths().add(p);
    int end = p + Bson.int32(b, p) - 1;
    int q = p + 4;
    while (q < end) {
      byte type = b[q];
      places.types().add(q);
      q++;
      while (b[q] != 0) {
        q++;
      }
      q++;
      switch (type) {
        case Bson.DOCUMENT, Bson.ARRAY -> {
          walk(b, q, places);
          q += Bson.int32(b, q);
        }
        case Bson.STRING, Bson.JAVASCRIPT, Bson.SYMBOL -> {
          places.lengths().add(q);
          q += 4 + Bson.int32(b, q);
        }
        case Bson.BINARY -> {
          places.lengths().add(q);
          if (b[q + 4] == 0x02) {
            places.lengths().add(q + 5);
          }
          q += 5 + Bson.int32(b, q);
        }
        case Bson.JAVASCRIPT_WITH_SCOPE -> {
          places.lengths().add(q);
          places.lengths().add(q + 4);
          int code = q + 8 + Bson.int32(b, q + 4);
          walk(b, code, places);
          q += Bson.int32(b, q);
        }
        case Bson.DB_POINTER -> {
          places.lengths().add(q);
          q += 4 + Bson.int32(b, q) + 12;
        }
        case Bson.REGEX -> {
          while (b[q] != 0) {
            q++;
          }
          q++;
          while (b[q] != 0) {
            q++;
          }
          q++;
        }
        default -> q = Bson.skip(b, type, q, end, new EncodePath());
      }
    }
  }

  private static List<byte[]> mutants(byte[] base, Random random) {
    List<byte[]> out = new ArrayList<>();
    Places places = places(base);
    for (int at : places.lengths()) {
      int was = Bson.int32(base, at);
      for (int v :
          new int[] {
            -1, 0, 1, 4, 5, was - 1, was + 1, was + 100, Integer.MAX_VALUE, Integer.MIN_VALUE
          }) {
        byte[] m = base.clone();
        ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(at, v);
        out.add(m);
      }
    }
    for (int at : places.types()) {
      for (int v :
          new int[] {
            0x00, 0x02, 0x03, 0x04, 0x06, 0x08, 0x0C, 0x10, 0x12, 0x14, 0x20, 0x80, 0xFE
          }) {
        byte[] m = base.clone();
        m[at] = (byte) v;
        out.add(m);
      }
    }
    for (int cut = 5; cut < base.length; cut += 3) {
      byte[] m = Arrays.copyOf(base, cut);
      if (random.nextBoolean()) {
        ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(0, cut);
      }
      out.add(m);
    }
    for (int i = 0; i < 400; i++) {
      byte[] m = base.clone();
      int flips = 1 + random.nextInt(3);
      for (int k = 0; k < flips; k++) {
        m[4 + random.nextInt(m.length - 4)] ^= (byte) (1 << random.nextInt(8));
      }
      out.add(m);
    }
    return out;
  }

  private static boolean driverDecodes(byte[] doc) {
    try (BsonBinaryReader reader = new BsonBinaryReader(ByteBuffer.wrap(doc))) {
      new BsonDocumentCodec().decode(reader, DecoderContext.builder().build());
      return true;
    } catch (RuntimeException | OutOfMemoryError e) {
      // a length near 2 GiB makes the driver ask for an array that large
      return false;
    }
  }

  @Test
  void rejectsWhatTheDriverCannotDecodeAndNothingElseAsMalformed() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    RecordEncoder encoder = new RecordEncoder(fx.plan, false);
    Random random = new Random(20261126);
    List<String> mismatches = new ArrayList<>();
    int corrupt = 0;
    int total = 0;
    for (BsonDocument base : bases()) {
      byte[] bytes = SchemaFixtures.bson(base);
      assertThat(driverDecodes(bytes)).isTrue();
      encoder.encode(new FlatBufferBuilder(256), bytes, 0, bytes.length); // the base itself fits
      for (byte[] m : mutants(bytes, random)) {
        total++;
        boolean driver = driverDecodes(m);
        corrupt += driver ? 0 : 1;
        String ours;
        try {
          encoder.encode(new FlatBufferBuilder(256), m, 0, m.length);
          ours = "exported";
        } catch (RejectedRecord e) {
          ours = e.reason().startsWith("malformed BSON") ? "malformed" : "rejected";
        } catch (RuntimeException | Error e) {
          mismatches.add("crashed with " + e + " on " + hex(m));
          continue;
        }
        if (!driver && ours.equals("exported")) {
          mismatches.add("exported what the driver cannot decode: " + hex(m));
        } else if (driver && ours.equals("malformed")) {
          mismatches.add("called malformed what the driver decodes: " + hex(m));
        }
      }
    }

    assertThat(mismatches).as("of %d mutants, %d corrupt", total, corrupt).isEmpty();
    assertThat(corrupt).as("mutants the driver cannot decode").isGreaterThan(500);
    System.out.printf(
        "MalformedBsonDifferentialTest: %d mutants, %d the driver cannot decode%n", total, corrupt);
  }

  private static String hex(byte[] b) {
    return java.util.HexFormat.of().formatHex(b);
  }
}
