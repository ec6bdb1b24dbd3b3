package dev.flatdump.source;

import com.mongodb.client.MongoCollection;
import java.io.Closeable;
import java.util.Iterator;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;

/**
 * Streams a collection's organizations in {@code _id} order, each document decoded into a record on
 * the caller's thread: a {@link MongoDocumentCursor} and an {@link OrgRecordDecoder} in one. The
 * export instead reads ahead with the cursor on a second thread and decodes on its own.
 *
 * <p>Not thread-safe. The caller closes it, which closes the cursor; it does not close the client.
 */
public final class MongoOrgSource implements Iterator<SourceRecord>, Closeable {

  private final DocumentBlocks blocks = new DocumentBlocks();
  private final MongoDocumentCursor cursor;
  private final OrgRecordDecoder decoder = new OrgRecordDecoder();

  /** See {@link MongoDocumentCursor#MongoDocumentCursor}. */
  public MongoOrgSource(
      MongoCollection<RawBsonDocument> collection,
      BsonDocument query,
      BsonValue afterId,
      MongoDocumentCursor.Settings settings) {
    this.cursor = new MongoDocumentCursor(collection, query, afterId, settings, blocks);
  }

  /** The {@code _id} of the last record returned, or the resume point; null before the first. */
  public BsonValue lastId() {
    return cursor.lastId();
  }

  @Override
  public boolean hasNext() {
    return cursor.hasNext();
  }

  @Override
  public SourceRecord next() {
    RawDocument document = cursor.next();
    blocks.reached(document);
    return decoder.decode(document);
  }

  /** Closes the cursor. Idempotent. */
  @Override
  public void close() {
    cursor.close();
  }
}
