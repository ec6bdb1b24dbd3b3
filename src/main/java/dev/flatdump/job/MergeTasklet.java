package dev.flatdump.job;

import dev.flatdump.FlatdumpException;
import dev.flatdump.artifact.ShardFile;
import dev.flatdump.artifact.write.PartitionMerge;
import dev.flatdump.artifact.write.RejectsWriter;
import dev.flatdump.encode.engine.EncodeCounts;
import java.util.ArrayList;
import java.util.List;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * {@code mergeStep}: after a partitioned {@code exportStep}, combines every partition into one
 * export in the staging directory ({@link PartitionMerge}) and hands the whole export's shards and
 * counts to the steps after, as an unpartitioned {@code exportStep} does. Each partition's figures
 * come from its last step execution in the job repository, whichever process ran it and whichever
 * run of the job completed it. Does nothing for an unpartitioned export.
 */
final class MergeTasklet implements Tasklet {

  private final JobRepository repository;

  MergeTasklet(JobRepository repository) {
    this.repository = repository;
  }

  @Override
  public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
    JobExecution job = chunkContext.getStepContext().getStepExecution().getJobExecution();
    ExportOptions options = ExportOptions.from(job.getJobParameters());
    if (!options.partitioned()) {
      return RepeatStatus.FINISHED;
    }
    List<PartitionMerge.Part> parts = new ArrayList<>();
    EncodeCounts counts = EncodeCounts.EMPTY;
    long exported = 0;
    long rejected = 0;
    for (int i = 0; i < options.partitions(); i++) {
      String name = ExportPartition.stepName(i);
      StepExecution partition = repository.getLastStepExecution(job.getJobInstance(), name);
      if (partition == null || partition.getStatus() != BatchStatus.COMPLETED) {
        throw new FlatdumpException(
            "partition "
                + i
                + " ("
                + name
                + ") has not completed"
                + (partition == null ? "" : ": " + partition.getStatus()));
      }
      ExecutionContext ctx = partition.getExecutionContext();
      List<ShardFile> shards = JobState.shards(ctx.getString(JobState.WRITER_SHARDS));
      parts.add(
          new PartitionMerge.Part(
              ExportPartition.staging(options, i),
              shards,
              ctx.getLong(JobState.WRITER_REJECTS_LENGTH, 0L)));
      counts = counts.plus(JobState.counts(ctx.getString(JobState.WRITER_COUNTS)));
      exported += ctx.getLong(JobState.WRITER_EXPORTED);
      rejected += ctx.getLong(JobState.WRITER_REJECTED);
    }
    ExportTasklet.requireAcceptableRejects(
        options.maxRejects(),
        exported,
        rejected,
        "over "
            + options.partitions()
            + " partitions; see the "
            + RejectsWriter.FILE_NAME
            + " of each under "
            + options.staging().resolve(PartitionMerge.PARTITIONS_DIR));
    JobState.handOverExport(
        job.getExecutionContext(),
        PartitionMerge.merge(options.staging(), options.schemaName(), parts),
        counts,
        exported,
        rejected);
    contribution.incrementWriteCount(exported);
    return RepeatStatus.FINISHED;
  }
}
