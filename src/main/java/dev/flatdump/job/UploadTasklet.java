package dev.flatdump.job;

import dev.flatdump.artifact.Manifest;
import dev.flatdump.publish.ArtifactUploader;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * {@code uploadStep}: uploads the published export to object storage (data first, manifest last),
 * when {@code --upload} is given. Idempotent: a restart after a failed upload redoes only this
 * step, and objects already uploaded intact are skipped.
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
    ExportOptions options = ExportOptions.from(params);
    Manifest manifest = Manifest.read(options.out().resolve(Manifest.FILE_NAME));
    try (var uploader = new ArtifactUploader(upload.settings(), runtime.progress())) {
      var objects = uploader.upload(options.out(), manifest, upload.location());
      contribution.incrementWriteCount(objects.stream().filter(o -> !o.skipped()).count());
    }
    return RepeatStatus.FINISHED;
  }
}
