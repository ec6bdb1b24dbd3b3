package dev.flatdump.job;

import dev.flatdump.artifact.SchemaShardWriter;
import dev.flatdump.artifact.ShardFile;
import dev.flatdump.encode.engine.EncodeCounts;
import dev.flatdump.encode.engine.RejectedRecord;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.source.RawDocument;
import dev.flatdump.source.Reject;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * The user's schema ({@code --schema}): each document's BSON bytes straight into {@link
 * SchemaShardWriter}.
 */
final class SchemaSink implements RecordSink {

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

  @Override
  public Added add(RawDocument document) {
    if (document.id() == null) {
      return Added.rejected(new Reject(null, "_id", "missing"));
    }
    ByteBuffer b = document.bson().getByteBuffer().asNIO();
    SchemaShardWriter.Outcome outcome =
        shards.add(b.array(), b.arrayOffset() + b.position(), b.remaining());
    if (outcome instanceof SchemaShardWriter.Outcome.Exported e) {
      return e.shardDone() ? Added.SHARD_DONE : Added.SAME_SHARD;
    }
    RejectedRecord why = ((SchemaShardWriter.Outcome.Rejected) outcome).reason();
    return Added.rejected(new Reject(document.id(), why.path(), why.reason()));
  }

  @Override
  public void finish() {
    shards.finish();
  }

  @Override
  public List<ShardFile> shards() {
    return shards.shards();
  }

  @Override
  public String baseName() {
    return baseName;
  }

  /** The counts so far: the completed shards' before a restart, plus this run's. */
  EncodeCounts total() {
    List<Sharing.Count> sharing = shards.counts();
    return before.plus(new EncodeCounts(sharing, shards.unknownFields()));
  }

  @Override
  public String counts() {
    return JobState.counts(total());
  }

  @Override
  public void handOver(ExecutionContext jobContext) {
    jobContext.putString(JobState.ENCODE_COUNTS, counts());
  }
}
