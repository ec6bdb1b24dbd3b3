package dev.flatdump.job;

import com.mongodb.client.MongoClient;
import dev.flatdump.artifact.compress.Compression;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a job run gets from its launcher besides its parameters: the MongoDB client (which holds the
 * credentials, so they never reach the job repository), the job repository's JDBC URL, a sink for
 * progress lines, and how many threads may compress. None of them changes what the job writes, so
 * none is a job parameter: a restart may run with others.
 *
 * @param mongo the client; the launcher closes it after the run
 * @param jobRepositoryUrl a JDBC URL
 * @param progress receives human-readable progress lines; must be thread-safe
 * @param progressInterval at most one progress line per interval
 * @param compressThreads threads that may compress at once (compressed copies, report baselines)
 * @param remote how partitions reach worker processes, or null to run them in this one
 */
public record JobRuntime(
    MongoClient mongo,
    String jobRepositoryUrl,
    Consumer<String> progress,
    Duration progressInterval,
    int compressThreads,
    RemotePartitions remote) {
  public JobRuntime {
    Objects.requireNonNull(mongo, "mongo");
    Objects.requireNonNull(jobRepositoryUrl, "jobRepositoryUrl");
    Objects.requireNonNull(progress, "progress");
    Objects.requireNonNull(progressInterval, "progressInterval");
    if (progressInterval.isNegative()) {
      throw new IllegalArgumentException("progressInterval must be >= 0, got " + progressInterval);
    }
    Compression.requireThreads(compressThreads);
  }

  /** With {@link Compression#defaultThreads()} threads to compress. */
  public JobRuntime(
      MongoClient mongo,
      String jobRepositoryUrl,
      Consumer<String> progress,
      Duration progressInterval) {
    this(mongo, jobRepositoryUrl, progress, progressInterval, Compression.defaultThreads());
  }

  /** Partitions, if any, in this process. */
  public JobRuntime(
      MongoClient mongo,
      String jobRepositoryUrl,
      Consumer<String> progress,
      Duration progressInterval,
      int compressThreads) {
    this(mongo, jobRepositoryUrl, progress, progressInterval, compressThreads, null);
  }

  /** The export's collection, read as raw BSON. */
  com.mongodb.client.MongoCollection<org.bson.RawBsonDocument> collection(ExportOptions options) {
    return mongo
        .getDatabase(options.database())
        .getCollection(options.collection(), org.bson.RawBsonDocument.class);
  }
}
