package dev.flatdump.job;

import dev.flatdump.source.IdRange;
import java.nio.file.Path;
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

  static final String INDEX = "partition.index";
  static final String FROM = "partition.from";
  static final String UNTIL = "partition.until";

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
    ctx.putInt(INDEX, index);
    if (range.from() != null) {
      ctx.putString(FROM, DocumentItemReader.encodeId(range.from()));
    }
    if (range.until() != null) {
      ctx.putString(UNTIL, DocumentItemReader.encodeId(range.until()));
    }
    return ctx;
  }

  static ExportPartition from(ExecutionContext ctx) {
    if (!ctx.containsKey(INDEX)) {
      throw new IllegalStateException(
          "the step execution holds no partition (" + INDEX + "): it was not made by exportStep");
    }
    return new ExportPartition(
        ctx.getInt(INDEX),
        new IdRange(
            ctx.containsKey(FROM) ? DocumentItemReader.decodeId(ctx.getString(FROM)) : null,
            ctx.containsKey(UNTIL) ? DocumentItemReader.decodeId(ctx.getString(UNTIL)) : null));
  }
}
