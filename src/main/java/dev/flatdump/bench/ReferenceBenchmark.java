package dev.flatdump.bench;

import dev.flatdump.artifact.Compression;
import dev.flatdump.artifact.OrgArtifact;
import dev.flatdump.report.CountingOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What each kind of position-dependent reference in an artifact costs once compressed: the artifact
 * is compressed as it is, then with one kind of {@link References} set to zero at a time, then with
 * all of them. The difference is what the compressor spends on those numbers. Sizes only, no
 * timing; the zeroed copies are measured, never written.
 */
public final class ReferenceBenchmark {

  /**
   * One row.
   *
   * @param label what was zeroed ("" for the file as it is)
   * @param references how many 4-byte references were zeroed
   * @param compressedBytes the compressed size with them zeroed
   */
  public record Row(String label, long references, long compressedBytes) {}

  /**
   * What was measured.
   *
   * @param path the export or file
   * @param organizations in all its shards
   * @param bytes its FlatBuffers bytes
   * @param compression how it was compressed
   * @param rows the file as it is, one row per {@link References.Kind}, then all kinds at once
   */
  public record Report(
      Path path, long organizations, long bytes, Compression compression, List<Row> rows) {

    public Report {
      rows = List.copyOf(rows);
    }

    /** The table in Markdown, with a header line that says what was measured. */
    public String toMarkdown() {
      long whole = rows.get(0).compressedBytes();
      var md = new StringBuilder();
      md.append(
          String.format(
              Locale.ROOT,
              "References in %s: %,d organizations, %,d bytes of FlatBuffers; %s of it: %,d"
                  + " bytes.%n%n",
              path,
              organizations,
              bytes,
              describe(compression),
              whole));
      md.append("| zeroed | references | their bytes | compressed without them | they cost |\n");
      md.append("|---|---:|---:|---:|---:|\n");
      for (Row r : rows.subList(1, rows.size())) {
        long cost = whole - r.compressedBytes();
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %,d | %,d | %,d | %,d (%.1f %%) |%n",
                r.label(),
                r.references(),
                4 * r.references(),
                r.compressedBytes(),
                cost,
                100.0 * cost / whole));
      }
      return md.toString();
    }
  }

  private ReferenceBenchmark() {}

  /**
   * Measures an export directory or one {@code .fb} file (verified as {@code inspect} opens it).
   *
   * @param progress one line per step, for stderr
   */
  public static Report run(Path path, Compression compression, Consumer<String> progress) {
    OrgArtifact artifact = OrgArtifact.open(path);
    List<byte[]> shards = new ArrayList<>();
    List<References> references = new ArrayList<>();
    long bytes = 0;
    for (ByteBuffer shard : artifact.shards()) {
      byte[] copy = new byte[shard.remaining()];
      shard.duplicate().get(copy);
      shards.add(copy);
      references.add(References.of(ByteBuffer.wrap(copy)));
      bytes += copy.length;
    }
    List<Row> rows = new ArrayList<>();
    progress.accept("compressing the file as it is (" + describe(compression) + ")");
    rows.add(row("", shards, references, Set.of(), compression));
    for (References.Kind kind : References.Kind.values()) {
      progress.accept("compressing without the " + kind.label());
      rows.add(row(kind.label(), shards, references, EnumSet.of(kind), compression));
    }
    progress.accept("compressing without any of them");
    rows.add(
        row(
            "all of the above",
            shards,
            references,
            EnumSet.allOf(References.Kind.class),
            compression));
    return new Report(path, artifact.count(), bytes, compression, rows);
  }

  private static Row row(
      String label,
      List<byte[]> shards,
      List<References> references,
      Set<References.Kind> kinds,
      Compression compression) {
    long count = 0;
    long compressed = 0;
    for (int i = 0; i < shards.size(); i++) {
      References r = references.get(i);
      for (References.Kind kind : kinds) {
        count += r.count(kind);
      }
      compressed += compressedSize(r.zeroed(shards.get(i), kinds), compression);
    }
    return new Row(label, count, compressed);
  }

  private static String describe(Compression compression) {
    return compression.name() + " -" + compression.level();
  }

  private static long compressedSize(byte[] bytes, Compression compression) {
    var counter = new CountingOutputStream();
    try (OutputStream out = compression.wrap(counter)) {
      out.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return counter.count();
  }
}
