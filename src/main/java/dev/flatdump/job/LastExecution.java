package dev.flatdump.job;

import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.StepExecution;

/**
 * Keeps the last step execution in memory as it ends, before the job repository records it, so that
 * the launcher can still say which step failed and why when the repository itself cannot be written
 * (a full disk that holds it too).
 */
final class LastExecution implements StepExecutionListener {

  private volatile StepExecution lastStep;

  @Override
  public void beforeStep(StepExecution stepExecution) {
    lastStep = stepExecution;
  }

  /** The step that ran last, or null. */
  StepExecution lastStep() {
    return lastStep;
  }
}
