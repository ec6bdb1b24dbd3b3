package dev.flatdump.cli;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.model.CountOptions;
import dev.flatdump.FlatdumpException;
import dev.flatdump.infer.SchemaInference;
import dev.flatdump.infer.SchemaInference.InferredSchema;
import dev.flatdump.source.IdOrderedFind;
import dev.flatdump.source.SampledAggregate;
import java.io.PrintWriter;
import java.util.Locale;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;

/**
 * Reads a collection for {@code infer} and {@code export --infer}: every document (in {@code _id}
 * order) of a collection of up to {@code readAllUpTo} documents, else a {@code $sample} of {@code
 * sampleSize} (0: every document), with a progress line on {@code err}. The client stays the
 * caller's to close.
 *
 * @param namespace {@code db.collection}, for the messages
 * @param collection the collection's name, which names the schema's tables
 * @param filter only the documents it matches
 * @param sampleSize the size of a {@code $sample}, or 0 to read every document
 * @param readAllUpTo the most documents read whole
 * @param options what the inference decides beside the data
 * @param progressSeconds seconds between progress lines
 */
record CollectionInference(
    String namespace,
    String db,
    String collection,
    BsonDocument filter,
    int sampleSize,
    int readAllUpTo,
    SchemaInference.Options options,
    int progressSeconds) {

  /** The schema of the documents read; fails when there are none. */
  InferredSchema run(MongoClient client, PrintWriter err, String prefix) {
    SchemaInference inference = new SchemaInference(options);
    String source;
    var progress = new ProgressPrinter(err, ProgressPrinter.onTerminal());
    try {
      MongoCollection<RawBsonDocument> coll =
          client.getDatabase(db).getCollection(collection, RawBsonDocument.class);
      boolean sampled =
          sampleSize > 0
              && coll.countDocuments(filter, new CountOptions().limit(readAllUpTo + 1))
                  > readAllUpTo;
      String where = namespace + (filter.isEmpty() ? "" : " where " + filter.toJson());
      source =
          sampled
              ? where
                  + ", a $sample of "
                  + count(sampleSize)
                  + " of its more than "
                  + count(readAllUpTo)
              : where + ", every document";
      err.println(prefix + "reading " + source);
      err.flush();
      long every = progressSeconds * 1_000_000_000L;
      long next = System.nanoTime() + every;
      try (MongoCursor<RawBsonDocument> cursor =
          sampled
              ? new SampledAggregate(filter, sampleSize).open(coll)
              : IdOrderedFind.of(filter).withBatchSize(1000).open(coll)) {
        while (cursor.hasNext()) {
          inference.add(cursor.next());
          if (System.nanoTime() - next >= 0) {
            progress.accept(prefix + count(inference.documents()) + " documents read");
            next = System.nanoTime() + every;
          }
        }
      }
    } finally {
      progress.finish();
    }
    if (inference.documents() == 0) {
      throw new FlatdumpException(
          "no documents in " + namespace + " match " + filter.toJson() + ": nothing to infer");
    }
    return inference.schema(collection, source);
  }

  /** The maps chosen, the overrides that named nothing and the conflicts, on {@code err}. */
  static void report(InferredSchema schema, PrintWriter err, String prefix) {
    if (!schema.maps().isEmpty()) {
      err.println(prefix + schema.maps().size() + " maps (--no-map PATH keeps one a table):");
      schema.maps().forEach(m -> err.println("  " + m));
    }
    for (String unused : schema.unusedOverrides()) {
      err.println(prefix + "warning: " + unused + " names no sub-document seen");
    }
    if (!schema.conflicts().isEmpty()) {
      err.println(prefix + schema.conflicts().size() + " paths of several types:");
      schema.conflicts().forEach(c -> err.println("  " + c));
    }
    err.flush();
  }

  private static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
