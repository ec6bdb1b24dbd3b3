package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two speed targets judged from a run's four rows. The timings are round numbers picked to sit
 * on either side of each target, not figures of any run.
 */
class ExportReportTest {

  private static final long DOCS = 100_000;

  /** A report of four rows that took these many milliseconds over the same documents. */
  private static ExportReport report(long raw, long document, long reader, long export) {
    var settings =
        new ExportBenchmark.Settings(
            "host:1", "bench", "orgs", 3, 3, 1000, 1 << 27, Path.of("out"), false, List.of());
    return new ExportReport(
        settings,
        "2 cores",
        "mongod 6.0.5",
        "0.1",
        "0.2",
        true,
        List.of(
            row("raw cursor scan", raw),
            row("driver Document scan", document),
            row("flatdump cursor + engine", reader),
            row("flatdump export", export)));
  }

  private static ExportRow row(String name, long millis) {
    return new ExportRow(
        name, DOCS, 1 << 20, millis * 1_000_000, 1, 1, 1, "", List.of(millis * 1_000_000));
  }

  @Test
  void refusesAFifthRow() {
    var settings =
        new ExportBenchmark.Settings(
            "host:1", "bench", "orgs", 3, 3, 1000, 1 << 27, Path.of("out"), false, List.of());
    List<ExportRow> rows = new ArrayList<>();
    for (String name : List.of("raw", "document", "reader", "export", "another")) {
      rows.add(row(name, 1_000));
    }
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new ExportReport(settings, "m", "s", "l", "l", true, rows))
        .withMessageContaining("got 5");
  }

  @Test
  void ratiosAreOfSpeedsSoOfInverseTimes() {
    ExportReport report = report(1_000, 8_000, 1_500, 2_000);

    assertThat(report.exportOverRawScan()).isCloseTo(0.5, within(1e-12));
    assertThat(report.exportOverDocumentScan()).isCloseTo(4.0, within(1e-12));
  }

  @Test
  void bothTargetsMetAddsNoSecondLine() {
    ExportReport report = report(1_000, 8_000, 1_500, 1_800);

    assertThat(report.rawScanTargetMet()).isTrue();
    assertThat(report.documentScanTargetMet()).isTrue();
    assertThat(report.targets()).hasSize(1);
    assertThat(report.targets().get(0)).contains("met").doesNotContain("missed");
    assertThat(report.toMarkdown()).endsWith(report.targets().get(0) + "\n");
  }

  @Test
  void aTargetMetExactlyCountsAsMet() {
    ExportReport report = report(1_000, 6_000, 1_500, 2_000);

    assertThat(report.rawScanTargetMet()).isTrue();
    assertThat(report.documentScanTargetMet()).isTrue();
  }

  @Test
  void theDocumentTargetNeedsAThirdOfTheDocumentScansTime() {
    ExportReport report = report(1_000, 4_500, 1_200, 2_100);

    assertThat(report.documentScanTargetMet()).isFalse();
    assertThat(report.documentTargetNanos()).isEqualTo(1_500_000_000L);
    assertThat(report.documentTargetOutOfReach()).as("the reader took 1,200 ms").isFalse();
    assertThat(report.targets()).hasSize(2);
    assertThat(report.targets().get(1))
        .contains("1,500 ms", "1,200 ms", "1,000 ms")
        .doesNotContain("Out of reach");
  }

  @Test
  void aDocumentTargetBelowTheCursorAndEnginesOwnTimeIsOutOfReach() {
    // 3x a 3,000 ms Document scan needs the export in 1,000 ms; the cursor and engine took 1,200 ms
    ExportReport report = report(900, 3_000, 1_200, 1_500);

    assertThat(report.rawScanTargetMet()).isTrue();
    assertThat(report.documentScanTargetMet()).isFalse();
    assertThat(report.documentTargetOutOfReach()).isTrue();
    assertThat(report.targets().get(1)).contains("Out of reach");
    assertThat(report.toMarkdown()).contains(report.targets().get(1) + "\n");
  }

  @Test
  void aSlowExportMissesTheRawTarget() {
    ExportReport report = report(1_000, 8_000, 1_500, 2_001);

    assertThat(report.rawScanTargetMet()).isFalse();
    assertThat(report.targets().get(0)).contains("missed");
  }

  @Test
  void refusesAnythingButTheFourRows() {
    ExportReport four = report(1, 2, 3, 4);

    assertThatThrownBy(
            () ->
                new ExportReport(
                    four.settings(), "m", "s", "0", "0", true, four.rows().subList(0, 3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got 3");
  }
}
