package dev.flatdump.encode.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.artifact.read.RecordJson;
import dev.flatdump.testing.BsonCorpus;
import dev.flatdump.testing.SchemaFixtures;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bson.BsonBinaryReader;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every value of MongoDB's BSON corpus, given to a field of every FlatBuffers kind: it maps
 * exactly, converts losslessly (read back, it is the same number or text), or rejects the document
 * with a reason; nothing fails otherwise. Every invalid BSON document of the corpus is rejected.
 */
class BsonCorpusIT {

  private static final String SCHEMA =
      """
      enum E : int { Zero, One, Two }
      struct S { a: int; }
      table T { a: int; }
      table R {
        k_bool: bool; k_byte: byte; k_ubyte: ubyte; k_short: short; k_ushort: ushort;
        k_int: int; k_uint: uint; k_long: long; k_ulong: ulong; k_float: float; k_double: double;
        k_string: string; k_enum: E; k_struct: S; k_table: T;
        k_ubytes: [ubyte]; k_ints: [int]; k_strings: [string]; k_tables: [T];
      }
      table Root { rs: [R]; }
      root_type Root;
      """;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;

  private static BsonDocument decode(byte[] bytes) {
    try (BsonBinaryReader reader = new BsonBinaryReader(ByteBuffer.wrap(bytes))) {
      return new BsonDocumentCodec().decode(reader, DecoderContext.builder().build());
    }
  }

  @Test
  void everyValueMapsConvertsLosslesslyOrRejectsWithAReason() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    RecordEncoder encoder = new RecordEncoder(fx.plan, false);
    RecordJson reader = new RecordJson(fx.plan);
    List<String> problems = new ArrayList<>();
    Map<String, Integer> outcomes = new TreeMap<>();
    int values = 0;
    int invalid = 0;
    for (Path file : BsonCorpus.files()) {
      JsonNode corpus = JSON.readTree(Files.readString(file));
      for (JsonNode c : iterable(corpus.get("valid"))) {
        BsonDocument doc = decode(HexFormat.of().parseHex(c.get("canonical_bson").asString()));
        if (doc.isEmpty()) {
          continue;
        }
        BsonValue value = doc.values().iterator().next();
        values++;
        for (var f : fx.plan.record().fields()) {
          String where =
              file.getFileName() + " '" + c.get("description").asString() + "' as " + f.name();
          byte[] bytes = SchemaFixtures.bson(new BsonDocument(f.name(), value));
          FlatBufferBuilder builder = new FlatBufferBuilder(256);
          int record;
          try {
            record = encoder.encode(builder, bytes, 0, bytes.length);
          } catch (RejectedRecord e) {
            if (e.reason().isBlank() || e.reason().startsWith("malformed")) {
              problems.add(where + ": rejected as " + e.getMessage());
            }
            outcomes.merge("rejected", 1, Integer::sum);
            continue;
          } catch (RuntimeException | Error e) {
            problems.add(where + ": " + e);
            continue;
          }
          outcomes.merge("exported", 1, Integer::sum);
          RecordsRoot.finish(builder, fx.plan, new int[] {record}, 1);
          JsonNode back = JSON.readTree(reader.record(builder.dataBuffer(), 0)).get(f.name());
          if (back == null && f.kind().isScalar()) {
            // not written because it equals the default: a reader gets the default
            back =
                f.kind() == dev.flatdump.encode.plan.FieldKind.BOOL
                    ? JSON.readTree(String.valueOf(f.defaultInteger() != 0))
                    : f.kind().isInteger()
                        ? JSON.readTree(Long.toString(f.defaultInteger()))
                        : JSON.readTree(Double.toString(f.defaultReal()));
          }
          String lost = lost(f.kind(), value, back);
          if (lost != null) {
            problems.add(where + ": " + lost);
          }
        }
      }
      for (JsonNode c : iterable(corpus.get("decodeErrors"))) {
        byte[] bytes = HexFormat.of().parseHex(c.get("bson").asString());
        invalid++;
        String where = file.getFileName() + " '" + c.get("description").asString() + "'";
        try {
          encoder.encode(new FlatBufferBuilder(256), bytes, 0, bytes.length);
          problems.add(where + ": exported an invalid document");
        } catch (RejectedRecord expected) {
          outcomes.merge("invalid rejected", 1, Integer::sum);
        } catch (RuntimeException | Error e) {
          problems.add(where + ": " + e);
        }
      }
    }

    assertThat(problems).isEmpty();
    assertThat(values).as("valid values in the corpus").isGreaterThan(150);
    assertThat(invalid).as("invalid documents in the corpus").isGreaterThan(50);
    System.out.printf(
        "BsonCorpusIT: %d values x %d kinds, %d invalid documents: %s%n",
        values, fx.plan.record().fields().size(), invalid, outcomes);
  }

  /** Why the value read back is not the value given, or null when it is the same. */
  private static String lost(
      dev.flatdump.encode.plan.FieldKind kind, BsonValue given, JsonNode back) {
    if (given.isNull()) {
      return back == null || !back.isObject() ? null : "null read back as " + back; // absent
    }
    if (back == null) {
      return "exported, but nothing reads back";
    }
    String text = back.isString() ? back.asString() : back.toString();
    switch (kind) {
      case FLOAT, DOUBLE -> {
        double expected =
            given.isDouble()
                ? given.asDouble().getValue()
                : given.isInt32() ? given.asInt32().getValue() : given.asInt64().getValue();
        double got =
            kind == dev.flatdump.encode.plan.FieldKind.FLOAT
                ? Float.parseFloat(text)
                : Double.parseDouble(text);
        return Double.doubleToRawLongBits(got) == Double.doubleToRawLongBits(expected)
                || (Double.isNaN(got) && Double.isNaN(expected))
            ? null
            : "read back " + text + " for " + given;
      }
      case BOOL -> {
        return String.valueOf(given.asBoolean().getValue()).equals(text) ? null : "bool " + text;
      }
      case STRING -> {
        String expected =
            switch (given.getBsonType()) {
              case STRING -> given.asString().getValue();
              case OBJECT_ID -> given.asObjectId().getValue().toHexString();
              case DECIMAL128 -> given.asDecimal128().getValue().toString();
              case BINARY -> given.asBinary().asUuid().toString();
              default -> null;
            };
        return text.equals(expected) ? null : "read back '" + text + "' for " + given;
      }
      default -> {
        if (!kind.isInteger() || back.isString()) {
          return null; // tables, structs, vectors and enums by name: exported whole
        }
        BigInteger expected =
            switch (given.getBsonType()) {
              case INT32 -> BigInteger.valueOf(given.asInt32().getValue());
              case INT64 -> BigInteger.valueOf(given.asInt64().getValue());
              case DOUBLE -> new BigDecimal(given.asDouble().getValue()).toBigIntegerExact();
              case DATE_TIME -> BigInteger.valueOf(given.asDateTime().getValue());
              case TIMESTAMP ->
                  new BigInteger(Long.toUnsignedString(given.asTimestamp().getValue()));
              default -> null;
            };
        return expected != null && new BigInteger(text).equals(expected)
            ? null
            : "read back " + text + " for " + given;
      }
    }
  }

  private static Iterable<JsonNode> iterable(JsonNode array) {
    List<JsonNode> nodes = new ArrayList<>();
    if (array != null) {
      array.forEach(nodes::add);
    }
    return nodes;
  }
}
