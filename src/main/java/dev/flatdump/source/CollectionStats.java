package dev.flatdump.source;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonValue;

/**
 * MongoDB's own figures for a collection, from {@code $collStats} storage statistics, in bytes.
 *
 * @param count documents in the collection
 * @param size uncompressed BSON bytes of the documents
 * @param storageSize bytes the collection's WiredTiger file uses on disk, free space included
 * @param freeStorageSize reusable free bytes inside storageSize
 * @param totalIndexSize bytes of all its indexes on disk
 * @param avgObjSize average document size in bytes
 * @param blockCompressor WiredTiger's block compressor (e.g. {@code snappy}), or "unknown"
 * @param flushed whether {@code {fsync: 1}} ran first, so the storage figures are current
 */
public record CollectionStats(
    long count,
    long size,
    long storageSize,
    long freeStorageSize,
    long totalIndexSize,
    long avgObjSize,
    String blockCompressor,
    boolean flushed) {

  private static final Pattern BLOCK_COMPRESSOR = Pattern.compile("block_compressor=(\\w*)");

  /**
   * Flushes MongoDB's data files with {@code {fsync: 1}} (the storage figures lag until a
   * checkpoint), then reads {@code $collStats}. A user without the fsync privilege still gets
   * figures, marked not flushed.
   */
  public static CollectionStats read(MongoClient client, MongoCollection<?> collection) {
    boolean flushed = true;
    try {
      client.getDatabase("admin").runCommand(new BsonDocument("fsync", new BsonInt32(1)));
    } catch (MongoCommandException e) {
      flushed = false;
    }
    return collStats(collection, flushed);
  }

  /**
   * Reads {@code $collStats} without flushing first: count and size are current, the storage
   * figures may lag. Cheap; for progress estimates and buffer sizing.
   */
  public static CollectionStats estimate(MongoCollection<?> collection) {
    return collStats(collection, false);
  }

  private static CollectionStats collStats(MongoCollection<?> collection, boolean flushed) {
    var pipeline =
        List.of(
            new BsonDocument(
                "$collStats",
                new BsonDocument("storageStats", new BsonDocument("scale", new BsonInt32(1)))));
    BsonDocument stats =
        collection.withDocumentClass(BsonDocument.class).aggregate(pipeline).first();
    if (stats == null) {
      return new CollectionStats(0, 0, 0, 0, 0, 0, "unknown", flushed);
    }
    BsonDocument storage = stats.getDocument("storageStats", new BsonDocument());
    String compressor = "unknown";
    BsonValue wt = storage.get("wiredTiger");
    if (wt != null && wt.isDocument() && wt.asDocument().isString("creationString")) {
      Matcher m = BLOCK_COMPRESSOR.matcher(wt.asDocument().getString("creationString").getValue());
      if (m.find()) {
        compressor = m.group(1).isEmpty() ? "none" : m.group(1);
      }
    }
    return new CollectionStats(
        number(storage, "count"),
        number(storage, "size"),
        number(storage, "storageSize"),
        number(storage, "freeStorageSize"),
        number(storage, "totalIndexSize"),
        number(storage, "avgObjSize"),
        compressor,
        flushed);
  }

  private static long number(BsonDocument d, String key) {
    BsonValue v = d.get(key);
    return v != null && v.isNumber() ? v.asNumber().longValue() : 0L;
  }
}
