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
    if (!ctx.containsKey(ReportTasklet.SUMMARY)) {
      return "(no report)";
    }
    if (!ctx.containsKey(PublishTasklet.EXPORT_DIR)) {
      return ctx.getString(ReportTasklet.SUMMARY).stripTrailing() + "\n(not published)";
    }
    return ctx.getString(ReportTasklet.SUMMARY).stripTrailing()
        + "\nexport: "
        + ctx.getString(PublishTasklet.EXPORT_DIR)
        + "\nreport: "
        + ctx.getString(PublishTasklet.HTML);
  }

  /** The published export's directory, or null when the run did not publish one. */
  public static java.nio.file.Path exportDir(JobExecution execution) {
    var ctx = execution.getExecutionContext();
    return ctx.containsKey(PublishTasklet.EXPORT_DIR)
        ? java.nio.file.Path.of(ctx.getString(PublishTasklet.EXPORT_DIR))
        : null;
  }
}
