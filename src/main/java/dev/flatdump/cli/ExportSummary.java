package dev.flatdump.cli;

import dev.flatdump.FlatdumpException;
import dev.flatdump.job.ExportResults;
import dev.flatdump.source.ConnectionStrings;
import java.util.stream.Collectors;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.step.StepExecution;

/** What {@code export} prints when the job ends. */
final class ExportSummary {

  private ExportSummary() {}

  static String of(JobExecution execution) {
    return ExportResults.summary(execution);
  }

  /** The run date job parameter of an execution. */
  static String runDate(JobExecution execution) {
    return "run date " + execution.getJobParameters().getString("runDate");
  }

  /** One row per step: status, documents read, written, rejected (filtered), and time. */
  static String steps(JobExecution execution) {
    if (execution == null) {
      return "";
    }
    int width =
        Math.max(
            13,
            execution.getStepExecutions().stream()
                .mapToInt(s -> s.getStepName().length())
                .max()
                .orElse(0));
    StringBuilder sb =
        new StringBuilder(
            String.format(
                java.util.Locale.ROOT,
                "%-" + width + "s %-10s %12s %12s %10s %10s%n",
                "step",
                "status",
                "read",
                "written",
                "rejected",
                "time"));
    for (StepExecution s : execution.getStepExecutions()) {
      long ms =
          s.getStartTime() == null || s.getEndTime() == null
              ? 0
              : java.time.Duration.between(s.getStartTime(), s.getEndTime()).toMillis();
      sb.append(
          String.format(
              java.util.Locale.ROOT,
              "%-" + width + "s %-10s %,12d %,12d %,10d %9.1fs%n",
              s.getStepName(),
              s.getStatus(),
              s.getReadCount(),
              s.getWriteCount(),
              s.getFilterCount(),
              ms / 1000.0));
    }
    return sb.toString().stripTrailing();
  }

  /** The failed step and the root causes, secrets masked. */
  static String failure(JobExecution execution) {
    if (execution == null) {
      return "no job execution";
    }
    String steps =
        execution.getStepExecutions().stream()
            .filter(s -> s.getStatus().isUnsuccessful())
            .map(StepExecution::getStepName)
            .collect(Collectors.joining(", "));
    String causes =
        execution.getAllFailureExceptions().stream()
            .map(FlatdumpException::describe)
            .distinct()
            .collect(Collectors.joining("; "));
    return (steps.isEmpty() ? "" : steps + ": ") + ConnectionStrings.mask(causes);
  }
}
