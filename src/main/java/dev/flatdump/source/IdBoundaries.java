package dev.flatdump.source;

import com.mongodb.client.MongoCollection;
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

  /** {@code {_id: 1}}: the {@code _id} index, its order, and a projection of {@code _id} only. */
  private static final BsonDocument ID_INDEX = new BsonDocument("_id", new BsonInt32(1));

  private IdBoundaries() {}

  /**
   * The {@code _id} {@code steps} documents after {@code from} (the first document when null) in
   * index order, or null past the last: mongod skips them within the index and sends one {@code
   * _id}.
   */
  private static BsonValue hop(
      MongoCollection<RawBsonDocument> collection, BsonDocument query, BsonValue from, long steps) {
    BsonValue at = from;
    long left = steps;
    do {
      int skip = (int) Math.min(left, Integer.MAX_VALUE);
      var find =
          collection
              .find(query)
              .projection(ID_INDEX)
              .sort(ID_INDEX)
              .hint(ID_INDEX)
              .skip(skip)
              .limit(1);
      if (at != null) {
        find = find.min(new BsonDocument("_id", at));
      }
      RawBsonDocument found = find.first();
      if (found == null) {
        return null;
      }
      at = found.get("_id");
      left -= skip;
    } while (left > 0);
    return at;
  }

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
    BsonValue previous = null;
    long previousPosition = 0;
    for (int i = 1; i < n && count > 0; i++) {
      long position = Math.floorDiv(count * i, n);
      BsonValue id = hop(collection, query, previous, position - previousPosition);
      if (id == null) {
        break; // fewer documents than counted: the ranges after the last one are empty
      }
      bounds.add(id);
      previous = id;
      previousPosition = position;
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
