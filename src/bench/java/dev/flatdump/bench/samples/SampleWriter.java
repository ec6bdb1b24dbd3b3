package dev.flatdump.bench.samples;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.bson.BsonBinaryWriter;
import org.bson.BsonObjectId;
import org.bson.RawBsonDocument;
import org.bson.io.BasicOutputBuffer;

/**
 * Encodes generated organizations straight to BSON with {@link OrgCodec}, each with its
 * deterministic {@code _id} first, and hands them to a sink in batches: {@code
 * collection::insertMany} for MongoDB, or an {@link ExtendedJsonFileWriter}.
 *
 * <p>Not thread-safe. The sink owns what it is given; the caller closes whatever the sink writes
 * to.
 */
public final class SampleWriter {

  private final OrgCodec codec = new OrgCodec();
  private final BasicOutputBuffer buffer = new BasicOutputBuffer(64 * 1024);
  private final int batchSize;
  private final Consumer<List<RawBsonDocument>> sink;

  /**
   * @param batchSize documents per batch, at least 1
   * @param sink receives each batch, in order; a new list each time
   */
  public SampleWriter(int batchSize, Consumer<List<RawBsonDocument>> sink) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be >= 1, got " + batchSize);
    }
    this.batchSize = batchSize;
    this.sink = Objects.requireNonNull(sink, "sink");
  }

  /**
   * Writes the generator's next {@code count} organizations, numbering them from 0 for their ids.
   *
   * @param progress called after each batch with the number of organizations written so far
   * @return the number written, {@code count}
   */
  public long write(OrgGenerator generator, long count, LongConsumer progress) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0, got " + count);
    }
    List<RawBsonDocument> batch = new ArrayList<>(batchSize);
    for (long index = 0; index < count; index++) {
      batch.add(encode(new BsonObjectId(generator.idOf(index)), generator.next()));
      if (batch.size() == batchSize || index == count - 1) {
        sink.accept(batch);
        batch = new ArrayList<>(batchSize);
        progress.accept(index + 1);
      }
    }
    return count;
  }

  /** One organization as a document, {@code _id} first. */
  RawBsonDocument encode(BsonObjectId id, Org org) {
    buffer.truncateToPosition(0);
    try (BsonBinaryWriter writer = new BsonBinaryWriter(buffer)) {
      codec.encode(writer, id, org);
    }
    return new RawBsonDocument(buffer.toByteArray());
  }
}
