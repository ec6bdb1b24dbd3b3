package dev.flatdump.job;

import dev.flatdump.FlatdumpException;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.StepLocator;
import org.springframework.batch.integration.partition.StepExecutionRequest;
import org.springframework.batch.integration.partition.StepExecutionRequestHandler;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jms.listener.DefaultMessageListenerContainer;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * {@code flatdump worker}: takes partition requests from the broker and runs each with Spring
 * Batch's {@link StepExecutionRequestHandler}, against the job repository the manager shares,
 * writing into the export's staging directory (which must be the same path on every machine). Runs
 * until stopped; several requests at once, up to {@code threads}.
 *
 * <p>A request is acknowledged as it is taken, so that the broker never hands it to a second worker
 * while the first may still be writing: a worker that dies leaves its partition to the manager's
 * heartbeat timeout and a restart. While it runs a partition, the worker sends a heartbeat every
 * {@link RemotePartitions#HEARTBEAT}.
 */
public final class PartitionWorker implements AutoCloseable {

  /**
   * The most partitions a worker runs at once: as many as the job repository's connection pool
   * serves, each running partition holding a connection through each of its chunks.
   */
  public static final int MAX_THREADS = PartitionedExport.MAX_LOCAL_THREADS;

  private final AnnotationConfigApplicationContext context;
  private final DefaultMessageListenerContainer listener;
  private final ScheduledExecutorService beats;

  private PartitionWorker(
      AnnotationConfigApplicationContext context,
      DefaultMessageListenerContainer listener,
      ScheduledExecutorService beats) {
    this.context = context;
    this.listener = listener;
    this.beats = beats;
  }

  /**
   * Starts a worker: connects to the job repository at once (and fails if it cannot), and to the
   * broker whenever it is there.
   *
   * @param broker {@code tcp://HOST:PORT}
   * @param threads partitions run at once
   * @param log receives a line as each partition starts and ends
   */
  public static PartitionWorker start(
      String broker, JobRuntime runtime, int threads, Consumer<String> log) {
    RemotePartitions.requireBroker(broker);
    if (threads < 1 || threads > MAX_THREADS) {
      throw new IllegalArgumentException("threads must be 1.." + MAX_THREADS + ", got " + threads);
    }
    AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext();
    try {
      ctx.getBeanFactory().registerSingleton("jobRuntime", runtime);
      ctx.register(WorkerConfiguration.class);
      ctx.refresh();
      ctx.registerShutdownHook();
    } catch (RuntimeException e) {
      ctx.close();
      throw e;
    }
    ConnectionFactory connections = RemotePartitions.connectionFactory(broker);
    ScheduledExecutorService beats =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "flatdump-heartbeat");
              t.setDaemon(true);
              return t;
            });
    DefaultMessageListenerContainer listener = new DefaultMessageListenerContainer();
    try {
      JobRepository repository = ctx.getBean(JobRepository.class);
      Step worker = ctx.getBean("exportPartition", Step.class);
      StepExecutionRequestHandler handler = new StepExecutionRequestHandler();
      handler.setJobRepository(repository);
      handler.setStepLocator(new OneStep(worker));
      Heartbeats heartbeats = new Heartbeats(connections);
      listener.setConnectionFactory(connections);
      listener.setDestinationName(RemotePartitions.REQUESTS);
      listener.setSessionAcknowledgeMode(Session.CLIENT_ACKNOWLEDGE);
      listener.setConcurrentConsumers(threads);
      listener.setMaxConcurrentConsumers(threads);
      // one message per consumer at a time: a busy worker leaves the other requests to others
      listener.setMaxMessagesPerTask(1);
      // waiting for a broker that is not up (between exports): retry soon, then once a minute
      var backOff = new org.springframework.util.backoff.ExponentialBackOff(1000, 2);
      backOff.setMaxInterval(60_000);
      listener.setBackOff(backOff);
      listener.setMessageListener(
          (jakarta.jms.MessageListener) m -> run(m, repository, handler, heartbeats, beats, log));
      listener.afterPropertiesSet();
      listener.start();
      return new PartitionWorker(ctx, listener, beats);
    } catch (RuntimeException e) {
      listener.shutdown();
      beats.shutdownNow();
      ctx.close();
      throw e;
    }
  }

  private static void run(
      Message message,
      JobRepository repository,
      StepExecutionRequestHandler handler,
      Heartbeats heartbeats,
      ScheduledExecutorService beats,
      Consumer<String> log) {
    long jobExecution;
    long stepExecution;
    String stepName;
    try {
      message.acknowledge(); // taken: never handed to a second worker
      jobExecution = message.getLongProperty(RemotePartitions.JOB_EXECUTION);
      stepExecution = message.getLongProperty(RemotePartitions.STEP_EXECUTION);
      stepName = ((TextMessage) message).getText().split("\n", 2)[0];
    } catch (JMSException | RuntimeException e) {
      log.accept("flatdump worker: ignoring a request that cannot be read: " + e);
      return;
    }
    StepExecution current = repository.getStepExecution(stepExecution);
    if (current == null
        || (current.getStatus() != BatchStatus.STARTING
            && current.getStatus() != BatchStatus.STARTED)) {
      log.accept(
          "flatdump worker: skipping step execution "
              + stepExecution
              + (current == null ? ": not in the job repository" : ": " + current.getStatus()));
      return;
    }
    String name = current.getStepName();
    log.accept("flatdump worker: " + name + " started");
    var beat =
        beats.scheduleAtFixedRate(
            () -> heartbeats.send(jobExecution, stepExecution),
            0,
            RemotePartitions.HEARTBEAT.toMillis(),
            TimeUnit.MILLISECONDS);
    try {
      StepExecution done = handler.handle(new StepExecutionRequest(stepName, stepExecution));
      log.accept(
          "flatdump worker: "
              + name
              + " "
              + done.getStatus()
              + (done.getStatus() == BatchStatus.COMPLETED
                  ? ", " + done.getWriteCount() + " records"
                  : ": "
                      + done.getExitStatus().getExitDescription().lines().findFirst().orElse("")));
    } catch (RuntimeException e) {
      log.accept("flatdump worker: " + name + " failed: " + FlatdumpException.describe(e));
    } finally {
      beat.cancel(false);
    }
  }

  @Override
  public void close() {
    try {
      listener.shutdown();
    } finally {
      beats.shutdownNow();
      context.close();
    }
  }

  /** Sends heartbeats on a session of their own, one at a time. */
  private static final class Heartbeats {
    private final ConnectionFactory connections;
    private Connection connection;
    private Session session;
    private MessageProducer producer;

    Heartbeats(ConnectionFactory connections) {
      this.connections = connections;
    }

    synchronized void send(long jobExecution, long stepExecution) {
      try {
        if (producer == null) {
          connection = connections.createConnection();
          session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
          producer = session.createProducer(session.createQueue(RemotePartitions.HEARTBEATS));
          producer.setDeliveryMode(jakarta.jms.DeliveryMode.NON_PERSISTENT);
          producer.setTimeToLive(60_000);
        }
        Message beat = session.createMessage();
        beat.setLongProperty(RemotePartitions.JOB_EXECUTION, jobExecution);
        beat.setLongProperty(RemotePartitions.STEP_EXECUTION, stepExecution);
        producer.send(beat);
      } catch (JMSException | RuntimeException e) {
        // the broker is away: the manager will notice the silence; try a new connection next time
        producer = null;
        try {
          if (connection != null) {
            connection.close();
          }
        } catch (JMSException ignored) {
          // already broken
        }
      }
    }
  }

  /** Finds the worker step, the only one a worker runs. */
  private record OneStep(Step step) implements StepLocator {
    @Override
    public Step getStep(String name) {
      return step.getName().equals(name) ? step : null;
    }
  }

  /** The job repository and the worker step, without the job. */
  @Configuration(proxyBeanMethods = false)
  @Import(BatchInfrastructureConfiguration.class)
  static class WorkerConfiguration {
    @Bean
    Step exportPartition(
        JobRepository jobRepository, PlatformTransactionManager tm, JobRuntime runtime) {
      return PartitionedExport.worker(jobRepository, tm, runtime, new LastExecution());
    }
  }
}
