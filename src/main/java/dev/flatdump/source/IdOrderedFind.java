package dev.flatdump.source;

import com.mongodb.client.FindIterable;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.RawBsonDocument;

/**
 * How flatdump opens a cursor over the documents it exports: those {@code query} matches, whole (no
 * projection, see {@link MongoDocumentCursor}), sorted on {@code _id} ascending, as raw BSON, with
 * the server's cursor timeout on. The export's cursor, the report's baselines and {@code verify}
 * all read through it; what they choose differently is set here by name: the batch size, a hint on
 * the {@code _id} index, and a range of that index.
 *
 * <p>Immutable; each {@code with…} returns a new value. Validated when built: a range needs the
 * hint, because mongod takes {@code min} and {@code max} only with one.
 *
 * @param query the filter, {@code {}} for every document
 * @param batchSize documents per batch, or 0 to leave it to the driver and server
 * @param hintIdIndex whether mongod is told to walk the {@code _id} index
 * @param range the part of the {@code _id} index read ({@code min} inclusive, {@code max}
 *     exclusive); {@link IdRange#ALL} for all of it
 */
public record IdOrderedFind(BsonDocument query, int batchSize, boolean hintIdIndex, IdRange range) {

  /** {@code {_id: 1}}: the sort, and the index the hint names. */
  private static final BsonDocument ID_ORDER = new BsonDocument("_id", new BsonInt32(1));

  public IdOrderedFind {
    Objects.requireNonNull(query, "IdOrderedFind.query");
    if (batchSize < 0) {
      throw new IllegalArgumentException(
          "IdOrderedFind.batchSize must be >= 0 (0 for the driver's), got " + batchSize);
    }
    Objects.requireNonNull(range, "IdOrderedFind.range");
    if (!hintIdIndex && (range.from() != null || range.until() != null)) {
      throw new IllegalArgumentException(
          "IdOrderedFind.range " + range + " needs hintIdIndex: mongod bounds only a hinted index");
    }
  }

  /** The documents {@code query} matches, in the driver's batches, without a hint or a range. */
  public static IdOrderedFind of(BsonDocument query) {
    return new IdOrderedFind(query, 0, false, IdRange.ALL);
  }

  /** The same with {@code batchSize} documents per batch. */
  public IdOrderedFind withBatchSize(int batchSize) {
    return new IdOrderedFind(query, batchSize, hintIdIndex, range);
  }

  /** The same, hinted to the {@code _id} index. */
  public IdOrderedFind withIdIndexHint() {
    return new IdOrderedFind(query, batchSize, true, range);
  }

  /** The same over {@code range} only; needs the hint. */
  public IdOrderedFind within(IdRange range) {
    return new IdOrderedFind(query, batchSize, hintIdIndex, range);
  }

  /** The find, not yet run. */
  public FindIterable<RawBsonDocument> find(MongoCollection<RawBsonDocument> collection) {
    FindIterable<RawBsonDocument> find =
        collection.find(query).sort(ID_ORDER).noCursorTimeout(false);
    if (hintIdIndex) {
      find = find.hint(ID_ORDER);
    }
    if (batchSize > 0) {
      find = find.batchSize(batchSize);
    }
    if (range.from() != null) {
      find = find.min(new BsonDocument("_id", range.from()));
    }
    if (range.until() != null) {
      find = find.max(new BsonDocument("_id", range.until()));
    }
    return find;
  }

  /** Runs the find. The caller closes the cursor. */
  public MongoCursor<RawBsonDocument> open(MongoCollection<RawBsonDocument> collection) {
    return find(collection).iterator();
  }

  /**
   * Runs the find and streams each document's bytes, one array-backed buffer each (from its
   * position to its limit), in order. The caller closes the stream, which closes the cursor.
   */
  public Stream<ByteBuffer> documents(MongoCollection<RawBsonDocument> collection) {
    MongoCursor<RawBsonDocument> cursor = open(collection);
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(cursor, Spliterator.ORDERED | Spliterator.NONNULL),
            false)
        .map(d -> d.getByteBuffer().asNIO())
        .onClose(cursor::close);
  }
}
