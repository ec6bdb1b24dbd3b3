package dev.flatdump.job;

import dev.flatdump.source.IdRange;
import java.nio.file.Path;
import org.bson.BsonValue;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * One partition of a partitioned export: its number, which orders it among the others, and its
 * range of the {@code _id} index. It lives in the partition's step execution context (keys {@code
 * partition.*}, bounds as canonical Extended JSON), so that a restarted partition reads the same
 * range, and a worker in another process reads it from the shared job repository.
 *
 * @param index from 0, in {@code _id} order
 * @param range the {@code _id}s it exports
 */
record ExportPartition(int index, IdRange range) {

  /** The worker step's name; each partition's step execution is {@code exportPartition:NAME}. */
  static final String WORKER_STEP = "exportPartition";

  /** The partition's name, {@code partition0000}: they sort as their numbers do. */
  static String name(int index) {
    return String.format("partition%04d", index);
  }

  /** The name of partition {@code index}'s step executions. */
  static String stepName(int index) {
    return WORKER_STEP + ":" + name(index);
  }

  /** Where the partition stages its shards and rejects: a directory of its own in the staging. */
  static Path staging(ExportOptions options, int index) {
    return options.staging().resolve("partitions").resolve(String.format("%04d", index));
  }

  Path staging(ExportOptions options) {
    return staging(options, index);
  }

  ExecutionContext toContext() {
    ExecutionContext ctx = new ExecutionContext();
    ctx.putInt(JobState.PARTITION_INDEX, index);
    if (range.from() != null) {
      ctx.putString(JobState.PARTITION_FROM, JobState.id(range.from()));
    }
    if (range.until() != null) {
      ctx.putString(JobState.PARTITION_UNTIL, JobState.id(range.until()));
    }
    return ctx;
  }

  static ExportPartition from(ExecutionContext ctx) {
    if (!ctx.containsKey(JobState.PARTITION_INDEX)) {
      throw new IllegalStateException(
          "the step execution holds no partition ("
              + JobState.PARTITION_INDEX
              + "): it was not made by exportStep");
    }
    return new ExportPartition(
        ctx.getInt(JobState.PARTITION_INDEX),
        new IdRange(bound(ctx, JobState.PARTITION_FROM), bound(ctx, JobState.PARTITION_UNTIL)));
  }

  private static BsonValue bound(ExecutionContext ctx, String key) {
    return ctx.containsKey(key) ? JobState.id(ctx.getString(key)) : null;
  }
}
