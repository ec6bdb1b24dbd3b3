package dev.flatdump.bench;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.check.SchemaVerifier;
import dev.flatdump.artifact.compress.Compression;
import dev.flatdump.artifact.read.SchemaArtifact;
import dev.flatdump.report.CompressedSize;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
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
   * The shards {@code path} names: an export's, read through its binary schema, or one {@code .fb}
   * file with no manifest beside it, verified against the bundled organizations schema.
   */
  private static List<? extends ByteBuffer> shards(Path path) {
    Path dir = path.toAbsolutePath().getParent();
    if (Files.isDirectory(path) || dir == null || Files.exists(dir.resolve(Manifest.FILE_NAME))) {
      return SchemaArtifact.open(path).shards();
    }
    try (FileChannel ch = FileChannel.open(path)) {
      ByteBuffer shard = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
      SchemaVerifier.Result check = SchemaVerifier.verify(SchemaFiles.bundled().plan(), shard);
      if (!check.valid()) {
        throw new ArtifactException(
            path + " is not a valid organizations FlatBuffer: " + check.error());
      }
      return List.of(shard);
    } catch (IOException e) {
      throw new ArtifactException("cannot map " + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * Measures an export directory, one shard of an export, or one {@code .fb} file of the bundled
   * schema (verified before it is read), one shard at a time: the memory it needs is about three
   * times the largest shard, whatever the export's size.
   *
   * @param progress one line per shard and row, for stderr
   */
  public static Report run(Path path, Compression compression, Consumer<String> progress) {
    List<? extends ByteBuffer> shards = shards(path);
    List<Set<References.Kind>> variants = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    variants.add(Set.of());
    labels.add("");
    for (References.Kind kind : References.Kind.values()) {
      variants.add(EnumSet.of(kind));
      labels.add(kind.label());
    }
    variants.add(EnumSet.allOf(References.Kind.class));
    labels.add("all of the above");
    long[] counts = new long[variants.size()];
    long[] compressed = new long[variants.size()];
    long bytes = 0;
    long organizations = 0;
    for (int s = 0; s < shards.size(); s++) {
      ByteBuffer shard = shards.get(s);
      organizations +=
          dev.flatdump.schema.fb.Organizations.getRootAsOrganizations(shard.duplicate())
              .organizationsLength();
      byte[] copy = new byte[shard.remaining()];
      shard.duplicate().get(copy);
      bytes += copy.length;
      References references = References.of(ByteBuffer.wrap(copy));
      String where = shards.size() == 1 ? "" : "shard " + (s + 1) + " of " + shards.size() + ": ";
      for (int v = 0; v < variants.size(); v++) {
        progress.accept(
            where
                + (v == 0
                    ? "compressing it as it is (" + describe(compression) + ")"
                    : v == variants.size() - 1
                        ? "compressing without any of them"
                        : "compressing without the " + labels.get(v)));
        for (References.Kind kind : variants.get(v)) {
          counts[v] += references.count(kind);
        }
        compressed[v] += compressedSize(references.zeroed(copy, variants.get(v)), compression);
      }
    }
    List<Row> rows = new ArrayList<>();
    for (int v = 0; v < variants.size(); v++) {
      rows.add(new Row(labels.get(v), counts[v], compressed[v]));
    }
    return new Report(path, organizations, bytes, compression, rows);
  }

  private static String describe(Compression compression) {
    return compression.name() + " -" + compression.level();
  }

  private static long compressedSize(byte[] bytes, Compression compression) {
    try {
      return CompressedSize.of(compression, ByteBuffer.wrap(bytes));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
