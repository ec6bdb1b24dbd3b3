package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

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
            row("flatdump reader only", reader),
            row("flatdump export", export)));
  }

  private static ExportRow row(String name, long millis) {
    return new ExportRow(name, DOCS, 1 << 20, millis * 1_000_000, 1, 1, 1, "");
  }

  @Test
  void saysBothTargetsAreMetWhenTheyAre() {
    ExportReport report = report(970, 4_421, 1_239, 1_332);

    assertThat(report.exportOverRawScan()).isCloseTo(970 / 1_332.0, within(1e-9));
    assertThat(report.exportOverDocumentScan()).isCloseTo(4_421 / 1_332.0, within(1e-9));
    assertThat(report.targets())
        .containsExactly(
            "Targets: the export at 0.73× the raw scan's docs/s (≥ 0.50×: met) and 3.32× the"
                + " Document scan's (≥ 3.00×: met).");
    assertThat(report.toMarkdown()).endsWith(".\n" + report.targets().get(0) + "\n");
  }

  @Test
  void namesTheTimeTheDocumentTargetNeededAndWhenEvenTheReaderWasSlower() {
    ExportReport report = report(995, 3_092, 1_213, 1_481);

    assertThat(report.documentTargetNanos()).isEqualTo(1_030_666_666L);
    assertThat(report.targets())
        .containsExactly(
            "Targets: the export at 0.67× the raw scan's docs/s (≥ 0.50×: met) and 2.09× the"
                + " Document scan's (≥ 3.00×: missed).",
            "3.00× the Document scan needs the export in 1,031 ms at most; the reader alone"
                + " (decoding, no encoding or writing) took 1,213 ms and the raw scan 995 ms."
                + " Out of reach in this run: the export decodes every document as the reader"
                + " does, then encodes and writes it.");
    assertThat(report.toMarkdown()).contains(report.targets().get(1) + "\n");
  }

  @Test
  void saysNothingIsOutOfReachWhenTheReaderAloneWasFastEnough() {
    ExportReport report = report(1_000, 4_500, 1_200, 2_100);

    assertThat(report.targets())
        .containsExactly(
            "Targets: the export at 0.48× the raw scan's docs/s (≥ 0.50×: missed) and 2.14× the"
                + " Document scan's (≥ 3.00×: missed).",
            "3.00× the Document scan needs the export in 1,500 ms at most; the reader alone"
                + " (decoding, no encoding or writing) took 1,200 ms and the raw scan 1,000 ms.");
  }

  @Test
  void countsATargetMetExactlyAsMet() {
    assertThat(report(1_000, 6_000, 1_500, 2_000).targets())
        .containsExactly(
            "Targets: the export at 0.50× the raw scan's docs/s (≥ 0.50×: met) and 3.00× the"
                + " Document scan's (≥ 3.00×: met).");
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
