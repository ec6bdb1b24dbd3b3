package dev.flatdump.cli;

import com.mongodb.client.MongoClient;
import dev.flatdump.job.JobRuntime;
import dev.flatdump.job.PartitionWorker;
import dev.flatdump.job.RemotePartitions;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump worker}: runs the partitions of {@code export --remote} that a manager sends
 * through its broker, until stopped (SIGTERM or Ctrl-C).
 */
@Command(
    name = "worker",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs the partitions of export --remote until stopped.",
      "Takes partition requests from the manager's broker, runs each against the job repository"
          + " the manager uses, reading MongoDB with --uri and writing into the export's staging"
          + " directory under the manager's --out, which must be the same path here. Waits for"
          + " the broker when it is not up yet, and between exports."
    })
public final class WorkerCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Option(
      names = "--broker",
      paramLabel = "tcp://HOST:PORT",
      description = "The manager's broker (required).")
  private String broker;

  @Option(
      names = "--job-repository",
      paramLabel = "JDBC_URL",
      description = "The job repository the manager uses (required), e.g. jdbc:postgresql://...")
  private String jobRepository;

  @Option(
      names = "--uri",
      paramLabel = "URI",
      description = "MongoDB connection string (required); its password is never printed.")
  private String uri;

  @Option(
      names = OptionSources.JOB_FILE_OPTION,
      paramLabel = "FILE",
      description =
          "A .properties job file, such as the manager's: the worker takes broker, job-repository"
              + " and uri from it and leaves the export's keys to the manager. Precedence:"
              + " command line, then FLATDUMP_* environment variables, then the job file.")
  private java.nio.file.Path jobFile;

  @Option(
      names = "--threads",
      defaultValue = "2",
      paramLabel = "N",
      description =
          "Partitions run at once, at most "
              + PartitionWorker.MAX_THREADS
              + "; each holds a shard buffer and a read-ahead (default: ${DEFAULT-VALUE}).")
  private int threads;

  @Override
  public Integer call() throws InterruptedException {
    var missing = new java.util.ArrayList<String>();
    if (broker == null) {
      missing.add("--broker");
    }
    if (jobRepository == null) {
      missing.add("--job-repository");
    }
    if (uri == null || uri.isBlank()) {
      missing.add("--uri");
    }
    MongoTarget.requireNone(missing);
    ExportCommand.requireJdbcUrl(jobRepository);
    RemotePartitions.requireBroker(broker);
    if (threads < 1 || threads > PartitionWorker.MAX_THREADS) {
      throw new IllegalArgumentException(
          "--threads must be 1.." + PartitionWorker.MAX_THREADS + ", got " + threads);
    }
    PrintWriter err = spec.commandLine().getErr();
    CountDownLatch stopped = new CountDownLatch(1);
    try (MongoClient client = MongoTarget.connect(uri)) {
      var progress = new ProgressPrinter(err, false);
      var runtime = new JobRuntime(client, jobRepository, progress, Duration.ofSeconds(5));
      try (PartitionWorker worker =
          PartitionWorker.start(
              broker,
              runtime,
              threads,
              line -> {
                synchronized (err) {
                  err.println(line);
                  err.flush();
                }
              })) {
        Runtime.getRuntime()
            .addShutdownHook(new Thread(stopped::countDown, "flatdump-worker-stop"));
        err.println(
            "flatdump worker: waiting for partitions from " + broker + ", " + threads + " at once");
        err.flush();
        stopped.await();
      }
    }
    return 0;
  }
}
