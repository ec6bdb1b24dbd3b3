package dev.flatdump.source;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import java.util.List;
import java.util.Objects;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.RawBsonDocument;

/**
 * A random sample of the documents {@code query} matches, through {@code $match} then {@code
 * $sample}: the other way, beside {@link IdOrderedFind}, that flatdump opens a cursor, for when
 * reading every document would take too long. The sample is the server's: it differs from run to
 * run, and is in no particular order. Immutable, validated when built.
 *
 * @param query the filter, {@code {}} for every document
 * @param size how many documents the sample holds at most, at least 1
 */
public record SampledAggregate(BsonDocument query, int size) {

  public SampledAggregate {
    Objects.requireNonNull(query, "SampledAggregate.query");
    if (size < 1) {
      throw new IllegalArgumentException("SampledAggregate.size must be >= 1, got " + size);
    }
  }

  /** Runs the aggregate, on disk if the server needs to. The caller closes the cursor. */
  public MongoCursor<RawBsonDocument> open(MongoCollection<RawBsonDocument> collection) {
    List<BsonDocument> pipeline =
        List.of(
            new BsonDocument("$match", query),
            new BsonDocument("$sample", new BsonDocument("size", new BsonInt32(size))));
    return collection.aggregate(pipeline).allowDiskUse(true).iterator();
  }
}
