package dev.flatdump.job;

import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * {@code exportJob}: {@code exportStep} → {@code mergeStep} → {@code compressStep} → {@code
 * reportStep} → {@code publishStep} → {@code uploadStep} (a no-op without {@code --upload}). Only
 * composes builders; the work is in the tasklets and the plain-Java stages they call.
 *
 * <p>Every step reads its {@link ExportOptions} from the job parameters, so a restart runs with the
 * failed run's options. The only run-time collaborator is the {@link JobRuntime} (MongoDB client,
 * progress sink), registered by {@link ExportLauncher}.
 */
@Configuration(proxyBeanMethods = false)
@Import(BatchInfrastructureConfiguration.class)
class ExportJobConfiguration {

  static final String JOB_NAME = "exportJob";

  @Bean
  Job exportJob(
      JobRepository jobRepository,
      Step exportStep,
      Step mergeStep,
      Step compressStep,
      Step reportStep,
      Step publishStep,
      Step uploadStep) {
    return new JobBuilder(JOB_NAME, jobRepository)
        .start(exportStep)
        .next(mergeStep)
        .next(compressStep)
        .next(reportStep)
        .next(publishStep)
        .next(uploadStep)
        .build();
  }

  @Bean
  LastExecution lastExecution() {
    return new LastExecution();
  }

  @Bean
  Step exportStep(
      JobRepository jobRepository,
      PlatformTransactionManager tm,
      JobRuntime runtime,
      LastExecution lastExecution) {
    var tasklet = new ExportTasklet(runtime);
    Step single =
        new StepBuilder(PartitionedExport.NAME, jobRepository)
            .tasklet(tasklet, tm).stream(tasklet).listener(tasklet).listener(lastExecution).build();
    Step worker = PartitionedExport.worker(jobRepository, tm, runtime, lastExecution);
    return new PartitionedExport(single, worker, jobRepository, runtime, lastExecution);
  }

  @Bean
  Step mergeStep(
      JobRepository jobRepository, PlatformTransactionManager tm, LastExecution lastExecution) {
    return new StepBuilder("mergeStep", jobRepository)
        .tasklet(new MergeTasklet(jobRepository), tm)
        .listener(lastExecution)
        .build();
  }

  @Bean
  Step compressStep(
      JobRepository jobRepository,
      PlatformTransactionManager tm,
      JobRuntime runtime,
      LastExecution lastExecution) {
    return new StepBuilder("compressStep", jobRepository)
        .tasklet(new CompressTasklet(runtime), tm)
        .listener(lastExecution)
        .build();
  }

  @Bean
  Step reportStep(
      JobRepository jobRepository,
      PlatformTransactionManager tm,
      JobRuntime runtime,
      LastExecution lastExecution) {
    return new StepBuilder("reportStep", jobRepository)
        .tasklet(new ReportTasklet(runtime), tm)
        .listener(lastExecution)
        .build();
  }

  @Bean
  Step publishStep(
      JobRepository jobRepository, PlatformTransactionManager tm, LastExecution lastExecution) {
    return new StepBuilder("publishStep", jobRepository)
        .tasklet(new PublishTasklet(), tm)
        .listener(lastExecution)
        .build();
  }

  @Bean
  Step uploadStep(
      JobRepository jobRepository,
      PlatformTransactionManager tm,
      JobRuntime runtime,
      LastExecution lastExecution) {
    return new StepBuilder("uploadStep", jobRepository)
        .tasklet(new UploadTasklet(runtime), tm)
        .listener(lastExecution)
        .build();
  }
}
