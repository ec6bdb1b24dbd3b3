package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

class RejectTest {

  @Test
  void writesOneJsonObjectWithARelaxedId() {
    var reject =
        new Reject(
            new BsonObjectId(new ObjectId("659200800000000000000001")),
            "attributes[3].quantity",
            "128 is out of range for byte (-128..127)");

    assertThat(reject.toJsonLine())
        .isEqualTo(
            "{\"_id\": {\"$oid\": \"659200800000000000000001\"}, \"field\":"
                + " \"attributes[3].quantity\", \"reason\": \"128 is out of range for byte"
                + " (-128..127)\"}");
  }

  @Test
  void writesNullWhenTheDocumentHasNoId() {
    assertThat(new Reject(null, "_id", "missing").toJsonLine())
        .isEqualTo("{\"_id\": null, \"field\": \"_id\", \"reason\": \"missing\"}");
  }

  @Test
  void escapesTheReasonAndKeepsLongIdsRelaxed() {
    String line =
        new Reject(new BsonInt64(5), "type", "unknown value \"Q\nX\" (expected FOO, BAR or BAZ)")
            .toJsonLine();

    assertThat(line).doesNotContain("\n");
    BsonDocument back = BsonDocument.parse(line);
    assertThat(back.get("_id").asNumber().longValue()).isEqualTo(5);
    assertThat(back.getString("reason").getValue())
        .isEqualTo("unknown value \"Q\nX\" (expected FOO, BAR or BAZ)");
  }

  @Test
  void requiresFieldAndReason() {
    assertThatThrownBy(() -> new Reject(null, null, "x")).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new Reject(null, "x", null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void writesAMissingIdAsJsonNull() {
    assertThat(Reject.idToJson(null)).isEqualTo("null");
    assertThat(Reject.idToJson(new BsonInt64(5))).isEqualTo("5");
  }
}
