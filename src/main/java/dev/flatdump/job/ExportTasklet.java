package dev.flatdump.job;

import com.mongodb.client.MongoCollection;
import dev.flatdump.FlatdumpException;
import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.AtomicFiles;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.ShardFile;
import dev.flatdump.artifact.write.RejectsWriter;
import dev.flatdump.artifact.write.SchemaShardWriter;
import dev.flatdump.source.CollectionStats;
import dev.flatdump.source.IdRange;
import dev.flatdump.source.MongoDocumentCursor;
import dev.flatdump.source.RawDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStream;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * {@code exportStep}: streams documents from the reader into FlatBuffers shards and rejects,
 * through the export's schema ({@code --schema}, or the one {@code --infer} wrote; without either,
 * as only the benchmarks run it, the jar's {@code organizations.fbs}).
 *
 * <p>One call of {@link #execute} fills one shard (or reaches the end). Spring Batch commits after
 * each call, saving the reader's last {@code _id} and this tasklet's state together, at a moment
 * when every record up to that {@code _id} is in a durable shard file or in {@code rejects.jsonl}.
 * A restart therefore re-reads only the records of the shard that was being built, and rebuilds it
 * byte for byte. Keys are prefixed {@code shardWriter.}.
 *
 * <p>In a partitioned export, one tasklet runs per partition ({@link ExportPartition}, in its step
 * execution's context): it reads that range of the {@code _id} index only, into a staging directory
 * of its own, and leaves its shards, counts and rejects in its own step context, where {@code
 * mergeStep} finds them. The staging directory and the schema are prepared by {@code exportStep}
 * before the partitions start.
 */
final class ExportTasklet implements Tasklet, ItemStream, StepExecutionListener {

  private final JobRuntime runtime;
  private ExportOptions options;
  private ExportPartition partition;
  private Path staging;
  private DocumentItemReader reader;
  private int initialCapacity;
  private Progress progress;
  private SchemaSink sink;
  private RejectsWriter rejects;
  private long exported;
  private long rejectsLength;

  ExportTasklet(JobRuntime runtime) {
    this.runtime = runtime;
  }

  /**
   * Reads this run's options from the job parameters (on a restart, the failed run's) and prepares
   * the reader. Runs before {@link #open}.
   */
  @Override
  public void beforeStep(StepExecution stepExecution) {
    options = ExportOptions.from(stepExecution.getJobParameters());
    partition =
        options.partitioned() ? ExportPartition.from(stepExecution.getExecutionContext()) : null;
    staging = partition == null ? options.staging() : partition.staging(options);
    MongoCollection<RawBsonDocument> collection = runtime.collection(options);
    BsonDocument query = BsonDocument.parse(options.query());
    reader =
        new DocumentItemReader(
            collection,
            query,
            partition == null ? IdRange.ALL : partition.range(),
            new MongoDocumentCursor.Settings(options.batchSize(), 5, Duration.ofSeconds(1)));
    CollectionStats stats = CollectionStats.estimate(collection);
    int parts = options.partitions();
    initialCapacity = SchemaShardWriter.firstBufferFor(stats.size() / parts, options.shardSize());
    progress =
        new Progress(
            partition == null ? "exportStep" : ExportPartition.stepName(partition.index()),
            stats.count() / parts,
            runtime.progressInterval(),
            runtime.progress(),
            System::nanoTime);
  }

  @Override
  public void open(ExecutionContext ctx) {
    reader.open(ctx);
    boolean resuming = ctx.containsKey(JobState.WRITER_SHARDS);
    prepareDirectory(staging, !resuming);
    List<ShardFile> done =
        resuming ? JobState.shards(ctx.getString(JobState.WRITER_SHARDS)) : List.of();
    String counts = resuming ? ctx.getString(JobState.WRITER_COUNTS) : null;
    exported = ctx.getLong(JobState.WRITER_EXPORTED, 0L);
    rejectsLength = ctx.getLong(JobState.WRITER_REJECTS_LENGTH, 0L);
    SchemaFiles schema = schema(staging, resuming);
    sink =
        new SchemaSink(
            staging, schema.name(), schema.plan(), options, initialCapacity, done, counts);
    rejects = new RejectsWriter(staging, rejectsLength, ctx.getLong(JobState.WRITER_REJECTED, 0L));
    progress.resume(exported + rejects.count());
  }

  /**
   * The schema this export follows: on a fresh start, the user's file compiled (or the bundled one)
   * and staged beside the shards; on a restart, the one staged then (the user's file must still
   * hold the same).
   */
  private SchemaFiles schema(Path staging, boolean resuming) {
    if (partition != null) {
      // staged once for every partition by exportStep
      return SchemaFiles.staged(options.staging(), options.schemaName());
    }
    if (resuming) {
      String name = options.schemaName();
      if (!Files.exists(staging.resolve(name + SchemaFiles.BINARY_EXTENSION))) {
        throw new ArtifactException(
            "the staging directory of this export holds no "
                + name
                + SchemaFiles.BINARY_EXTENSION
                + " in "
                + staging
                + "; start a fresh export with --new-run");
      }
      SchemaFiles staged = SchemaFiles.staged(staging, name);
      staged.requireUnchanged(options.schema());
      return staged;
    }
    return stageSchema(options, staging);
  }

  /** Makes {@code dir} exist, emptied first when {@code fresh}. */
  static void prepareDirectory(Path dir, boolean fresh) {
    if (fresh) {
      clean(dir);
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new ArtifactException("cannot create " + dir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Compiles the export's schema (its file, or the jar's for the benchmarks), refusing what cannot
   * be mapped before anything is written, and stages it in {@code dir}.
   */
  static SchemaFiles stageSchema(ExportOptions options, Path dir) {
    SchemaFiles schema = SchemaFiles.forExport(options.schema());
    schema.plan();
    schema.stage(dir);
    return schema;
  }

  @Override
  public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
    long written = 0;
    try {
      RawDocument d;
      while ((d = reader.read()) != null) {
        contribution.incrementReadCount();
        progress.advance(1);
        SchemaShardWriter.Outcome added = sink.add(d);
        if (added instanceof SchemaShardWriter.Outcome.Exported e) {
          exported++;
          written++;
          if (e.shardDone()) {
            return commit(contribution, written, RepeatStatus.CONTINUABLE);
          }
        } else {
          rejects.write(((SchemaShardWriter.Outcome.Rejected) added).reject());
          contribution.incrementFilterCount();
          if (options.maxRejects().exceededSoFar(rejects.count())) {
            throw new FlatdumpException(
                rejects.count()
                    + " documents rejected, more than --max-rejects "
                    + options.maxRejects()
                    + (partition == null ? "" : " in partition " + partition.index())
                    + "; nothing is published; see "
                    + staging.resolve(RejectsWriter.FILE_NAME));
          }
        }
      }
      if (partition == null) {
        // a partition's share is judged with the others', by mergeStep
        requireAcceptableRejects(
            options.maxRejects(),
            exported,
            rejects.count(),
            "see " + staging.resolve(RejectsWriter.FILE_NAME));
      }
      sink.finish();
      progress.done();
      if (partition != null) {
        // mergeStep reads what update() saves in this step's context
        return commit(contribution, written, RepeatStatus.FINISHED);
      }
      JobState.handOverExport(
          chunkContext.getStepContext().getStepExecution().getJobExecution().getExecutionContext(),
          finalNames(sink.shards()),
          sink.total(),
          exported,
          rejects.count());
      return commit(contribution, written, RepeatStatus.FINISHED);
    } catch (AssertionError e) {
      // FlatBufferBuilder signals a buffer past 2 GiB with an AssertionError; never let it escape
      throw new FlatdumpException("FlatBuffers refused the shard: " + e.getMessage(), e);
    }
  }

  /**
   * Fails the export, once every document is read, when it rejected every one (and read at least
   * one: such an export must never become current) or more than {@code limit} allows of the
   * documents read.
   *
   * @param where where the rejects are, for the message
   */
  static void requireAcceptableRejects(
      RejectLimit limit, long exported, long rejected, String where) {
    long read = exported + rejected;
    if (read > 0 && exported == 0) {
      throw new FlatdumpException(
          "every document read was rejected ("
              + rejected
              + "): the schema does not fit this collection; nothing is published; "
              + where);
    }
    if (limit.exceeded(rejected, read)) {
      throw new FlatdumpException(
          String.format(
              java.util.Locale.ROOT,
              "%d of %d documents rejected (%.2f %%), more than --max-rejects %s; nothing is"
                  + " published; %s",
              rejected,
              read,
              100.0 * rejected / read,
              limit,
              where));
    }
  }

  private RepeatStatus commit(StepContribution contribution, long written, RepeatStatus status) {
    rejectsLength = rejects.checkpoint();
    contribution.incrementWriteCount(written);
    return status;
  }

  /**
   * A single shard is published as {@code BASE.fb} ({@code organizations.fb}, or the schema's
   * name); several keep their numbered names. Idempotent: if a crash lost the commit after the
   * rename, the restart finds it already done.
   */
  private List<ShardFile> finalNames(List<ShardFile> staged) {
    if (staged.size() != 1) {
      return staged;
    }
    ShardFile only = staged.get(0);
    String name = ShardFile.fileName(sink.baseName(), 0, 1);
    Path numbered = staging.resolve(only.fileName());
    Path single = staging.resolve(name);
    if (Files.exists(numbered) || !Files.exists(single)) {
      AtomicFiles.move(numbered, single);
    }
    return List.of(only.named(name));
  }

  @Override
  public void update(ExecutionContext ctx) {
    reader.update(ctx);
    ctx.putString(JobState.WRITER_SHARDS, JobState.shards(sink.shards()));
    ctx.putString(JobState.WRITER_COUNTS, sink.counts());
    ctx.putLong(JobState.WRITER_EXPORTED, exported);
    ctx.putLong(JobState.WRITER_REJECTED, rejects.count());
    ctx.putLong(JobState.WRITER_REJECTS_LENGTH, rejectsLength);
  }

  @Override
  public void close() {
    try {
      if (reader != null) {
        reader.close();
      }
    } finally {
      if (rejects != null) {
        rejects.close();
      }
    }
  }

  private static void clean(Path staging) {
    if (!Files.exists(staging)) {
      return;
    }
    try (Stream<Path> files = Files.walk(staging)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        if (!p.equals(staging)) {
          Files.delete(p);
        }
      }
    } catch (IOException e) {
      throw new ArtifactException("cannot clean " + staging + ": " + e.getMessage(), e);
    }
  }
}
