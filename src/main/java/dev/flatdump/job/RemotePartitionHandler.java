package dev.flatdump.job;

import dev.flatdump.FlatdumpException;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.partition.support.AbstractPartitionHandler;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepExecution;

/**
 * The manager's side of remote partitioning: sends one Spring Batch {@code StepExecutionRequest}
 * (step name and step execution id; see {@link PartitionWorker}) per partition to the broker's
 * request queue, then follows the partitions in the shared job repository until each has ended, as
 * Spring Batch's {@code MessageChannelPartitionHandler} does when it polls the repository.
 *
 * <p>Unlike it, this one notices a worker that died: a partition whose worker sent no heartbeat for
 * the worker timeout is marked failed in the repository, named in the step's failure, and left for
 * a restart, which runs it again from its last checkpoint. Partitions no worker took yet may wait
 * in the queue as long as some partition is heard from; when none is, for the timeout, they fail
 * too ("no worker took it").
 */
final class RemotePartitionHandler extends AbstractPartitionHandler {

  private static final Duration POLL = Duration.ofMillis(250);

  private final ConnectionFactory connections;
  private final JobRepository repository;
  private final Duration timeout;

  RemotePartitionHandler(
      ConnectionFactory connections, JobRepository repository, int partitions, Duration timeout) {
    this.connections = connections;
    this.repository = repository;
    this.timeout = timeout;
    setGridSize(partitions);
  }

  @Override
  protected Set<StepExecution> doHandle(StepExecution manager, Set<StepExecution> partitions)
      throws Exception {
    if (partitions.isEmpty()) {
      return partitions;
    }
    long jobExecution = manager.getJobExecutionId();
    Map<Long, String> names = new TreeMap<>();
    for (StepExecution p : partitions) {
      names.put(p.getId(), p.getStepName());
    }
    try (Connection connection = connections.createConnection()) {
      Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      MessageConsumer heartbeats =
          session.createConsumer(
              session.createQueue(RemotePartitions.HEARTBEATS),
              RemotePartitions.JOB_EXECUTION + " = " + jobExecution);
      connection.start();
      try (MessageProducer requests =
          session.createProducer(session.createQueue(RemotePartitions.REQUESTS))) {
        for (StepExecution p : partitions) {
          TextMessage request =
              session.createTextMessage(ExportPartition.WORKER_STEP + "\n" + p.getId());
          request.setLongProperty(RemotePartitions.JOB_EXECUTION, jobExecution);
          request.setLongProperty(RemotePartitions.STEP_EXECUTION, p.getId());
          requests.send(request);
        }
      }
      try {
        return follow(names, heartbeats);
      } finally {
        refresh(partitions);
      }
    }
  }

  /**
   * Brings this process's copies of the partitions' step executions up to what the workers
   * recorded, for the step table the run prints.
   */
  private void refresh(Set<StepExecution> partitions) {
    for (StepExecution p : partitions) {
      StepExecution recorded = repository.getStepExecution(p.getId());
      if (recorded != null) {
        p.setStatus(recorded.getStatus());
        p.setExitStatus(recorded.getExitStatus());
        p.setReadCount(recorded.getReadCount());
        p.setWriteCount(recorded.getWriteCount());
        p.setFilterCount(recorded.getFilterCount());
        p.setStartTime(recorded.getStartTime());
        p.setEndTime(recorded.getEndTime());
        p.setVersion(recorded.getVersion());
      }
    }
  }

  private Set<StepExecution> follow(Map<Long, String> names, MessageConsumer heartbeats)
      throws JMSException, InterruptedException {
    long start = System.nanoTime();
    long lastAny = start;
    Map<Long, Long> lastSeen = new HashMap<>();
    Map<Long, StepExecution> ended = new TreeMap<>();
    Set<Long> silent = new LinkedHashSet<>();
    while (ended.size() + silent.size() < names.size()) {
      Message beat;
      while ((beat = heartbeats.receiveNoWait()) != null) {
        long now = System.nanoTime();
        lastSeen.put(beat.getLongProperty(RemotePartitions.STEP_EXECUTION), now);
        lastAny = now;
      }
      long now = System.nanoTime();
      for (long id : names.keySet()) {
        if (ended.containsKey(id) || silent.contains(id)) {
          continue;
        }
        StepExecution p = repository.getStepExecution(id);
        if (p != null && !p.getStatus().isRunning() && p.getStatus() != BatchStatus.STARTING) {
          ended.put(id, p);
          continue;
        }
        Long seen = lastSeen.get(id);
        long quietSince = seen != null ? seen : Math.max(start, lastAny);
        if (now - quietSince > timeout.toNanos()) {
          silent.add(id);
          fail(p, seen != null);
        }
      }
      Thread.sleep(POLL.toMillis());
    }
    if (!silent.isEmpty()
        || ended.values().stream().anyMatch(p -> p.getStatus().isUnsuccessful())) {
      throw new FlatdumpException(failures(names, ended, silent));
    }
    return new LinkedHashSet<>(ended.values());
  }

  /** Records in the repository that the partition's worker is gone, so that a restart reruns it. */
  private void fail(StepExecution p, boolean started) {
    if (p == null) {
      return;
    }
    p.setStatus(BatchStatus.FAILED);
    p.setExitStatus(ExitStatus.FAILED.addExitDescription(silence(started)));
    p.setEndTime(LocalDateTime.now());
    repository.update(p);
  }

  private String silence(boolean started) {
    return started
        ? "its worker stopped answering: no heartbeat for " + timeout.toSeconds() + " s"
        : "no worker took it within " + timeout.toSeconds() + " s";
  }

  private String failures(
      Map<Long, String> names, Map<Long, StepExecution> ended, Set<Long> silent) {
    List<String> why = new ArrayList<>();
    for (long id : silent) {
      StepExecution p = repository.getStepExecution(id);
      why.add(names.get(id) + ": " + (p == null ? "lost" : p.getExitStatus().getExitDescription()));
    }
    for (StepExecution p : ended.values()) {
      if (p.getStatus().isUnsuccessful()) {
        String description = p.getExitStatus().getExitDescription();
        why.add(
            p.getStepName()
                + ": "
                + p.getStatus()
                + (description.isBlank() ? "" : ": " + firstLine(description)));
      }
    }
    return why.size()
        + " of "
        + names.size()
        + " partitions did not complete: "
        + String.join("; ", why);
  }

  private static String firstLine(String text) {
    int nl = text.indexOf('\n');
    return nl < 0 ? text : text.substring(0, nl);
  }
}
