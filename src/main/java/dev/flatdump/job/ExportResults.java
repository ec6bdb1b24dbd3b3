package dev.flatdump.job;

import org.springframework.batch.core.job.JobExecution;

/** Reads what a finished {@code exportJob} left for its caller. */
public final class ExportResults {

  private ExportResults() {}

  /**
   * The report summary, the published export's directory and the path of its {@code report.html},
   * or a note when there is none.
   */
  public static String summary(JobExecution execution) {
    var ctx = execution.getExecutionContext();
    if (!ctx.containsKey(JobState.REPORT_SUMMARY)) {
      return "(no report)";
    }
    if (!ctx.containsKey(JobState.EXPORT_DIR)) {
      return ctx.getString(JobState.REPORT_SUMMARY).stripTrailing() + "\n(not published)";
    }
    return ctx.getString(JobState.REPORT_SUMMARY).stripTrailing()
        + "\nexport: "
        + ctx.getString(JobState.EXPORT_DIR)
        + "\nreport: "
        + ctx.getString(JobState.REPORT_HTML);
  }

  /** The documents the export rejected; 0 when the run recorded none. */
  public static long rejected(JobExecution execution) {
    return execution.getExecutionContext().getLong(JobState.REJECTED, 0L);
  }

  /** The published export's directory, or null when the run did not publish one. */
  public static java.nio.file.Path exportDir(JobExecution execution) {
    var ctx = execution.getExecutionContext();
    return ctx.containsKey(JobState.EXPORT_DIR)
        ? java.nio.file.Path.of(ctx.getString(JobState.EXPORT_DIR))
        : null;
  }
}
