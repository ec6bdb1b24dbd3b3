package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.check.ExportCheckFixtures;
import dev.flatdump.artifact.compress.ZstdCompression;
import dev.flatdump.bench.References.Kind;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.testing.OrganizationsEngine;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceBenchmarkTest {

  @TempDir Path dir;

  @Test
  void comparesTheFileWithEachKindZeroedAndAllAtOnce() throws IOException {
    Path file = writeRealistic(dir.resolve("orgs.fb"), 300);
    List<String> progress = new ArrayList<>();

    ReferenceBenchmark.Report report =
        ReferenceBenchmark.run(file, new ZstdCompression(3, 1), progress::add);

    List<ReferenceBenchmark.Row> rows = report.rows();
    assertThat(rows).hasSize(Kind.values().length + 2);
    assertThat(report.organizations()).isEqualTo(300);
    assertThat(report.bytes()).isEqualTo(Files.size(file));
    long whole = rows.get(0).compressedBytes();
    assertThat(rows.get(0).references()).isZero();
    ReferenceBenchmark.Row all = rows.get(rows.size() - 1);
    long sum = rows.subList(1, rows.size() - 1).stream().mapToLong(r -> r.references()).sum();
    assertThat(all.references()).isEqualTo(sum);
    // 300 orgs of 40..69 attributes: thousands of distinct offsets that zstd cannot predict.
    assertThat(rows.get(1 + Kind.ATTRIBUTE_SLOTS.ordinal()).references()).isGreaterThan(12_000);
    assertThat(rows.get(1 + Kind.ATTRIBUTE_SLOTS.ordinal()).compressedBytes()).isLessThan(whole);
    assertThat(all.compressedBytes())
        .isLessThan(rows.get(1 + Kind.ATTRIBUTE_SLOTS.ordinal()).compressedBytes());
    assertThat(progress).hasSize(rows.size()).first().asString().contains("zstd -3");

    String md = report.toMarkdown();
    assertThat(md)
        .contains("300 organizations")
        .contains(String.format(java.util.Locale.ROOT, "zstd -3 of it: %,d bytes", whole))
        .contains("| " + Kind.ATTRIBUTE_SLOTS.label() + " | ")
        .contains("| all of the above | " + String.format(java.util.Locale.ROOT, "%,d", sum));
  }

  @Test
  void measuresAnExportShardByShardAndAddsUp() throws IOException {
    Manifest manifest = ExportCheckFixtures.export(dir);
    assertThat(manifest.shards()).hasSizeGreaterThan(1);
    var zstd = new ZstdCompression(3, 1);
    List<String> progress = new ArrayList<>();

    ReferenceBenchmark.Report report = ReferenceBenchmark.run(dir, zstd, progress::add);

    long bytes = 0;
    long compressed = 0;
    long slots = 0;
    long all = 0;
    for (var shard : manifest.shards()) {
      Path file = dir.resolve(shard.name());
      byte[] content = Files.readAllBytes(file);
      bytes += content.length;
      compressed += CompressedSizes.of(file, zstd);
      References refs = References.of(ByteBuffer.wrap(content));
      slots += refs.count(Kind.ATTRIBUTE_SLOTS);
      for (Kind kind : Kind.values()) {
        all += refs.count(kind);
      }
    }
    assertThat(report.organizations()).isEqualTo(ExportCheckFixtures.ORGS);
    assertThat(report.bytes()).isEqualTo(bytes);
    assertThat(report.rows().get(0).compressedBytes()).isEqualTo(compressed);
    assertThat(report.rows().get(1 + Kind.ATTRIBUTE_SLOTS.ordinal()).references()).isEqualTo(slots);
    assertThat(report.rows().get(report.rows().size() - 1).references()).isEqualTo(all);
    int n = manifest.shards().size();
    assertThat(progress)
        .hasSize(n * report.rows().size())
        .contains("shard 1 of " + n + ": compressing it as it is (zstd -3)")
        .contains("shard " + n + " of " + n + ": compressing without any of them");
  }

  /** Writes {@code orgs} realistic orgs (seed 7) as one .fb file, all de-dup on. */
  static Path writeRealistic(Path file, int orgs) throws IOException {
    ByteBuffer buffer =
        OrganizationsEngine.encode(
            Sharing.Kinds.ALL,
            new OrgGenerator(Profile.REALISTIC, 7).stream().limit(orgs).toList());
    try (var channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    }
    return file;
  }
}
