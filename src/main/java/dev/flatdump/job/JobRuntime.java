package dev.flatdump.job;

import com.mongodb.client.MongoClient;
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
 */
public record JobRuntime(MongoClient mongo, String jobRepositoryUrl, Consumer<String> progress) {
  public JobRuntime {
    Objects.requireNonNull(mongo, "mongo");
    Objects.requireNonNull(jobRepositoryUrl, "jobRepositoryUrl");
    Objects.requireNonNull(progress, "progress");
  }
}
