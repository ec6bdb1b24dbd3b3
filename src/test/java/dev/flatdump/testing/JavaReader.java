package dev.flatdump.testing;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.model.Sorts;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.encode.plan.SchemaPlan;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;

/**
 * The Java consumer of an export, beside the Python one ({@link PythonReader}): it generates Java
 * from the schema the export ships ({@code flatc --java}, flatc 2.0.8), compiles it in-process
 * against flatbuffers-java 2.0.8, reads every record of every shard through the generated classes
 * only ({@link GeneratedRecords}), and compares each with MongoDB's document for it ({@link
 * RecordComparison}): the collection read with the export's query in {@code _id} order, less the
 * documents {@code rejects.jsonl} names.
 */
public final class JavaReader {

  private static final JsonWriterSettings RELAXED =
      JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();

  private JavaReader() {}

  /**
   * What the reader found.
   *
   * @param read records read from the shards
   * @param agreeing records equal to their document
   * @param unknownFields BSON fields the schema does not name (not in the records, as the export
   *     skips them; none after {@code --strict})
   * @param difference the first difference, or null when every record agrees and the export and
   *     MongoDB hold as many
   * @param output {@code N records agree with DB.COLLECTION}, or the first difference, as {@code
   *     compare_export.py} prints them
   */
  public record Result(
      long read, long agreeing, long unknownFields, String difference, String output) {

    public boolean agrees() {
      return difference == null;
    }
  }

  /**
   * Reads the export {@code export} (OUT, following its pointer, or an export's directory) and
   * compares it with {@code db.collection} on the server at {@code uri}.
   */
  public static Result compare(Path export, String uri, String db, String collection)
      throws IOException, InterruptedException {
    Path dir = OutputLayout.resolve(export);
    Manifest m = Manifest.read(dir.resolve(Manifest.FILE_NAME));
    Path fbs = dir.resolve(m.schema().file());
    if (!fbs.getFileName().toString().endsWith(".fbs")) {
      throw new IllegalArgumentException(fbs + ": the Java reader needs the export's .fbs");
    }
    SchemaPlan plan = SchemaPlan.load(fbs);
    GeneratedRecords records = new GeneratedRecords(plan, GeneratedJava.of(fbs));
    RecordComparison comparison = new RecordComparison(plan);
    Set<String> rejected = rejectedIds(dir.resolve("rejects.jsonl"));

    long read = 0;
    long agreeing = 0;
    String difference = null;
    String query = m.source().query();
    try (MongoClient client = MongoClients.create(uri);
        MongoCursor<BsonDocument> cursor =
            client
                .getDatabase(db)
                .getCollection(collection, BsonDocument.class)
                .find(BsonDocument.parse(query == null || query.isBlank() ? "{}" : query))
                .sort(Sorts.ascending("_id"))
                .iterator()) {
      for (ArtifactFile shard : m.shards()) {
        Object root = records.root(map(dir.resolve(shard.name())));
        int n = records.recordCount(root);
        for (int i = 0; i < n; i++) {
          BsonDocument doc = next(cursor, rejected);
          if (doc == null) {
            difference =
                difference != null
                    ? difference
                    : "the export has more records than MongoDB has documents (at " + read + ")";
            read += n - i;
            break;
          }
          try {
            comparison.record(doc, records.record(root, i));
            agreeing++;
          } catch (RecordComparison.Mismatch e) {
            if (difference == null) {
              difference =
                  "record " + read + " (_id " + id(doc.get("_id")) + ") differs: " + e.getMessage();
            }
          }
          read++;
        }
      }
      BsonDocument extra = next(cursor, rejected);
      if (extra != null && difference == null) {
        difference = "MongoDB has a document the export lacks: _id " + id(extra.get("_id"));
      }
    }
    String output =
        difference != null ? difference : read + " records agree with " + db + "." + collection;
    return new Result(read, agreeing, comparison.unknownFields(), difference, output);
  }

  /** The next document that is not in {@code rejects.jsonl}, or null. */
  private static BsonDocument next(MongoCursor<BsonDocument> cursor, Set<String> rejected) {
    while (cursor.hasNext()) {
      BsonDocument doc = cursor.next();
      if (!rejected.contains(id(doc.get("_id")))) {
        return doc;
      }
    }
    return null;
  }

  /**
   * The {@code _id}s of {@code rejects.jsonl}, each as relaxed Extended JSON, as it writes them.
   */
  private static Set<String> rejectedIds(Path rejects) throws IOException {
    Set<String> ids = new HashSet<>();
    if (Files.exists(rejects)) {
      for (String line : Files.readAllLines(rejects)) {
        if (!line.isBlank()) {
          BsonValue id = BsonDocument.parse(line).get("_id");
          if (id != null && !id.isNull()) {
            ids.add(id(id));
          }
        }
      }
    }
    return ids;
  }

  private static String id(BsonValue id) {
    String json = new BsonDocument("_id", id).toJson(RELAXED);
    return json.substring(json.indexOf(':') + 1, json.length() - 1).strip();
  }

  private static ByteBuffer map(Path shard) throws IOException {
    try (FileChannel ch = FileChannel.open(shard, StandardOpenOption.READ)) {
      return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
    }
  }
}
