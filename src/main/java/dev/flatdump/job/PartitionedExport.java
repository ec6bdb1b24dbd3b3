package dev.flatdump.job;

import com.mongodb.client.MongoCollection;
import dev.flatdump.source.CollectionStats;
import dev.flatdump.source.IdBoundaries;
import dev.flatdump.source.IdRange;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.springframework.batch.core.job.JobInterruptedException;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.partition.PartitionHandler;
import org.springframework.batch.core.partition.Partitioner;
import org.springframework.batch.core.partition.support.TaskExecutorPartitionHandler;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * {@code exportStep}, which is one step or many: with one partition, the {@link ExportTasklet} step
 * over the whole collection; with more ({@code --partitions}), a Spring Batch partition step whose
 * partitions each run the {@link #worker} step over one range of the {@code _id} index. The choice
 * is made per execution from the job parameters, so a restart runs as the failed run did.
 *
 * <p>The partition step is built for each execution, because the number of partitions, the
 * collection and the way partitions are run come with the run. On a fresh start it empties the
 * staging directory and stages the schema once for all partitions; on a restart Spring Batch runs
 * only the partitions that did not complete, each from its own last checkpoint and with the range
 * it had.
 */
final class PartitionedExport implements Step {

  static final String NAME = "exportStep";

  /** The most partitions that run at once in one process; the others wait for a thread. */
  static final int MAX_LOCAL_THREADS = 16;

  private final Step single;
  private final Step worker;
  private final JobRepository repository;
  private final JobRuntime runtime;
  private final LastExecution lastExecution;

  PartitionedExport(
      Step single,
      Step worker,
      JobRepository repository,
      JobRuntime runtime,
      LastExecution lastExecution) {
    this.single = single;
    this.worker = worker;
    this.repository = repository;
    this.runtime = runtime;
    this.lastExecution = lastExecution;
  }

  /**
   * Each partition on a thread of its own, in this process; or, with {@link JobRuntime#remote()},
   * in worker processes.
   */
  private PartitionHandler handler(int partitions) {
    if (runtime.remote() != null) {
      return new RemotePartitionHandler(
          RemotePartitions.connectionFactory(runtime.remote().broker()),
          repository,
          partitions,
          runtime.remote().workerTimeout());
    }
    TaskExecutorPartitionHandler handler = new TaskExecutorPartitionHandler();
    SimpleAsyncTaskExecutor threads = new SimpleAsyncTaskExecutor("flatdump-partition-");
    threads.setConcurrencyLimit(Math.min(partitions, MAX_LOCAL_THREADS));
    handler.setTaskExecutor(threads);
    handler.setStep(worker);
    handler.setGridSize(partitions);
    return handler;
  }

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public void execute(StepExecution stepExecution) throws JobInterruptedException {
    ExportOptions options = ExportOptions.from(stepExecution.getJobParameters());
    if (!options.partitioned()) {
      single.execute(stepExecution);
      return;
    }
    new StepBuilder(NAME, repository)
        .partitioner(ExportPartition.WORKER_STEP, new RangePartitioner(options))
        .partitionHandler(handler(options.partitions()))
        .listener(new Prepare(options))
        .listener(lastExecution)
        .build()
        .execute(stepExecution);
  }

  /**
   * The worker step: runs a fresh {@link ExportTasklet} for the partition in the step execution it
   * is given, so that partitions running at once share no state.
   */
  static Step worker(
      JobRepository repository,
      PlatformTransactionManager tm,
      JobRuntime runtime,
      LastExecution lastExecution) {
    return new Step() {
      @Override
      public String getName() {
        return ExportPartition.WORKER_STEP;
      }

      @Override
      public void execute(StepExecution stepExecution) throws JobInterruptedException {
        var tasklet = new ExportTasklet(runtime);
        new StepBuilder(ExportPartition.WORKER_STEP, repository)
            .tasklet(tasklet, tm).stream(tasklet)
                .listener(tasklet)
                .listener(lastExecution)
                .build()
                .execute(stepExecution);
      }
    };
  }

  /** Cuts the collection into the options' number of ranges; see {@link IdBoundaries}. */
  private final class RangePartitioner implements Partitioner {
    private final ExportOptions options;

    RangePartitioner(ExportOptions options) {
      this.options = options;
    }

    @Override
    public Map<String, ExecutionContext> partition(int gridSize) {
      MongoCollection<RawBsonDocument> collection = runtime.collection(options);
      BsonDocument query = BsonDocument.parse(options.query());
      long count =
          query.isEmpty()
              ? CollectionStats.estimate(collection).count()
              : collection.countDocuments(query);
      List<IdRange> ranges = IdBoundaries.split(collection, query, gridSize, count);
      Map<String, ExecutionContext> partitions = new LinkedHashMap<>();
      for (int i = 0; i < ranges.size(); i++) {
        partitions.put(ExportPartition.name(i), new ExportPartition(i, ranges.get(i)).toContext());
      }
      return partitions;
    }
  }

  /**
   * On a fresh start, empties the staging directory and stages the schema for every partition. A
   * restart finds {@link JobState#PARTITIONS_PREPARED} in the step's context and keeps what the
   * partitions staged.
   */
  private static final class Prepare implements StepExecutionListener {
    private final ExportOptions options;

    Prepare(ExportOptions options) {
      this.options = options;
    }

    @Override
    public void beforeStep(StepExecution stepExecution) {
      if (stepExecution.getExecutionContext().containsKey(JobState.PARTITIONS_PREPARED)) {
        return;
      }
      ExportTasklet.prepareDirectory(options.staging(), true);
      ExportTasklet.stageSchema(options, options.staging());
      stepExecution.getExecutionContext().putString(JobState.PARTITIONS_PREPARED, "true");
    }
  }
}
