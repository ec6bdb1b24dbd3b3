package dev.flatdump.job;

import com.mongodb.client.MongoCollection;
import dev.flatdump.source.DocumentBlocks;
import dev.flatdump.source.IdRange;
import dev.flatdump.source.MongoDocumentCursor;
import dev.flatdump.source.PrefetchingIterator;
import dev.flatdump.source.RawDocument;
import java.util.Objects;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamException;
import org.springframework.batch.infrastructure.item.ItemStreamReader;

/**
 * The restartable reader: a thin ItemStream adapter around {@link MongoDocumentCursor}, handing out
 * each document's bytes undecoded, in {@code _id} order. It saves the last {@code _id} it returned
 * under {@code documentReader.lastId} (canonical Extended JSON, so the BSON type survives; the key
 * keeps its first name so that runs recorded before can resume) and resumes after it. The step
 * saves that key only when everything up to it is durable, so a restart neither skips nor repeats a
 * document.
 *
 * <p>A document's bytes are valid until the next {@link #read()}: the caller decodes or encodes it
 * before asking for the next one.
 */
final class DocumentItemReader implements ItemStreamReader<RawDocument> {

  /**
   * What may wait between the cursor and the encoder, besides two batches' worth of documents: four
   * of mongod's largest batches (16 MiB each), so that large documents cannot fill the heap.
   */
  static final long READ_AHEAD_BYTES = 64L << 20;

  private final MongoCollection<RawBsonDocument> collection;
  private final BsonDocument query;
  private final MongoDocumentCursor.Settings settings;
  private final IdRange range;
  private DocumentBlocks blocks;
  private PrefetchingIterator<RawDocument> documents;
  private BsonValue lastId;

  /** Reads the documents of one range of the {@code _id} index only. */
  DocumentItemReader(
      MongoCollection<RawBsonDocument> collection,
      BsonDocument query,
      IdRange range,
      MongoDocumentCursor.Settings settings) {
    this.range = Objects.requireNonNull(range, "range");
    this.collection = Objects.requireNonNull(collection, "collection");
    this.query = Objects.requireNonNull(query, "query");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  @Override
  public void open(ExecutionContext ctx) throws ItemStreamException {
    lastId =
        ctx.containsKey(JobState.READER_LAST_ID)
            ? JobState.id(ctx.getString(JobState.READER_LAST_ID))
            : null;
    // The cursor runs a few batches ahead on a second thread, while this one decodes and encodes:
    // the cursor waits for mongod most of the time, and mongod needs a core for that. It copies the
    // documents into blocks that this thread gives back once it has decoded past them.
    blocks = new DocumentBlocks();
    documents =
        new PrefetchingIterator<>(
            new MongoDocumentCursor(collection, query, range, lastId, settings, blocks),
            2 * settings.batchSize(),
            RawDocument::size,
            READ_AHEAD_BYTES,
            "flatdump-reader");
  }

  @Override
  public RawDocument read() {
    if (!documents.hasNext()) {
      return null;
    }
    RawDocument document = documents.next();
    // the blocks before this document's go back to the cursor: the caller is done with them
    blocks.reached(document);
    if (document.id() != null) {
      lastId = document.id();
    }
    return document;
  }

  /**
   * Saves the {@code _id} of the last record returned by {@link #read()}, not of one read ahead.
   */
  @Override
  public void update(ExecutionContext ctx) throws ItemStreamException {
    if (lastId != null) {
      ctx.putString(JobState.READER_LAST_ID, JobState.id(lastId));
    }
  }

  @Override
  public void close() throws ItemStreamException {
    if (documents != null) {
      try {
        documents.close();
      } catch (java.io.IOException e) {
        throw new ItemStreamException("cannot stop the reader thread", e);
      }
    }
  }
}
