package dev.flatdump.job;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.write.LocalPublisher;
import dev.flatdump.report.ReportWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * {@code publishStep}: copies the schema into the staged export, writes {@code manifest.json} and
 * publishes the whole export with one atomic switch ({@link LocalPublisher}) as {@code
 * OUT/exports/RUNDATE-INSTANCE}, then keeps the newest {@code --keep} exports. Repeatable: after a
 * crash anywhere in it, the rerun completes the same publish.
 */
final class PublishTasklet implements Tasklet {

  @Override
  public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
    JobExecution job = chunkContext.getStepContext().getStepExecution().getJobExecution();
    ExportOptions options = ExportOptions.from(job.getJobParameters());
    var jobCtx = job.getExecutionContext();
    Path staging = options.staging();
    List<ArtifactFile> files = new ArrayList<>(JobState.files(jobCtx.getString(JobState.FILES)));
    files.addAll(JobState.files(jobCtx.getString(JobState.REPORT_FILES)));
    Path dir =
        Files.isDirectory(staging)
            ? staging
            : OutputLayout.exportDir(options.out(), exportName(options, job));
    Manifest.Schema schemaInfo = schema(dir, options.schemaName(), files);
    long exported = jobCtx.getLong(JobState.EXPORTED);
    long rejected = jobCtx.getLong(JobState.REJECTED);
    Instant started =
        job.getStartTime() == null
            ? Instant.now()
            : job.getStartTime().atZone(ZoneId.systemDefault()).toInstant();
    Manifest manifest =
        new Manifest(
            Manifest.FORMAT_VERSION,
            schemaInfo,
            new Manifest.Source(options.database(), options.collection(), options.query()),
            new Manifest.Options(
                options.dedup().toString(),
                options.compress(),
                options.shardSize(),
                options.strict(),
                options.partitions()),
            new Manifest.Counts(exported + rejected, exported, rejected),
            files,
            started,
            Instant.now());
    String name = exportName(options, job);
    Path exportDir = LocalPublisher.publish(staging, options.out(), name, manifest, options.keep());
    jobCtx.putString(JobState.EXPORT_DIR, exportDir.toString());
    jobCtx.putString(JobState.REPORT_HTML, exportDir.resolve(ReportWriter.HTML_FILE).toString());
    return RepeatStatus.FINISHED;
  }

  /**
   * The export's schema, staged by {@code exportStep} beside the shards: lists its files and
   * describes it. After a crash past the rename the staging directory is gone, and the files are
   * read from the published export, which the rerun's {@link LocalPublisher#publish} then
   * completes.
   */
  private static Manifest.Schema schema(Path dir, String name, List<ArtifactFile> files) {
    SchemaFiles schema = SchemaFiles.staged(dir, name);
    ArtifactFile binary = ArtifactFile.of(dir.resolve(schema.binaryFile()), "bfbs", null, null);
    ArtifactFile main = binary;
    if (schema.textFile() != null) {
      main = ArtifactFile.of(dir.resolve(schema.textFile()), "fbs", null, null);
      files.add(main);
    }
    files.add(binary);
    return new Manifest.Schema(
        main.name(),
        main.sha256(),
        schema.plan().fileIdentifier(),
        binary.name(),
        Manifest.Lookup.of(schema.plan()));
  }

  /**
   * The export's directory name: its run date and job instance, the same for every execution of the
   * instance, so that a restart publishes into the same directory.
   */
  static String exportName(ExportOptions options, JobExecution job) {
    return options.runDate() + "-" + job.getJobInstance().getInstanceId();
  }
}
