package dev.flatdump.job;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Compression;
import dev.flatdump.artifact.RejectsWriter;
import dev.flatdump.artifact.ShardCompressor;
import dev.flatdump.artifact.ShardFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * {@code compressStep}: checksums every shard and writes its compressed copies ({@code .gz}, {@code
 * .zst}) next to it in the staging directory. Each output is written atomically, so a rerun after a
 * crash simply writes them again.
 */
final class CompressTasklet implements Tasklet {

  @Override
  public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
    ExportOptions options =
        ExportOptions.from(chunkContext.getStepContext().getStepExecution().getJobParameters());
    var jobCtx =
        chunkContext.getStepContext().getStepExecution().getJobExecution().getExecutionContext();
    List<ShardFile> shards = JobState.shards(jobCtx.getString(JobState.SHARDS));
    List<Compression> compressions = compressions(options);
    Path staging = options.staging();
    List<ArtifactFile> files = new ArrayList<>();
    for (ShardFile s : shards) {
      Path file = staging.resolve(s.fileName());
      files.add(
          new ArtifactFile(
              s.fileName(),
              "flatbuffers",
              size(file),
              Checksums.sha256(file),
              s.index(),
              s.records()));
    }
    for (Compression c : compressions) {
      for (ShardFile s : shards) {
        files.add(
            ShardCompressor.compress(staging.resolve(s.fileName()), c, s.index(), s.records()));
      }
    }
    Path rejects = staging.resolve(RejectsWriter.FILE_NAME);
    files.add(
        new ArtifactFile(
            RejectsWriter.FILE_NAME,
            "jsonl",
            size(rejects),
            Checksums.sha256(rejects),
            null,
            jobCtx.getLong(JobState.REJECTED)));
    jobCtx.putString(JobState.FILES, JobState.files(files));
    return RepeatStatus.FINISHED;
  }

  static List<Compression> compressions(ExportOptions options) {
    return options.compress().stream()
        .map(
            n ->
                Compression.create(n, n.equals("gzip") ? options.gzipLevel() : options.zstdLevel()))
        .toList();
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new ArtifactException("cannot stat " + file + ": " + e.getMessage(), e);
    }
  }
}
