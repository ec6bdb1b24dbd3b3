package dev.flatdump.infer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.check.SchemaExportVerifier;
import dev.flatdump.encode.engine.RejectedRecord;
import dev.flatdump.encode.engine.ShardBuilder;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.infer.SchemaInference.InferredSchema;
import dev.flatdump.testing.SchemaFixtures;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.BsonDocument;
import tools.jackson.databind.JsonNode;

/**
 * An inferred schema put to export's test: compiled by flatc into export's plan, every document
 * encoded by export's engine (strict), the records read back by verify's own oracle through the
 * binary schema, and counted by flatc itself.
 *
 * @param schema what was inferred
 * @param rejects each rejected document's {@code _id} (as JSON) with its path and reason
 * @param verified verify's verdict on the documents exported, null when verify failed to run
 * @param verifyFailure why verify failed to run (a shape its oracle does not read yet), else null
 * @param flatcRecords how many records {@code flatc --json} reads from the buffer
 */
record InferredExport(
    InferredSchema schema,
    Map<String, String> rejects,
    SchemaExportVerifier.Result verified,
    String verifyFailure,
    int flatcRecords) {

  /** Verify's differences, or its failure to run as the one difference. */
  List<String> verifyDifferences() {
    return verified == null
        ? List.of("verify failed: " + verifyFailure)
        : verified.differences().stream().map(String::valueOf).toList();
  }

  static InferredExport of(Path dir, String collection, List<BsonDocument> docs)
      throws IOException, InterruptedException {
    return of(dir, collection, docs, false);
  }

  static InferredExport of(
      Path dir, String collection, List<BsonDocument> docs, boolean narrowIntegers)
      throws IOException, InterruptedException {
    SchemaInference inference = new SchemaInference(narrowIntegers);
    docs.forEach(inference::add);
    InferredSchema schema = inference.schema(collection, collection);
    SchemaFixtures fixtures = new SchemaFixtures(dir, schema.fbs());
    ShardBuilder shard = new ShardBuilder(fixtures.plan, Sharing.Kinds.ALL, true, 1 << 16);
    Map<String, String> rejects = new LinkedHashMap<>();
    List<BsonDocument> exported = new ArrayList<>();
    for (BsonDocument doc : docs) {
      byte[] bson = SchemaFixtures.bson(doc);
      try {
        shard.add(bson, 0, bson.length);
        exported.add(doc);
      } catch (RejectedRecord e) {
        rejects.put(String.valueOf(doc.get("_id")), e.path() + ": " + e.reason());
      }
    }
    assertThat(exported).as("some documents exported").isNotEmpty();
    ByteBuffer buffer = copy(shard.finish());
    JsonNode records = fixtures.flatcRecords(buffer);
    Path noRejects = Files.writeString(dir.resolve("rejects.jsonl"), "");
    SchemaExportVerifier.Result verified = null;
    String failure = null;
    try {
      verified =
          new SchemaExportVerifier(fixtures.plan, fixtures.binarySchema(), true, 20)
              .verify(exported.iterator(), List.of(buffer), noRejects);
    } catch (RuntimeException e) {
      failure = e.toString();
    }
    return new InferredExport(schema, rejects, verified, failure, records.size());
  }

  private static ByteBuffer copy(ByteBuffer b) {
    byte[] bytes = new byte[b.remaining()];
    b.duplicate().get(bytes);
    return ByteBuffer.wrap(bytes);
  }
}
