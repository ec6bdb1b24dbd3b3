package dev.flatdump.source;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;

/**
 * Cuts the documents a query matches into ranges of the {@code _id} index holding about as many
 * documents each, for a partitioned export.
 *
 * <p>The boundaries are every {@code (count / n)}-th {@code _id} in index order, taken in one walk
 * of the index that reads only the {@code _id}s ({@code find} with a projection of {@code _id}, a
 * sort and a hint on the {@code _id} index: a covered index scan for the whole collection). The cut
 * is therefore the same for the same documents, and so are the artifacts: two runs with the same
 * {@code n} give the same bytes. A {@code $sample} (as the Spark connector's SamplePartitioner
 * takes) is random: two runs would cut differently. {@code $bucketAuto} is deterministic but sorts
 * every {@code _id} in a blocking stage instead of walking the index in order.
 */
public final class IdBoundaries {

  private static final BsonDocument ID_INDEX = new BsonDocument("_id", new BsonInt32(1));

  private IdBoundaries() {}

  /**
   * Splits the documents matching {@code query} into {@code n} ranges, in index order; the first
   * starts at the index's start, the last ends at its end, and each ends where the next starts.
   * Fewer documents than {@code n}, or a count that changed since {@code count} was taken, leave
   * some ranges empty or uneven: every document still falls in exactly one range.
   *
   * @param count how many documents match, as counted before (an estimate is enough)
   */
  public static List<IdRange> split(
      MongoCollection<RawBsonDocument> collection, BsonDocument query, int n, long count) {
    Objects.requireNonNull(collection, "collection");
    Objects.requireNonNull(query, "query");
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1, got " + n);
    }
    List<BsonValue> bounds = new ArrayList<>(n - 1);
    if (n > 1 && count > 0) {
      long[] positions = new long[n - 1];
      for (int i = 1; i < n; i++) {
        positions[i - 1] = Math.floorDiv(count * i, n);
      }
      long position = 0;
      int next = 0;
      try (MongoCursor<RawBsonDocument> ids =
          collection
              .find(query)
              .projection(new BsonDocument("_id", new BsonInt32(1)))
              .sort(ID_INDEX)
              .hint(ID_INDEX)
              .batchSize(10_000)
              .iterator()) {
        while (next < positions.length && ids.hasNext()) {
          BsonValue id = ids.next().get("_id");
          while (next < positions.length && positions[next] == position) {
            bounds.add(id);
            next++;
          }
          position++;
        }
      }
    }
    List<IdRange> ranges = new ArrayList<>(n);
    BsonValue from = null;
    for (BsonValue until : bounds) {
      ranges.add(new IdRange(from, until));
      from = until;
    }
    ranges.add(new IdRange(from, null));
    // the walk ended before every boundary (fewer documents than counted): the rest hold nothing
    while (ranges.size() < n) {
      ranges.add(IdRange.EMPTY);
    }
    return ranges;
  }
}
