package dev.flatdump.job;

import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.listener.JobExecutionListener;

/**
 * Keeps the job execution in memory as it ends, before the job repository records it, so that the
 * launcher can still report why the job failed when the repository itself cannot be written.
 */
final class LastExecution implements JobExecutionListener {

  private volatile JobExecution last;

  @Override
  public void afterJob(JobExecution jobExecution) {
    last = jobExecution;
  }

  JobExecution get() {
    return last;
  }
}
