package dev.flatdump.job;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.ShardFile;
import dev.flatdump.artifact.compress.Compression;
import dev.flatdump.artifact.read.ShardKeys;
import dev.flatdump.artifact.write.ColumnarShardCopy;
import dev.flatdump.artifact.write.RejectsWriter;
import dev.flatdump.artifact.write.ShardCompressor;
import dev.flatdump.columnar.ColumnarCopy;
import dev.flatdump.encode.plan.SchemaPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * {@code compressStep}: lists every shard with the checksum {@code exportStep} took as it wrote it
 * (and, when the records have a key, its first and last key) and writes its compressed copies
 * ({@code .gz}, {@code .zst}) and, when asked, its columnar copy ({@code .fbc}) next to it in the
 * staging directory, each on the runtime's compression threads. Each output is written atomically,
 * so a rerun after a crash simply writes them again.
 */
final class CompressTasklet implements Tasklet {

  private final JobRuntime runtime;

  CompressTasklet(JobRuntime runtime) {
    this.runtime = runtime;
  }

  @Override
  public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
    ExportOptions options =
        ExportOptions.from(chunkContext.getStepContext().getStepExecution().getJobParameters());
    var jobCtx =
        chunkContext.getStepContext().getStepExecution().getJobExecution().getExecutionContext();
    List<ShardFile> shards = JobState.shards(jobCtx.getString(JobState.SHARDS));
    List<Compression> compressions = options.compressions(runtime.compressThreads());
    Path staging = options.staging();
    SchemaPlan plan = SchemaFiles.staged(staging, options.schemaName()).plan();
    List<ArtifactFile> files = new ArrayList<>();
    for (ShardFile s : shards) {
      files.add(ShardKeys.describe(shardFile(s), staging.resolve(s.fileName()), plan));
    }
    for (Compression c : compressions) {
      for (ShardFile s : shards) {
        files.add(
            ShardCompressor.compress(staging.resolve(s.fileName()), c, s.index(), s.records()));
      }
    }
    if (options.columnar()) {
      files.addAll(columnarCopies(shards, staging, options));
    }
    files.add(
        ArtifactFile.of(
            staging.resolve(RejectsWriter.FILE_NAME),
            "jsonl",
            null,
            jobCtx.getLong(JobState.REJECTED)));
    jobCtx.putString(JobState.FILES, JobState.files(files));
    return RepeatStatus.FINISHED;
  }

  /**
   * Each shard's columnar copy, one shard at a time: making one takes several times the shard's
   * size in heap (its columns, then the check rebuild), and makes its streams on every core.
   */
  private static List<ArtifactFile> columnarCopies(
      List<ShardFile> shards, Path staging, ExportOptions options) {
    byte[] bfbs = SchemaFiles.staged(staging, options.schemaName()).binary();
    List<ArtifactFile> files = new ArrayList<>();
    for (ShardFile s : shards) {
      files.add(
          ColumnarShardCopy.write(
              staging.resolve(s.fileName()),
              s.sha256(),
              bfbs,
              ColumnarCopy.DEFAULT_LEVEL,
              s.index(),
              s.records()));
    }
    return files;
  }

  /** The manifest's entry for a shard, with the checksum taken as it was written. */
  static ArtifactFile shardFile(ShardFile s) {
    return new ArtifactFile(
        s.fileName(), "flatbuffers", s.bytes(), s.sha256(), s.index(), s.records());
  }
}
