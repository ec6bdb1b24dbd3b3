package dev.flatdump.testing;

import dev.flatdump.encode.plan.FieldKind;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.UUID;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;

/**
 * What a BSON value is as a record holds it, for {@link RecordComparison}: bytes, an exact double,
 * text; and how values are shown in its messages.
 */
final class BsonValues {

  private static final JsonWriterSettings RELAXED =
      JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();

  private BsonValues() {}

  /** What a vector of bytes holds of a binary or an ObjectId, or null for another value. */
  static byte[] bytes(BsonValue e) {
    if (e.isBinary()) {
      return e.asBinary().getData();
    }
    return e.isObjectId() ? e.asObjectId().getValue().toByteArray() : null;
  }

  static BigInteger integer(long v, FieldKind kind) {
    return kind == FieldKind.ULONG
        ? new BigInteger(Long.toUnsignedString(v))
        : BigInteger.valueOf(v);
  }

  /** A number of the document as a double, or null for one a double does not hold exactly. */
  static Double real(BsonValue e) {
    return switch (e.getBsonType()) {
      case DOUBLE -> e.asDouble().getValue();
      case INT32 -> (double) e.asInt32().getValue();
      case INT64 -> {
        long v = e.asInt64().getValue();
        yield (double) v == v && (long) (double) v == v ? (double) v : null;
      }
      default -> null;
    };
  }

  static boolean sameReal(double x, double y) {
    return Double.isNaN(x) ? Double.isNaN(y) : Double.compare(x, y) == 0;
  }

  /** The text a string field holds of the value, or null for a value it holds none of. */
  static String text(BsonValue e) {
    return switch (e.getBsonType()) {
      case STRING -> e.asString().getValue();
      case OBJECT_ID -> e.asObjectId().getValue().toHexString();
      case DECIMAL128 -> e.asDecimal128().getValue().toString();
      case BINARY -> {
        var b = e.asBinary();
        if (b.getType() != BsonBinarySubType.UUID_STANDARD.getValue() || b.getData().length != 16) {
          yield null;
        }
        ByteBuffer bb = ByteBuffer.wrap(b.getData());
        yield new UUID(bb.getLong(), bb.getLong()).toString();
      }
      default -> null;
    };
  }

  /** A BSON value in messages: a string quoted, anything else as relaxed Extended JSON. */
  static String render(BsonValue e) {
    if (e.isString()) {
      return "'" + e.asString().getValue() + "'";
    }
    String json = new BsonDocument("v", e).toJson(RELAXED);
    return shortened(json.substring(json.indexOf(':') + 1, json.length() - 1).strip());
  }

  static String render(Object a) {
    if (a == null) {
      return "nothing";
    }
    if (a instanceof String s) {
      return "'" + s + "'";
    }
    return shortened(a instanceof byte[] b ? Arrays.toString(b) : a.toString());
  }

  static String shortened(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "...";
  }
}
