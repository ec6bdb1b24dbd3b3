package dev.flatdump.job;

import com.mongodb.client.MongoClient;
import dev.flatdump.FlatdumpException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.function.Consumer;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.parameters.InvalidJobParametersException;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.launch.JobExecutionAlreadyRunningException;
import org.springframework.batch.core.launch.JobInstanceAlreadyCompleteException;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.launch.JobRestartException;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * Runs {@code exportJob} once, the way a CLI or a scheduler needs it: it holds an exclusive lock on
 * the output directory (a second, overlapping run fails at once and touches nothing), starts a new
 * job instance or restarts the failed one with the same parameters, and marks an execution left
 * {@code STARTED} by a killed process as failed so that it can restart.
 */
public final class ExportLauncher {

  /** How a launch ended. */
  public enum Outcome {
    COMPLETED,
    FAILED,
    ALREADY_COMPLETE,
    NOTHING_TO_RESTART
  }

  /** Which job instance to run. */
  public enum Mode {
    /** The instance named by the options: resumed if it failed, a no-op if it completed. */
    AUTO,
    /** The most recent failed run into this output directory, with its own options and run date. */
    RESTART
  }

  /**
   * @param outcome how it ended
   * @param execution the job execution, or null when none ran
   * @param restarted whether this run resumed an earlier failed one
   */
  public record Result(Outcome outcome, JobExecution execution, boolean restarted) {}

  private ExportLauncher() {}

  /** The default job repository: an H2 file database under the output directory. */
  public static String defaultJobRepositoryUrl(Path out) {
    return "jdbc:h2:file:"
        + out.toAbsolutePath().resolve(".flatdump").resolve("job-repository")
        // WRITE_DELAY=0: a checkpoint is on disk when its commit returns, not up to 500 ms later,
        // so a killed run resumes from its last commit
        + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0";
  }

  /**
   * Runs the export named by {@code options} ({@link Mode#AUTO}), with progress every 5 s.
   *
   * @param mongo the client; not closed here
   * @param jobRepositoryUrl a JDBC URL, see {@link #defaultJobRepositoryUrl}
   * @param progress receives progress lines
   */
  public static Result run(
      ExportOptions options,
      MongoClient mongo,
      String jobRepositoryUrl,
      Consumer<String> progress) {
    return run(
        options,
        Mode.AUTO,
        new JobRuntime(mongo, jobRepositoryUrl, progress, Duration.ofSeconds(5)));
  }

  /**
   * Runs the export.
   *
   * @param options this command's options; with {@link Mode#RESTART} only the output directory is
   *     used to find the run, which then runs with its own recorded options
   * @param runtime the MongoDB client (not closed here), job repository and progress sink
   */
  public static Result run(ExportOptions options, Mode mode, JobRuntime runtime) {
    return run(options, UploadOptions.NONE, mode, runtime);
  }

  /**
   * Runs the export and, when {@code upload} is enabled, uploads it. Upload options given here
   * replace those of a restarted run (they don't identify the job instance).
   */
  public static Result run(
      ExportOptions options, UploadOptions upload, Mode mode, JobRuntime runtime) {
    requireCollection(runtime.mongo(), options);
    Path control = options.out().resolve(".flatdump");
    try {
      Files.createDirectories(control);
    } catch (IOException e) {
      throw new FlatdumpException("cannot create " + control + ": " + e.getMessage(), e);
    }
    Path lockFile = control.resolve("lock");
    try (FileChannel ch =
            FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = tryLock(ch, options.out())) {
      return runLocked(options, upload, mode, runtime);
    } catch (IOException e) {
      throw new FlatdumpException("cannot lock " + lockFile + ": " + e.getMessage(), e);
    }
  }

  private static FileLock tryLock(FileChannel ch, Path out) throws IOException {
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      throw new FlatdumpException(
          "another flatdump run is exporting into " + out + "; not starting a second one");
    }
    return lock;
  }

  private static Result runLocked(
      ExportOptions options, UploadOptions upload, Mode mode, JobRuntime runtime) {
    if (runtime.remote() == null) {
      return runInContext(options, upload, mode, runtime);
    }
    var broker = runtime.remote().startBroker();
    try {
      return runInContext(options, upload, mode, runtime);
    } finally {
      try {
        broker.stop();
      } catch (Exception e) {
        runtime.progress().accept("flatdump: the broker did not stop cleanly: " + e);
      }
    }
  }

  private static Result runInContext(
      ExportOptions options, UploadOptions upload, Mode mode, JobRuntime runtime) {
    try (ConfigurableApplicationContext ctx = jobContext(runtime)) {
      JobRepository repository = ctx.getBean(JobRepository.class);
      JobOperator operator = ctx.getBean(JobOperator.class);
      Job job = ctx.getBean(Job.class);
      JobParameters params = options.toJobParameters();
      if (mode == Mode.RESTART) {
        JobExecution failed = lastFailed(repository, job.getName(), options);
        if (failed == null) {
          return new Result(Outcome.NOTHING_TO_RESTART, null, false);
        }
        params = failed.getJobParameters();
      }
      if (upload.enabled() || params.getParameter(UploadOptions.TARGET) == null) {
        params = upload.addTo(params);
      }
      JobExecution last = repository.getLastJobExecution(job.getName(), params);
      boolean restarted = last != null;
      if (last != null
          && (last.getStatus().isRunning() || last.getStatus() == BatchStatus.UNKNOWN)) {
        // We hold the output directory's lock, so whoever left it running is gone. UNKNOWN means
        // its end could not be recorded (a full disk): the last saved checkpoint still holds, and
        // everything after it is redone, so restarting from there is safe.
        markAbandonedAsFailed(repository, last);
      }
      JobExecution execution;
      try {
        execution = operator.start(job, params);
      } catch (RuntimeException e) {
        // The job ran but the job repository could not record how it ended (e.g. a full disk
        // holds it too): say which step failed and why, from what the listener kept in memory.
        throw new FlatdumpException(
            unrecorded(ctx.getBean(LastExecution.class).lastStep(), options, runtime, e), e);
      } catch (JobInstanceAlreadyCompleteException e) {
        return new Result(Outcome.ALREADY_COMPLETE, last, false);
      } catch (JobExecutionAlreadyRunningException
          | JobRestartException
          | InvalidJobParametersException e) {
        throw new FlatdumpException("cannot start " + job.getName() + ": " + e.getMessage(), e);
      }
      Outcome outcome =
          execution.getStatus() == BatchStatus.COMPLETED ? Outcome.COMPLETED : Outcome.FAILED;
      return new Result(outcome, execution, restarted);
    }
  }

  /**
   * The job's beans, in a plain application context: the job uses no auto-configuration and no
   * properties, and Spring Boot's application start-up (environment, logging system, listeners)
   * would cost every export start-up time for nothing. Like Spring Boot's, the context closes on
   * SIGTERM too (its shutdown hook), which closes the job repository.
   */
  private static ConfigurableApplicationContext jobContext(JobRuntime runtime) {
    AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext();
    try {
      ctx.getBeanFactory().registerSingleton("jobRuntime", runtime);
      ctx.register(ExportJobConfiguration.class);
      ctx.refresh();
      ctx.registerShutdownHook();
      return ctx;
    } catch (RuntimeException e) {
      ctx.close();
      throw e;
    }
  }

  private static String unrecorded(
      StepExecution step, ExportOptions options, JobRuntime runtime, RuntimeException e) {
    String repository =
        "the job repository ("
            + (runtime.jobRepositoryUrl().startsWith("jdbc:h2:file:")
                ? options.out().resolve(".flatdump")
                : "--job-repository")
            + ") could not be written: "
            + FlatdumpException.describe(e);
    if (step == null) {
      return repository;
    }
    String cause =
        step.getFailureExceptions().stream()
            .filter(t -> !(t instanceof org.springframework.transaction.TransactionException))
            .map(FlatdumpException::describe)
            .findFirst()
            .orElse(null);
    return "export failed: "
        + step.getStepName()
        + ": "
        + (cause == null ? repository : cause + "; and " + repository)
        + ". Fix it and run the same command again to resume from the last saved checkpoint";
  }

  /** The newest execution into this output directory, if it did not complete. */
  private static JobExecution lastFailed(
      JobRepository repository, String jobName, ExportOptions options) {
    JobExecution newest = null;
    for (var instance : repository.findJobInstances(jobName)) {
      JobExecution e = repository.getLastJobExecution(instance);
      if (e != null
          && options.out().toString().equals(e.getJobParameters().getString(ExportOptions.OUT))
          && (newest == null || e.getId() > newest.getId())) {
        newest = e;
      }
    }
    return newest == null || newest.getStatus() == BatchStatus.COMPLETED ? null : newest;
  }

  private static void markAbandonedAsFailed(JobRepository repository, JobExecution execution) {
    LocalDateTime now = LocalDateTime.now();
    for (StepExecution step : execution.getStepExecutions()) {
      if (step.getStatus().isRunning()) {
        step.setStatus(BatchStatus.FAILED);
        step.setExitStatus(ExitStatus.FAILED.addExitDescription("the process running it died"));
        step.setEndTime(now);
        repository.update(step);
      }
    }
    execution.setStatus(BatchStatus.FAILED);
    execution.setExitStatus(ExitStatus.FAILED.addExitDescription("the process running it died"));
    execution.setEndTime(now);
    repository.update(execution);
  }

  private static void requireCollection(MongoClient mongo, ExportOptions options) {
    boolean exists = false;
    for (String name : mongo.getDatabase(options.database()).listCollectionNames()) {
      if (name.equals(options.collection())) {
        exists = true;
        break;
      }
    }
    if (!exists) {
      throw new FlatdumpException(
          "collection " + options.database() + "." + options.collection() + " does not exist");
    }
  }
}
