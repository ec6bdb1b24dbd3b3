package dev.flatdump.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.cli.Flatdump;
import dev.flatdump.testing.BenchRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code flatdump-bench} command line; the benchmarks themselves are tested in their package.
 */
class FlatdumpBenchTest {

  @Test
  void printsTheCodecTableOnStdout() {
    BenchRun run = BenchRun.of("codecs", "--profile", "article", "--orgs", "30", "--runs", "1");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("Codecs: profile article, 30 orgs (seed 42)")
        .contains("| JSON (Jackson, as the articles) |")
        .contains("| flatdump strings + tables + vectors (export default) |");
    assertThat(run.err()).contains("bench codecs: generating 30 article orgs");
  }

  @Test
  void printsTheCpuTableOnStdout() {
    BenchRun run = BenchRun.of("cpu", "--profile", "realistic", "--orgs", "40", "--runs", "1");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("CPU per document: profile realistic, 40 orgs (seed 42)")
        .contains("| OrgCodec decode into records (BsonBinaryReader) |")
        .contains("| flatdump engine on organizations.fbs, strings only |");
    assertThat(run.err()).contains("bench cpu: generating 40 realistic orgs as BSON");
  }

  @Test
  void printsTheReaderTablesOnStdout() {
    BenchRun run =
        BenchRun.of(
            "reader",
            "--profile",
            "realistic",
            "--orgs",
            "50",
            "--runs",
            "1",
            "--lookups",
            "200",
            "--seconds",
            "0.1");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("Reader: profile realistic, 50 orgs (seed 42)")
        .contains("| ExportReader.open, Verify.CHECKSUMS (every byte's SHA-256) |")
        .contains("| ExportReader.open, Verify.FULL (SHA-256s, then every shard's structure) |")
        .contains("| export: snapshot() per lookup, lookup, name() (as a service would) |")
        .contains("| child JVM: ExportReader, every key looked up (default heap) |")
        .contains("| publish + reload() back to back, Verify.SIZES |");
    assertThat(run.err()).contains("bench reader: generating 50 realistic orgs");
  }

  @Test
  void measuresTheReferencesOfAFileThatBenchCodecsKept(@TempDir Path dir) {
    BenchRun codecs =
        BenchRun.of(
            "codecs",
            "--profile",
            "realistic",
            "--orgs",
            "60",
            "--runs",
            "1",
            "--out",
            dir.toString());
    assertThat(codecs.exitCode()).as(codecs.err()).isZero();
    // The last row is the export's writer with every de-dup on.
    Path file = dir.resolve("codec-8.fb");

    BenchRun run = BenchRun.of("refs", file.toString(), "--zstd-level", "3");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("References in " + file + ": 60 organizations")
        .contains("zstd -3 of it:")
        .contains("| attribute vectors' elements (uoffset to a shared attribute table) |")
        .contains("| all of the above |");
    assertThat(run.err()).contains("bench refs: compressing without any of them");
  }

  @Test
  void refsNamesAMissingFileAsBadUsage(@TempDir Path dir) {
    BenchRun run = BenchRun.of("refs", dir.resolve("nope.fb").toString());

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Flatdump.EXIT_USAGE);
    assertThat(run.err()).contains("no such file or directory: " + dir.resolve("nope.fb"));
  }

  @Test
  void rejectsZeroOrgsAsBadUsage() {
    BenchRun run = BenchRun.of("codecs", "--profile", "article", "--orgs", "0");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Flatdump.EXIT_USAGE);
    assertThat(run.err())
        .contains("orgs must be >= 1, got 0")
        .contains("Try 'flatdump-bench codecs --help'.");
  }

  @Test
  void readerRejectsZeroLookupsAsBadUsage() {
    BenchRun run = BenchRun.of("reader", "--orgs", "10", "--lookups", "0");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Flatdump.EXIT_USAGE);
    assertThat(run.err()).contains("lookups must be >= 1, got 0");
  }

  @Test
  void asksForABenchmarkWhenNoneIsNamed() {
    BenchRun run = BenchRun.of();

    assertThat(run.exitCode()).isEqualTo(Flatdump.EXIT_USAGE);
    assertThat(run.err())
        .contains("name a benchmark (codecs, columnar, cpu, export, reader, refs) or generate");
  }
}
