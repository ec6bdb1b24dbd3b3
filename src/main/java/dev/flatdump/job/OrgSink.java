package dev.flatdump.job;

import dev.flatdump.artifact.ShardFile;
import dev.flatdump.artifact.ShardWriter;
import dev.flatdump.encode.DedupStats;
import dev.flatdump.source.OrgRecordDecoder;
import dev.flatdump.source.RawDocument;
import dev.flatdump.source.SourceRecord;
import java.nio.file.Path;
import java.util.List;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/** The bundled organizations engine: {@link OrgRecordDecoder} into {@link ShardWriter}. */
final class OrgSink implements RecordSink {

  private final OrgRecordDecoder decoder = new OrgRecordDecoder();
  private final ShardWriter shards;

  /**
   * @param counts the counts of the completed shards ({@link #counts()}), or null for none
   */
  OrgSink(
      Path staging,
      ExportOptions options,
      int initialCapacity,
      long expectedOrgs,
      List<ShardFile> done,
      String counts) {
    shards =
        new ShardWriter(
            staging,
            options.dedup(),
            options.shardSize(),
            initialCapacity,
            expectedOrgs,
            done,
            counts == null ? null : JobState.stats(counts));
  }

  @Override
  public Added add(RawDocument document) {
    SourceRecord r = decoder.decode(document);
    if (r instanceof SourceRecord.Accepted a) {
      return shards.add(a.org()) ? Added.SHARD_DONE : Added.SAME_SHARD;
    }
    return Added.rejected(((SourceRecord.Rejected) r).reject());
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
    return ShardWriter.BASE_NAME;
  }

  @Override
  public String counts() {
    return JobState.stats(shards.stats());
  }

  @Override
  public void handOver(ExecutionContext jobContext) {
    DedupStats stats = shards.stats();
    jobContext.putString(JobState.DEDUP_STATS, JobState.stats(stats));
  }
}
