package dev.flatdump.source;

import com.mongodb.MongoConnectionPoolClearedException;
import com.mongodb.MongoCursorNotFoundException;
import com.mongodb.MongoException;
import com.mongodb.MongoNodeIsRecoveringException;
import com.mongodb.MongoNotPrimaryException;
import com.mongodb.MongoServerException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import dev.flatdump.FlatdumpException;
import java.io.Closeable;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import org.bson.BsonDocument;
import org.bson.BsonInvalidOperationException;
import org.bson.BsonObjectId;
import org.bson.BsonSerializationException;
import org.bson.BsonValue;
import org.bson.RawBsonArray;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.ObjectId;

/**
 * Streams a collection's documents in {@code _id} order, as their BSON bytes with their {@code
 * _id}, and survives a lost cursor by re-opening after the last {@code _id} it returned. Decoding
 * is left to the caller (the export's engine), so that it can run on another thread than the
 * cursor.
 *
 * <p>Resuming uses the {@code _id} index bounds ({@code min} with a {@code hint}), not {@code _id >
 * last}: the index orders every BSON type, while {@code $gt} only compares within one type, so a
 * collection with mixed {@code _id} types would lose documents on resume.
 *
 * <p>A cursor may read one {@link IdRange} of the index only, bounded the same way ({@code min}
 * inclusive, {@code max} exclusive).
 *
 * <p>Whole documents are read, without a projection: mongod's inclusion projection stops at the
 * first occurrence of each field, which would hide a duplicate field from the codec (and export a
 * document that must be rejected).
 *
 * <p>Each document is copied once out of the driver's reply, by {@link RawDocumentCodec}: into an
 * array of its own, or into {@link DocumentBlocks} the caller gives.
 *
 * <p>Not thread-safe. The caller closes it, which closes the cursor; it does not close the client.
 */
public final class MongoDocumentCursor
    implements Iterator<RawDocument>, PrefetchingIterator.Buffered, Closeable {

  /** Cursor settings; validated. */
  public record Settings(int batchSize, int maxReopens, Duration reopenBackoff) {
    public static final Settings DEFAULTS = new Settings(1000, 5, Duration.ofSeconds(1));

    public Settings {
      if (batchSize < 1) {
        throw new IllegalArgumentException("batchSize must be >= 1, got " + batchSize);
      }
      if (maxReopens < 0) {
        throw new IllegalArgumentException("maxReopens must be >= 0, got " + maxReopens);
      }
      Objects.requireNonNull(reopenBackoff, "reopenBackoff");
    }
  }

  private static final int OBJECT_ID_SIZE = 12;

  /** BSON's type byte for an ObjectId. */
  private static final byte OBJECT_ID_TYPE = 0x07;

  /** "_id" and its NUL as a little-endian int. */
  private static final int ID_NAME = '_' | 'i' << 8 | 'd' << 16;

  /** Length, type, "_id\0", an ObjectId and the document's final NUL. */
  private static final int ID_FIRST_MIN_SIZE = 4 + 1 + 4 + OBJECT_ID_SIZE + 1;

  private static final BsonDocumentCodec ID_CODEC = new BsonDocumentCodec();

  /**
   * HostUnreachable, HostNotFound, NetworkTimeout, ShutdownInProgress, PrimarySteppedDown,
   * SocketException, NotWritablePrimary, InterruptedAtShutdown, InterruptedDueToReplStateChange,
   * NotPrimaryNoSecondaryOk, NotPrimaryOrSecondary.
   */
  private static final Set<Integer> RETRYABLE_READ_CODES =
      Set.of(6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436);

  private final MongoCollection<RawBsonDocument> collection;
  private final BsonDocument query;
  private final Settings settings;
  private final DocumentBlocks blocks;
  private final IdRange range;
  private BsonValue lastId;

  /**
   * Documents returned after {@link #lastId} whose {@code _id} could not be read: they lie right
   * after it in the index, so a cursor re-opened there skips them, not to return them twice.
   */
  private int unreadableSinceLastId;

  private int unreadableToSkip;
  private MongoCursor<RawBsonDocument> cursor;
  private RawDocument next;
  private int reopens;
  private boolean closed;

  /**
   * @param collection the collection, with {@link RawBsonDocument} as its document class
   * @param query a filter ({@code {}} for all documents)
   * @param afterId resume after this {@code _id}, or null to start at the beginning
   */
  public MongoDocumentCursor(
      MongoCollection<RawBsonDocument> collection,
      BsonDocument query,
      BsonValue afterId,
      Settings settings) {
    this(collection, query, afterId, settings, null);
  }

  /**
   * Reads the documents into {@code blocks}, whose decoding thread must {@linkplain
   * DocumentBlocks#reached reach} each document before it decodes it.
   *
   * @param blocks where the documents' bytes go, or null for an array of their own each
   */
  public MongoDocumentCursor(
      MongoCollection<RawBsonDocument> collection,
      BsonDocument query,
      BsonValue afterId,
      Settings settings,
      DocumentBlocks blocks) {
    this(collection, query, IdRange.ALL, afterId, settings, blocks);
  }

  /**
   * Reads only the documents of {@code range}.
   *
   * @param afterId resume after this {@code _id}, which lies in the range, or null to start at the
   *     range's start
   */
  public MongoDocumentCursor(
      MongoCollection<RawBsonDocument> collection,
      BsonDocument query,
      IdRange range,
      BsonValue afterId,
      Settings settings,
      DocumentBlocks blocks) {
    this.range = Objects.requireNonNull(range, "range");
    this.collection =
        RawDocumentCodec.reading(Objects.requireNonNull(collection, "collection"), blocks);
    this.query = Objects.requireNonNull(query, "query");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.blocks = blocks;
    this.lastId = afterId;
  }

  @Override
  public boolean hasNext() {
    if (next == null) {
      next = fetch();
    }
    return next != null;
  }

  /**
   * What is left of the current batch: the documents {@link #next()} returns without a getMore.
   * Right after a resume, one of them may be the document read before, which is skipped.
   */
  @Override
  public int readyWithoutWaiting() {
    int ready = next != null ? 1 : 0;
    return cursor == null ? ready : ready + cursor.available();
  }

  @Override
  public RawDocument next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    RawDocument r = next;
    next = null;
    if (r.id() != null) {
      lastId = r.id();
      unreadableSinceLastId = 0;
    } else if (r.idProblem() != null) {
      unreadableSinceLastId++;
    }
    return r;
  }

  private RawDocument fetch() {
    if (closed) {
      throw new IllegalStateException("source is closed");
    }
    if (range.empty()) {
      return null;
    }
    while (true) {
      try {
        if (cursor == null) {
          cursor = open();
          unreadableToSkip = unreadableSinceLastId;
        }
        while (cursor.hasNext()) {
          RawBsonDocument raw = cursor.next();
          ByteBuffer bytes = raw.getByteBuffer().asNIO();
          BsonValue id;
          String idProblem = null;
          try {
            id = id(raw, bytes);
          } catch (BsonSerializationException | BsonInvalidOperationException e) {
            // bytes the driver cannot read (a bool of 2, stored by a server that did not check
            // them): the document is rejected, not the export
            id = null;
            idProblem = "malformed BSON: " + e.getMessage();
          }
          if (lastId != null && lastId.equals(id)) {
            continue; // the index lower bound is inclusive: skip the record already returned
          }
          if (idProblem != null && unreadableToSkip > 0) {
            unreadableToSkip--; // returned before the cursor was re-opened
            continue;
          }
          reopens = 0;
          byte[] block = blocks != null && bytes.hasArray() ? bytes.array() : null;
          return new RawDocument(id, idProblem, raw, bytes.remaining(), block);
        }
        return null;
      } catch (MongoException e) {
        if (!isTransient(e)) {
          throw e;
        }
        closeCursor();
        if (++reopens > settings.maxReopens()) {
          throw new SourceUnavailableException(
              (e instanceof MongoCursorNotFoundException
                      ? "MongoDB keeps losing the cursor: reading "
                      : "MongoDB is unreachable: reading ")
                  + collection.getNamespace()
                  + " failed after "
                  + settings.maxReopens()
                  + " cursor re-opens; last _id read: "
                  + (lastId == null ? "none" : lastId.toString())
                  + ": "
                  + e.getMessage(),
              e);
        }
        sleep(settings.reopenBackoff().multipliedBy(reopens));
      }
    }
  }

  /**
   * The document's {@code _id}: read from its bytes when it is its first field and an ObjectId (as
   * MongoDB adds it unless told otherwise), else by {@link RawBsonDocument#get}, which returns the
   * first field of that name too. Null if there is none. {@code get} makes a reader, its context
   * and the value for every document, a cost the common case need not pay.
   */
  static BsonValue id(RawBsonDocument document) {
    return id(document, document.getByteBuffer().asNIO());
  }

  /**
   * The same, given the document's bytes. An {@code _id} that is a document or an array is copied
   * out: {@link RawBsonDocument#get} returns those over the same bytes, which {@link
   * DocumentBlocks} reuse while the {@code _id} lives on as the checkpoint.
   */
  private static int int32At(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | b[at + 3] << 24;
  }

  private static BsonValue id(RawBsonDocument document, ByteBuffer buffer) {
    if (buffer.hasArray() && buffer.remaining() >= ID_FIRST_MIN_SIZE) {
      byte[] b = buffer.array();
      int p = buffer.arrayOffset() + buffer.position();
      if (b[p + 4] == OBJECT_ID_TYPE && int32At(b, p + 5) == ID_NAME) {
        return new BsonObjectId(new ObjectId(ByteBuffer.wrap(b, p + 9, OBJECT_ID_SIZE)));
      }
    }
    BsonValue id = document.get("_id");
    if (id instanceof RawBsonDocument || id instanceof RawBsonArray) {
      // Encoded again into bytes of its own.
      return new RawBsonDocument(new BsonDocument("_id", id), ID_CODEC).get("_id");
    }
    return id;
  }

  /**
   * Errors after which the same read may succeed on a new cursor: a lost cursor, a lost or refused
   * connection, and a server that is shutting down, restarting or stepping down (the codes of the
   * driver specifications' retryable reads, which a getMore reports as a query error).
   */
  private static boolean isTransient(MongoException e) {
    return e instanceof MongoCursorNotFoundException
        || e instanceof MongoSocketException
        || e instanceof MongoTimeoutException
        || e instanceof MongoConnectionPoolClearedException
        || e instanceof MongoNodeIsRecoveringException
        || e instanceof MongoNotPrimaryException
        || (e instanceof MongoServerException s && RETRYABLE_READ_CODES.contains(s.getCode()));
  }

  /** From the last {@code _id} returned, if any, else from the range's start. */
  private MongoCursor<RawBsonDocument> open() {
    return IdOrderedFind.of(query)
        .withBatchSize(settings.batchSize())
        .withIdIndexHint()
        .within(new IdRange(lastId != null ? lastId : range.from(), range.until()))
        .open(collection);
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FlatdumpException("interrupted while re-opening the MongoDB cursor", e);
    }
  }

  private void closeCursor() {
    if (cursor != null) {
      try {
        cursor.close();
      } catch (RuntimeException ignored) {
        // the cursor is already lost; closing it is best effort
      }
      cursor = null;
    }
  }

  /** Closes the cursor. Idempotent. */
  @Override
  public void close() {
    closed = true;
    closeCursor();
  }
}
