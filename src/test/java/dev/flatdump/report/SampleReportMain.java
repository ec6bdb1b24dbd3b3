package dev.flatdump.report;

import java.nio.file.Path;

/**
 * Writes the article-shaped sample report into a directory, to look at: {@code java ...
 * SampleReportMain /tmp/sample-report}; a small report for a collection named {@code <b>&x} goes to
 * its {@code escaped} subdirectory, to check the escaping by eye.
 */
final class SampleReportMain {

  private SampleReportMain() {}

  public static void main(String[] args) {
    Path dir = Path.of(args.length > 0 ? args[0] : "target-report/sample-report");
    var writer = new ReportWriter();
    SizeReport report = SampleReports.articleLike();
    writer.writeAll(report, dir);
    writer.writeAll(SampleReports.small("<b>&x"), dir.resolve("escaped"));
    System.out.print(writer.summary(report));
    System.out.println("written to " + dir.toAbsolutePath());
  }
}
