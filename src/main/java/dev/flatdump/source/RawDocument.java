package dev.flatdump.source;

import java.util.Objects;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;

/**
 * One document as the cursor read it, not decoded yet.
 *
 * @param id its {@code _id}, or null if it has none (it is then rejected)
 * @param bson its bytes
 */
public record RawDocument(BsonValue id, RawBsonDocument bson) {

  public RawDocument {
    Objects.requireNonNull(bson, "RawDocument.bson must not be null");
  }
}
