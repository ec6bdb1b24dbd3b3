package dev.flatdump.job;

import dev.flatdump.FlatdumpException;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * How partitions reach worker processes: through an ActiveMQ Artemis broker at {@code broker}
 * ({@code tcp://HOST:PORT}), which the manager embeds and the workers connect to. Requests go to
 * the queue {@value #REQUESTS}; a worker running a partition sends a heartbeat to {@value
 * #HEARTBEATS} every {@link #HEARTBEAT}.
 *
 * @param broker where the broker listens, {@code tcp://HOST:PORT}
 * @param workerTimeout how long the manager waits for a sign of life from a partition's worker
 */
public record RemotePartitions(String broker, Duration workerTimeout) {

  static final String REQUESTS = "flatdump.partitions";
  static final String HEARTBEATS = "flatdump.heartbeats";
  static final Duration HEARTBEAT = Duration.ofSeconds(1);

  /** Message properties: which job execution and partition step execution a message is for. */
  static final String JOB_EXECUTION = "flatdumpJobExecution";

  static final String STEP_EXECUTION = "flatdumpStepExecution";

  public RemotePartitions {
    requireBroker(broker);
    Objects.requireNonNull(workerTimeout, "workerTimeout");
    if (workerTimeout.compareTo(HEARTBEAT.multipliedBy(3)) < 0) {
      throw new IllegalArgumentException(
          "the worker timeout must be at least 3 s (3 heartbeats), got " + workerTimeout);
    }
  }

  /** Checks that {@code broker} is {@code tcp://HOST:PORT}. */
  public static String requireBroker(String broker) {
    Objects.requireNonNull(broker, "broker");
    URI uri;
    try {
      uri = URI.create(broker);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--broker must be tcp://HOST:PORT, got " + broker, e);
    }
    if (!"tcp".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 1) {
      throw new IllegalArgumentException("--broker must be tcp://HOST:PORT, got " + broker);
    }
    return broker;
  }

  /**
   * A client connection factory for the broker that retries for ever: a worker may start before the
   * manager's broker, and outlives it between exports.
   */
  static ActiveMQConnectionFactory connectionFactory(String broker) {
    return new ActiveMQConnectionFactory(
        broker
            + "?reconnectAttempts=-1&retryInterval=1000&maxRetryInterval=5000"
            + "&retryIntervalMultiplier=1.5&clientFailureCheckPeriod=2000&connectionTTL=10000"
            // no prefetch: a busy worker leaves the waiting requests to the idle ones
            + "&consumerWindowSize=0");
  }

  /**
   * Starts a broker listening at {@link #broker}, in memory: nothing it holds outlives the manager,
   * whose restart sends again the requests of the partitions that did not complete.
   */
  EmbeddedActiveMQ startBroker() {
    var config =
        new ConfigurationImpl()
            .setPersistenceEnabled(false)
            .setSecurityEnabled(false)
            .setJMXManagementEnabled(false)
            .setConnectionTTLOverride(10_000);
    try {
      config.addAcceptorConfiguration("flatdump", broker);
      EmbeddedActiveMQ server = new EmbeddedActiveMQ().setConfiguration(config);
      server.start();
      return server;
    } catch (Exception e) {
      throw new FlatdumpException(
          "cannot start the broker at " + broker + ": " + FlatdumpException.describe(e), e);
    }
  }
}
