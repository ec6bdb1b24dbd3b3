package dev.flatdump.artifact.check;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.ShardFile;
import dev.flatdump.artifact.compress.Compression;
import dev.flatdump.artifact.write.RejectsWriter;
import dev.flatdump.artifact.write.SchemaShardWriter;
import dev.flatdump.artifact.write.ShardCompressor;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.testing.OrganizationsEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Builds a real export directory without MongoDB, as the job does: shards of the bundled schema
 * through {@link SchemaShardWriter}, the schema's files, gzip and zstd copies through {@link
 * ShardCompressor}, an empty {@code rejects.jsonl}, and {@code manifest.json} last. Public for the
 * CLI tests.
 */
public final class ExportCheckFixtures {

  /** Organizations in every fixture export. */
  public static final int ORGS = 60;

  /** Small enough for a few shards, few enough to keep the fsyncs of atomic writes cheap. */
  private static final int SHARD_SIZE = 32 * 1024;

  private ExportCheckFixtures() {}

  /** Writes an export of {@value #ORGS} realistic orgs in several shards; returns its manifest. */
  public static Manifest export(Path dir) {
    return export(dir, 11);
  }

  /** The {@value #ORGS} realistic orgs that {@link #export(Path, long)} writes for {@code seed}. */
  public static List<Org> orgs(long seed) {
    OrgGenerator generator = new OrgGenerator(Profile.REALISTIC, seed);
    List<Org> orgs = new ArrayList<>(ORGS);
    for (int i = 0; i < ORGS; i++) {
      orgs.add(generator.next());
    }
    return orgs;
  }

  /** Writes an export of {@link #orgs}({@code seed}) in several shards; returns its manifest. */
  public static Manifest export(Path dir, long seed) {
    return export(dir, seed, ORGS, SHARD_SIZE);
  }

  /**
   * Writes an export of {@code orgs} realistic orgs of {@code seed} in shards of about {@code
   * shardSize} bytes (for tests that need large files); returns its manifest.
   */
  public static Manifest export(Path dir, long seed, int orgs, int shardSize) {
    SchemaFiles schema = SchemaFiles.bundled();
    SchemaShardWriter writer =
        new SchemaShardWriter(
            dir,
            schema.name(),
            schema.plan(),
            Sharing.Kinds.ALL,
            false,
            shardSize,
            List.of(),
            4096);
    OrgGenerator generator = new OrgGenerator(Profile.REALISTIC, seed);
    for (int i = 0; i < orgs; i++) {
      Org org = generator.next();
      byte[] bson = OrganizationsEngine.bson(org);
      writer.add(null, bson, 0, bson.length);
    }
    writer.finish();
    List<ArtifactFile> files = new ArrayList<>();
    for (ShardFile s : writer.shards()) {
      Path file = dir.resolve(s.fileName());
      files.add(
          new ArtifactFile(
              s.fileName(),
              "flatbuffers",
              s.bytes(),
              Checksums.sha256(file),
              s.index(),
              s.records()));
    }
    for (String compression : List.of("gzip", "zstd")) {
      for (ShardFile s : writer.shards()) {
        files.add(
            ShardCompressor.compress(
                dir.resolve(s.fileName()),
                Compression.create(compression, null),
                s.index(),
                s.records()));
      }
    }
    for (Path p : schema.stage(dir)) {
      String name = p.getFileName().toString();
      files.add(ArtifactFile.of(p, name.endsWith(".bfbs") ? "bfbs" : "fbs", null, null));
    }
    try {
      Path rejects = Files.write(dir.resolve(RejectsWriter.FILE_NAME), new byte[0]);
      files.add(
          new ArtifactFile(
              RejectsWriter.FILE_NAME, "jsonl", 0, Checksums.sha256(rejects), null, 0L));
    } catch (IOException e) {
      throw new ArtifactException("cannot write rejects.jsonl in " + dir, e);
    }
    Manifest manifest =
        new Manifest(
            Manifest.FORMAT_VERSION,
            new Manifest.Schema(
                schema.textFile(), Checksums.sha256(schema.text()), "ORGS", schema.binaryFile()),
            new Manifest.Source("shop", "organizations", "{}"),
            new Manifest.Options(
                "strings,tables,vectors", List.of("gzip", "zstd"), shardSize, false, 1),
            new Manifest.Counts(orgs, orgs, 0),
            files,
            Instant.parse("2024-05-01T10:00:00Z"),
            Instant.parse("2024-05-01T10:01:00Z"));
    manifest.write(dir);
    return manifest;
  }

  /** Rewrites {@code manifest.json} with each listed file changed by {@code change}. */
  public static void rewriteFiles(Path dir, UnaryOperator<ArtifactFile> change) {
    Manifest m = Manifest.read(dir.resolve(Manifest.FILE_NAME));
    new Manifest(
            m.formatVersion(),
            m.schema(),
            m.source(),
            m.options(),
            m.counts(),
            m.files().stream().map(change).toList(),
            m.startedAt(),
            m.finishedAt())
        .write(dir);
  }

  /** Flips one bit of the file's middle byte. */
  public static void flipBit(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length / 2] ^= 0x10;
    Files.write(file, bytes);
  }

  /** Cuts {@code bytes} off the file's end. */
  public static void truncate(Path file, int bytes) throws IOException {
    byte[] all = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(all, all.length - bytes));
  }
}
