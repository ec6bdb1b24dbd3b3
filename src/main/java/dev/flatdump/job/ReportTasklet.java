package dev.flatdump.job;

import com.mongodb.client.MongoCollection;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.ShardFile;
import dev.flatdump.artifact.read.UnionCounts;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.report.Baseline;
import dev.flatdump.report.BaselineMeasurement;
import dev.flatdump.report.BaselineSize;
import dev.flatdump.report.ReportWriter;
import dev.flatdump.report.SchemaBaselines;
import dev.flatdump.report.SizeReport;
import dev.flatdump.source.CollectionStats;
import dev.flatdump.source.IdOrderedFind;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * {@code reportStep}: reads MongoDB's own figures ({@code $collStats}, after {@code {fsync: 1}}
 * only with {@code --fsync-source}), measures the {@code --compare} baselines from the staged
 * shards and writes the size report into the staging directory. Publishing is {@code
 * publishStep}'s: until then the staged shards are all here, so a rerun of this step finds what it
 * measures.
 */
final class ReportTasklet implements Tasklet {

  private final JobRuntime runtime;

  ReportTasklet(JobRuntime runtime) {
    this.runtime = runtime;
  }

  @Override
  public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
    JobExecution job = chunkContext.getStepContext().getStepExecution().getJobExecution();
    ExportOptions options = ExportOptions.from(job.getJobParameters());
    var jobCtx = job.getExecutionContext();
    List<ShardFile> shards = JobState.shards(jobCtx.getString(JobState.SHARDS));
    List<ArtifactFile> files = JobState.files(jobCtx.getString(JobState.FILES));
    SizeReport.Dedup dedup =
        SizeReport.Dedup.of(JobState.counts(jobCtx.getString(JobState.ENCODE_COUNTS)));
    dedup = dedup.withUnions(unionCounts(options, shards));
    long exported = jobCtx.getLong(JobState.EXPORTED);
    long rejected = jobCtx.getLong(JobState.REJECTED);
    Path staging = options.staging();

    MongoCollection<RawBsonDocument> collection = runtime.collection(options);
    CollectionStats mongo =
        options.fsyncSource()
            ? CollectionStats.read(runtime.mongo(), collection)
            : CollectionStats.estimate(collection);
    List<BaselineSize> baselines = List.of();
    if (!options.compare().isEmpty()) {
      runtime.progress().accept("reportStep: measuring baselines " + options.compare());
      baselines = measureBaselines(options, collection, shards, runtime.compressThreads());
    }

    Instant started = instant(job.getStartTime());
    Instant now = Instant.now();
    SizeReport report =
        new SizeReport(
            SizeReport.Source.of(options.database(), options.collection(), options.query(), mongo),
            SizeReport.Artifact.dataFiles(files),
            baselines,
            dedup,
            new SizeReport.Records(exported + rejected, exported, rejected),
            steps(job, now),
            docsPerSecond(job, exported),
            peakHeapBytes(),
            started,
            now.isBefore(started) ? started : now,
            new SizeReport.Options(
                options.dedup().toString(),
                options.compress().isEmpty() ? "none" : String.join(",", options.compress()),
                options.shardSize()));
    ReportWriter writer = new ReportWriter();
    List<ArtifactFile> reports =
        writer.writeAll(report, staging).stream().map(ReportWriter::listed).toList();
    jobCtx.putString(JobState.REPORT_FILES, JobState.files(reports));
    jobCtx.putString(JobState.REPORT_SUMMARY, writer.summary(report));
    return RepeatStatus.FINISHED;
  }

  /**
   * Per union, how many of the staged shards' values went to each member ({@code UnionCounts}); a
   * schema without unions reads nothing.
   */
  private static Map<String, Map<String, Long>> unionCounts(
      ExportOptions options, List<ShardFile> shards) {
    SchemaPlan plan = SchemaFiles.staged(options.staging(), options.schemaName()).plan();
    Map<String, Map<String, Long>> counts = Map.of();
    if (plan.enums().stream().noneMatch(dev.flatdump.encode.plan.EnumPlan::union)) {
      return counts;
    }
    for (ShardFile shard : shards) {
      counts = UnionCounts.plus(counts, UnionCounts.of(plan, shard.map(options.staging())));
    }
    return counts;
  }

  /**
   * The baselines: the FlatBuffers ones encode the source documents again (one more pass over the
   * collection, with the export's query, in {@code _id} order, in batches of the export's size);
   * JSON lines and protobuf come from the staged shards.
   */
  private List<BaselineSize> measureBaselines(
      ExportOptions options,
      MongoCollection<RawBsonDocument> collection,
      List<ShardFile> shards,
      int threads) {
    Path staging = options.staging();
    SchemaPlan plan = SchemaFiles.staged(staging, options.schemaName()).plan();
    try (SchemaBaselines sizer =
        new SchemaBaselines(
            plan,
            Baseline.parse(String.join(",", options.compare())),
            options.gzip(threads),
            options.zstd(threads),
            options.shardSize())) {
      return BaselineMeasurement.measure(
          sizer,
          () -> {
            runtime.progress().accept("reportStep: reading the collection again for the baselines");
            return IdOrderedFind.of(BsonDocument.parse(options.query()))
                .withBatchSize(options.batchSize())
                .documents(collection);
          },
          () -> shards.stream().map(s -> s.map(staging)));
    }
  }

  private static List<SizeReport.Step> steps(JobExecution job, Instant now) {
    List<SizeReport.Step> steps = new ArrayList<>();
    for (StepExecution s : job.getStepExecutions()) {
      if (s.getStartTime() == null) {
        continue;
      }
      Instant start = instant(s.getStartTime());
      Instant end = s.getEndTime() == null ? now : instant(s.getEndTime());
      steps.add(
          new SizeReport.Step(
              s.getStepName(), Math.max(0, end.toEpochMilli() - start.toEpochMilli())));
    }
    return steps;
  }

  private static double docsPerSecond(JobExecution job, long exported) {
    for (StepExecution s : job.getStepExecutions()) {
      if (s.getStepName().equals("exportStep")
          && s.getStartTime() != null
          && s.getEndTime() != null) {
        long ms = instant(s.getEndTime()).toEpochMilli() - instant(s.getStartTime()).toEpochMilli();
        return ms <= 0 ? 0.0 : s.getWriteCount() * 1000.0 / ms;
      }
    }
    return 0.0; // the export ran in an earlier execution: no honest rate for this one
  }

  /** Sum of the heap pools' peaks since the JVM started. */
  static long peakHeapBytes() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }

  private static Instant instant(LocalDateTime t) {
    return t == null ? Instant.now() : t.atZone(ZoneId.systemDefault()).toInstant();
  }
}
