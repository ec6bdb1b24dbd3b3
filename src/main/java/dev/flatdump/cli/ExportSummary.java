package dev.flatdump.cli;

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
            .map(ExportSummary::rootMessage)
            .distinct()
            .collect(Collectors.joining("; "));
    return (steps.isEmpty() ? "" : steps + ": ") + ConnectionStrings.mask(causes);
  }

  private static String rootMessage(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null
        && c.getCause() != c
        && !(c instanceof dev.flatdump.FlatdumpException)) {
      c = c.getCause();
    }
    return c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
  }
}
