package dev.flatdump.job;

import dev.flatdump.artifact.ShardFile;
import dev.flatdump.source.RawDocument;
import dev.flatdump.source.Reject;
import java.util.List;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * Where {@code exportStep} puts each document it reads: into shards, or into rejects with a reason.
 * Two kinds: the user's schema ({@link SchemaSink}, {@code --schema}) and the bundled organizations
 * engine ({@link OrgSink}). What a sink counts travels in the step's context, so that a restart
 * goes on counting from the last completed shard.
 */
interface RecordSink {

  /** What became of one document. */
  record Added(Reject reject, boolean shardDone) {
    static final Added SAME_SHARD = new Added(null, false);
    static final Added SHARD_DONE = new Added(null, true);

    static Added rejected(Reject reject) {
      return new Added(reject, false);
    }
  }

  /**
   * Adds one document; its bytes are not kept.
   *
   * @return {@link Added#SHARD_DONE} when it completed a shard, now durable under its staging name;
   *     a reject when it was not exported
   */
  Added add(RawDocument document);

  /** Finishes the last shard (an empty one when there was no shard at all). */
  void finish();

  /** The shards completed so far, in order, under their staging names. */
  List<ShardFile> shards();

  /** The shards' name when there is one shard: {@code BASE.fb}. */
  String baseName();

  /** This sink's counts, as JSON for the step's context. */
  String counts();

  /** Hands the counts of the whole export to the steps after, in the job's context. */
  void handOver(ExecutionContext jobContext);
}
