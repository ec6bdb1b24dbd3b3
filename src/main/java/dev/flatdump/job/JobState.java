package dev.flatdump.job;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.ShardFile;
import dev.flatdump.encode.engine.EncodeCounts;
import java.util.List;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Typed values kept in execution contexts as JSON text, readable in the job repository and
 * independent of Java serialization. Keys are prefixed by the component that owns them.
 */
final class JobState {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  // job execution context: what one step hands to the next
  static final String SHARDS = "export.shards";
  static final String ENCODE_COUNTS = "export.encodeCounts";
  static final String EXPORTED = "export.exported";
  static final String REJECTED = "export.rejected";
  static final String FILES = "compress.files";
  static final String REPORT_FILES = "report.files";

  private JobState() {}

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
}
