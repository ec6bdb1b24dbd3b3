package dev.flatdump.job;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.ShardFile;
import dev.flatdump.encode.engine.EncodeCounts;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * What {@code exportJob} keeps in its execution contexts, and the one place their keys are named:
 * the job's context, through which each step hands its results to the steps after, and the step
 * contexts from which {@code exportStep} and its partitions restart. Keys are prefixed by the
 * component that owns them. Their text is what the job repository holds, runs recorded before
 * included: it never changes.
 *
 * <p>Typed values are kept as JSON text, readable in the job repository and independent of Java
 * serialization.
 */
final class JobState {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static final JsonWriterSettings CANONICAL =
      JsonWriterSettings.builder().outputMode(JsonMode.EXTENDED).build();

  // The job's context: what one step hands to the next.

  /** The export's shards ({@link #shards(List)}), by exportStep or mergeStep. */
  static final String SHARDS = "export.shards";

  /** What the de-dup shared over the export ({@link #counts(EncodeCounts)}). */
  static final String ENCODE_COUNTS = "export.encodeCounts";

  static final String EXPORTED = "export.exported";
  static final String REJECTED = "export.rejected";

  /** The shards, their copies and the rejects, as the manifest lists them, by compressStep. */
  static final String FILES = "compress.files";

  /** The report's files, by reportStep. */
  static final String REPORT_FILES = "report.files";

  /** The report's terminal summary, by reportStep. */
  static final String REPORT_SUMMARY = "report.summary";

  /** The published export's directory, by publishStep. */
  static final String EXPORT_DIR = "publish.exportDir";

  /** The published export's {@code report.html}, by publishStep. */
  static final String REPORT_HTML = "publish.reportHtml";

  // The step context of exportStep, or of each partition: the shard writer's checkpoint...

  static final String WRITER_SHARDS = "shardWriter.shards";
  static final String WRITER_COUNTS = "shardWriter.dedupStats";
  static final String WRITER_EXPORTED = "shardWriter.exported";
  static final String WRITER_REJECTED = "shardWriter.rejected";
  static final String WRITER_REJECTS_LENGTH = "shardWriter.rejectsLength";

  // ...and the reader's: the last _id it returned, as id(BsonValue) writes it.

  static final String READER_LAST_ID = "documentReader.lastId";

  // The step context of each partition: which one it is and its range (ExportPartition).

  static final String PARTITION_INDEX = "partition.index";
  static final String PARTITION_FROM = "partition.from";
  static final String PARTITION_UNTIL = "partition.until";

  // The step context of a partitioned exportStep: set once the staging directory is prepared.

  static final String PARTITIONS_PREPARED = "exportStep.prepared";

  private JobState() {}

  /** What exportStep (or mergeStep, for a partitioned export) hands to the steps after. */
  static void handOverExport(
      ExecutionContext job,
      List<ShardFile> shards,
      EncodeCounts counts,
      long exported,
      long rejected) {
    job.putString(SHARDS, shards(shards));
    job.putString(ENCODE_COUNTS, counts(counts));
    job.putLong(EXPORTED, exported);
    job.putLong(REJECTED, rejected);
  }

  static String shards(List<ShardFile> shards) {
    return JSON.writeValueAsString(shards);
  }

  static List<ShardFile> shards(String json) {
    return JSON.readValue(json, new TypeReference<List<ShardFile>>() {});
  }

  static String files(List<ArtifactFile> files) {
    return JSON.writeValueAsString(files);
  }

  static List<ArtifactFile> files(String json) {
    return JSON.readValue(json, new TypeReference<List<ArtifactFile>>() {});
  }

  static String counts(EncodeCounts counts) {
    return JSON.writeValueAsString(counts);
  }

  static EncodeCounts counts(String json) {
    return JSON.readValue(json, EncodeCounts.class);
  }

  /** An {@code _id} as canonical Extended JSON, so that its BSON type survives. */
  static String id(BsonValue id) {
    return new BsonDocument("_id", id).toJson(CANONICAL);
  }

  static BsonValue id(String json) {
    return BsonDocument.parse(json).get("_id");
  }
}
