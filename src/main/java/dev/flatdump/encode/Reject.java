package dev.flatdump.encode;

import java.util.Objects;
import org.bson.BsonDocument;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;

/**
 * A document left out of the export, with why: one line of {@code rejects.jsonl}.
 *
 * @param id the document's {@code _id}; null when the document has none
 * @param field the path of the offending field, e.g. {@code attributes[3].quantity}; never null
 * @param reason what is wrong with it; never null
 */
public record Reject(BsonValue id, String field, String reason) {

  private static final JsonWriterSettings RELAXED =
      JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();

  public Reject {
    Objects.requireNonNull(field, "Reject.field must not be null");
    Objects.requireNonNull(reason, "Reject.reason must not be null");
  }

  /**
   * One JSON object without a line terminator: {@code {"_id": <relaxed Extended JSON or null>,
   * "field": "...", "reason": "..."}}.
   */
  public String toJsonLine() {
    return new BsonDocument("_id", id == null ? BsonNull.VALUE : id)
        .append("field", new BsonString(field))
        .append("reason", new BsonString(reason))
        .toJson(RELAXED);
  }

  /**
   * An {@code _id} as relaxed Extended JSON, e.g. {@code {"$oid": "65920080..."}} or {@code 7};
   * {@code null} for a document without one.
   */
  public static String idToJson(BsonValue id) {
    if (id == null) {
      return "null";
    }
    String json = new BsonDocument("_id", id).toJson(RELAXED);
    // {"_id": <value>}
    return json.substring("{\"_id\": ".length(), json.length() - 1);
  }
}
