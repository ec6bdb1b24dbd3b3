package dev.flatdump.job;

import com.mongodb.client.MongoCollection;
import dev.flatdump.source.CollectionStats;
import dev.flatdump.source.MongoOrgSource;
import java.time.Duration;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
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
 * {@code organizationsExportJob}: {@code exportStep} → {@code compressStep} → {@code reportStep}.
 * Only composes builders; the work is in the tasklets and the plain-Java stages they call.
 *
 * <p>One context runs one job execution, so the beans are built from the run's {@link
 * ExportOptions} directly; the same options are the job's parameters, which is what makes a rerun a
 * restart.
 */
@Configuration(proxyBeanMethods = false)
@Import(BatchInfrastructureConfiguration.class)
class OrganizationsExportJobConfiguration {

  static final String JOB_NAME = "organizationsExportJob";

  @Bean
  Job organizationsExportJob(
      JobRepository jobRepository, Step exportStep, Step compressStep, Step reportStep) {
    return new JobBuilder(JOB_NAME, jobRepository)
        .start(exportStep)
        .next(compressStep)
        .next(reportStep)
        .build();
  }

  @Bean
  Step exportStep(
      JobRepository jobRepository,
      PlatformTransactionManager tm,
      ExportOptions options,
      JobRuntime runtime) {
    MongoCollection<RawBsonDocument> collection =
        runtime
            .mongo()
            .getDatabase(options.database())
            .getCollection(options.collection(), RawBsonDocument.class);
    var reader =
        new OrgItemReader(
            collection,
            BsonDocument.parse(options.query()),
            new MongoOrgSource.Settings(options.batchSize(), 5, Duration.ofSeconds(1)));
    CollectionStats stats = CollectionStats.read(runtime.mongo(), collection);
    var progress =
        new Progress(
            "exportStep",
            stats.count(),
            Duration.ofSeconds(5),
            runtime.progress(),
            System::nanoTime);
    var tasklet = new ExportTasklet(reader, options, initialCapacity(stats, options), progress);
    return new StepBuilder("exportStep", jobRepository)
        .tasklet(tasklet, tm).stream(reader).stream(tasklet).build();
  }

  @Bean
  Step compressStep(
      JobRepository jobRepository, PlatformTransactionManager tm, ExportOptions options) {
    return new StepBuilder("compressStep", jobRepository)
        .tasklet(new CompressTasklet(options), tm)
        .build();
  }

  @Bean
  Step reportStep(
      JobRepository jobRepository,
      PlatformTransactionManager tm,
      ExportOptions options,
      JobRuntime runtime) {
    return new StepBuilder("reportStep", jobRepository)
        .tasklet(new ReportTasklet(options, runtime), tm)
        .build();
  }

  /**
   * Pre-sizes the first buffer from the collection's BSON size: de-duplicated FlatBuffers come to a
   * fraction of it, so start at a quarter (at least 1 MiB, at most one shard) and let the builder
   * double if that is not enough.
   */
  static int initialCapacity(CollectionStats stats, ExportOptions options) {
    long guess = Math.max(1L << 20, stats.size() / 4);
    return (int) Math.min(guess, options.shardSize());
  }
}
