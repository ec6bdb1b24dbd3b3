package dev.flatdump.job;

import dev.flatdump.artifact.Manifest;
import dev.flatdump.publish.ArtifactUploader;
import java.nio.file.Path;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * {@code uploadStep}: uploads the published export to object storage under {@code
 * prefix/exports/NAME/} (data first, manifest last), then points {@code prefix/CURRENT} at it, when
 * {@code --upload} is given. Idempotent: a restart after a failed upload redoes only this step, and
 * objects already uploaded intact are skipped.
 */
final class UploadTasklet implements Tasklet {

  private final JobRuntime runtime;

  UploadTasklet(JobRuntime runtime) {
    this.runtime = runtime;
  }

  @Override
  public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
    var params = chunkContext.getStepContext().getStepExecution().getJobParameters();
    UploadOptions upload = UploadOptions.from(params);
    if (!upload.enabled()) {
      return RepeatStatus.FINISHED;
    }
    var jobCtx =
        chunkContext.getStepContext().getStepExecution().getJobExecution().getExecutionContext();
    Path exportDir = Path.of(jobCtx.getString(JobState.EXPORT_DIR));
    Manifest manifest = Manifest.read(exportDir.resolve(Manifest.FILE_NAME));
    try (var uploader = new ArtifactUploader(upload.settings(), runtime.progress())) {
      var objects =
          uploader.publish(
              exportDir, exportDir.getFileName().toString(), manifest, upload.location());
      contribution.incrementWriteCount(objects.stream().filter(o -> !o.skipped()).count());
    }
    return RepeatStatus.FINISHED;
  }
}
