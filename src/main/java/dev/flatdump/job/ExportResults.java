package dev.flatdump.job;

import org.springframework.batch.core.job.JobExecution;

/** Reads what a finished {@code organizationsExportJob} left for its caller. */
public final class ExportResults {

  private ExportResults() {}

  /** The report summary and the path of {@code report.html}, or a note when there is none. */
  public static String summary(JobExecution execution) {
    var ctx = execution.getExecutionContext();
    if (!ctx.containsKey(ReportTasklet.SUMMARY)) {
      return "(no report)";
    }
    return ctx.getString(ReportTasklet.SUMMARY).stripTrailing()
        + "\nreport: "
        + ctx.getString(ReportTasklet.HTML);
  }
}
