package dev.flatdump.job;

import dev.flatdump.artifact.ShardFile;
import dev.flatdump.artifact.write.SchemaShardWriter;
import dev.flatdump.encode.engine.EncodeCounts;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.source.RawDocument;
import java.nio.file.Path;
import java.util.List;

/**
 * Where {@code exportStep} puts each document it reads: its BSON bytes straight into {@link
 * SchemaShardWriter}, under the export's schema, or into rejects with a reason.
 */
final class SchemaSink {

  private final String baseName;
  private final SchemaShardWriter shards;
  private final EncodeCounts before;

  /**
   * @param counts the counts of the completed shards ({@link #counts()}), or null for none
   */
  SchemaSink(
      Path staging,
      String baseName,
      SchemaPlan plan,
      ExportOptions options,
      int initialCapacity,
      List<ShardFile> done,
      String counts) {
    this.baseName = baseName;
    this.shards =
        new SchemaShardWriter(
            staging,
            baseName,
            plan,
            options.dedup().kinds(),
            options.strict(),
            options.shardSize(),
            done,
            initialCapacity);
    this.before = counts == null ? EncodeCounts.EMPTY : JobState.counts(counts);
  }

  /**
   * Adds one document; its bytes are not kept.
   *
   * @return exported (with {@code shardDone} when it completed a shard, now durable under its
   *     staging name), or rejected with the line for {@code rejects.jsonl}
   */
  SchemaShardWriter.Outcome add(RawDocument document) {
    return shards.add(document);
  }

  /** Finishes the last shard (an empty one when there was no shard at all). */
  void finish() {
    shards.finish();
  }

  /** The shards completed so far, in order, under their staging names. */
  List<ShardFile> shards() {
    return shards.shards();
  }

  /** The shards' name when there is one shard: {@code BASE.fb}. */
  String baseName() {
    return baseName;
  }

  /** The counts so far: the completed shards' before a restart, plus this run's. */
  EncodeCounts total() {
    List<Sharing.Count> sharing = shards.counts();
    return before.plus(new EncodeCounts(sharing, shards.unknownFields()));
  }

  /** The counts so far as JSON for the step's context, so that a restart goes on counting. */
  String counts() {
    return JobState.counts(total());
  }
}
