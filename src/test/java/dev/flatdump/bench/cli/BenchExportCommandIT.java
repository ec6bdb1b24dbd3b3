package dev.flatdump.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.testing.BenchRun;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(MongoDbExtension.class)
class BenchExportCommandIT {

  @Test
  void timesTheExportAgainstTheScansOfTheSameCollection(
      MongoServer server, MongoDatabase database) {
    String[] target = {"--uri", server.uri(), "--db", database.getName(), "--collection", "orgs"};
    BenchRun generated =
        BenchRun.of(
            concat(new String[] {"generate", "--orgs", "300", "--profile", "realistic"}, target));
    assertThat(generated.exitCode()).as(generated.toString()).isZero();

    BenchRun run =
        BenchRun.of(concat(new String[] {"export", "--runs", "1", "--warmup", "2"}, target));

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.err()).contains("warm-up 1:").contains("warm-up 2:").doesNotContain("warm-up 3");
    assertThat(run.out())
        .contains("300 documents")
        .contains("median of 1 run after 2 warm-up runs;")
        .contains("| raw cursor scan (RawBsonDocument, sum of byte lengths) |")
        .contains("| driver Document scan (DocumentCodec) |")
        .contains("| flatdump read ahead + engine, nothing written (no Spring Batch) |")
        .contains(
            "| flatdump export (ExportLauncher, the bundled organizations.fbs, --compress none) |")
        .contains("exportStep");
  }

  @Test
  void timesTheExportWithItsCompressedCopiesWhenAsked(
      MongoServer server, MongoDatabase database, @TempDir Path out) {
    String[] target = {"--uri", server.uri(), "--db", database.getName(), "--collection", "orgs"};
    BenchRun generated =
        BenchRun.of(
            concat(new String[] {"generate", "--orgs", "300", "--profile", "realistic"}, target));
    assertThat(generated.exitCode()).as(generated.toString()).isZero();

    BenchRun run =
        BenchRun.of(
            concat(
                new String[] {
                  "export",
                  "--runs",
                  "1",
                  "--warmup",
                  "0",
                  "--compress",
                  "gzip,zstd",
                  "--out",
                  out.toString()
                },
                target));

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out())
        .contains("median of 1 run after no warm-up run;")
        .contains(
            "| flatdump export (ExportLauncher, the bundled organizations.fbs, --compress gzip,zstd) |");
    assertThat(out.resolve("export-warm-up-1")).doesNotExist();
    Path export = dev.flatdump.artifact.OutputLayout.resolve(out.resolve("export-run-1"));
    assertThat(export.resolve("organizations.fb.gz")).isNotEmptyFile();
    assertThat(export.resolve("organizations.fb.zst")).isNotEmptyFile();
  }

  @Test
  void refusesAnUnknownCompressionBeforeScanning(MongoServer server, MongoDatabase database) {
    BenchRun run =
        BenchRun.of(
            "export",
            "--uri",
            server.uri(),
            "--db",
            database.getName(),
            "--collection",
            "orgs",
            "--compress",
            "gzip,lz4");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("unknown compress value 'lz4'");
    assertThat(run.err()).doesNotContain("bench export: ");
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
