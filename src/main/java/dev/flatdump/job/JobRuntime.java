package dev.flatdump.job;

import com.mongodb.client.MongoClient;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a job run gets from its launcher besides its parameters: the MongoDB client (which holds the
 * credentials, so they never reach the job repository), the job repository's JDBC URL and a sink
 * for progress lines.
 *
 * @param mongo the client; the launcher closes it after the run
 * @param jobRepositoryUrl a JDBC URL
 * @param progress receives human-readable progress lines; must be thread-safe
 * @param progressInterval at most one progress line per interval
 */
public record JobRuntime(
    MongoClient mongo,
    String jobRepositoryUrl,
    Consumer<String> progress,
    Duration progressInterval) {
  public JobRuntime {
    Objects.requireNonNull(mongo, "mongo");
    Objects.requireNonNull(jobRepositoryUrl, "jobRepositoryUrl");
    Objects.requireNonNull(progress, "progress");
    Objects.requireNonNull(progressInterval, "progressInterval");
    if (progressInterval.isNegative()) {
      throw new IllegalArgumentException("progressInterval must be >= 0, got " + progressInterval);
    }
  }
}
