package dev.flatdump.bench;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.ShardFile;
import dev.flatdump.artifact.read.ShardKeys;
import dev.flatdump.artifact.write.LocalPublisher;
import dev.flatdump.artifact.write.SchemaShardWriter;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgCodec;
import dev.flatdump.encode.engine.Sharing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonBinaryWriter;
import org.bson.BsonValue;
import org.bson.io.BasicOutputBuffer;

/**
 * A keyed export of organizations, written and published in this process with the production
 * classes, as the job does: the bundled {@code organizations.fbs} with a string key {@code id}
 * reading {@code _id} added as {@code Organization}'s first field ({@link #keyedSchema}), each
 * org's BSON ({@link OrgCodec}, {@code _id} first) encoded by {@link SchemaShardWriter}, each
 * shard's key range by {@link ShardKeys}, the switch by {@link LocalPublisher}. Then {@link
 * #republish} publishes the same shards again under a new name (hard links), for reloads.
 *
 * <p>Not thread-safe.
 */
final class KeyedOrgExport {

  /** The field added to {@code table Organization}, first, so that it is field 0. */
  static final String KEY_FIELD = "  id: string (bson: \"_id\", key);";

  private static final String ORGANIZATION = "table Organization {";

  /** Declared first unless the text declares it: flatc wants attributes declared before use. */
  static final String BSON_ATTRIBUTE = "attribute \"bson\";";

  private final Path out;
  private final SchemaFiles schema;
  private final long shardSizeBytes;
  private Path current;
  private Manifest manifest;
  private int published;

  /**
   * Compiles the keyed schema (with the bundled flatc) into {@code work}; exports go to {@code
   * out}.
   */
  KeyedOrgExport(Path work, Path out, long shardSizeBytes) {
    try {
      Path fbs = Files.createDirectories(work).resolve("organizations.fbs");
      String bundled = new String(SchemaFiles.bundled().text(), StandardCharsets.UTF_8);
      Files.writeString(fbs, keyedSchema(bundled));
      this.schema = SchemaFiles.of(fbs);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.out = out;
    this.shardSizeBytes = shardSizeBytes;
  }

  /**
   * The schema text with {@link #KEY_FIELD} as the first field of {@code table Organization}, and
   * {@link #BSON_ATTRIBUTE} declared.
   *
   * @throws IllegalArgumentException when the text has no {@code table Organization {} or already
   *     a key
   */
  static String keyedSchema(String text) {
    int at = text.indexOf(ORGANIZATION);
    if (at < 0 || text.contains("key)") || text.contains("key,")) {
      throw new IllegalArgumentException(
          "not the bundled organizations schema (no '" + ORGANIZATION + "', or a key already)");
    }
    int lineEnd = text.indexOf('\n', at);
    if (lineEnd < 0) {
      throw new IllegalArgumentException("'" + ORGANIZATION + "' ends the schema");
    }
    String declared = text.contains(BSON_ATTRIBUTE) ? "" : BSON_ATTRIBUTE + "\n";
    return declared
        + text.substring(0, lineEnd + 1)
        + KEY_FIELD
        + "\n"
        + text.substring(lineEnd + 1);
  }

  /**
   * Writes and publishes the first export: {@code orgs.get(i)} with {@code _id} {@code ids.get(i)},
   * in that order, which must be key order.
   *
   * @return the export's directory
   */
  Path write(List<Org> orgs, List<? extends BsonValue> ids) {
    String name = nextName();
    Path staging = staging(name);
    var writer =
        new SchemaShardWriter(
            staging,
            schema.name(),
            schema.plan(),
            Sharing.Kinds.ALL,
            true,
            shardSizeBytes,
            List.of(),
            SchemaShardWriter.firstBuffer(shardSizeBytes, 16 << 20));
    var codec = new OrgCodec();
    var buffer = new BasicOutputBuffer(64 * 1024);
    for (int i = 0; i < orgs.size(); i++) {
      buffer.truncateToPosition(0);
      try (BsonBinaryWriter bson = new BsonBinaryWriter(buffer)) {
        codec.encode(bson, ids.get(i), orgs.get(i));
      }
      byte[] doc = buffer.toByteArray();
      if (writer.add(ids.get(i), doc, 0, doc.length)
          instanceof SchemaShardWriter.Outcome.Rejected r) {
        throw new IllegalStateException("org " + ids.get(i) + " rejected: " + r);
      }
    }
    writer.finish();
    List<ArtifactFile> files = new ArrayList<>();
    for (ShardFile s : writer.shards()) {
      Path file = staging.resolve(s.fileName());
      files.add(
          ShardKeys.describe(
              new ArtifactFile(
                  s.fileName(),
                  "flatbuffers",
                  s.bytes(),
                  Checksums.sha256(file),
                  s.index(),
                  s.records()),
              file,
              schema.plan()));
    }
    for (Path p : schema.stage(staging)) {
      String file = p.getFileName().toString();
      files.add(ArtifactFile.of(p, file.endsWith(".bfbs") ? "bfbs" : "fbs", null, null));
    }
    Instant now = Instant.now();
    manifest =
        new Manifest(
            Manifest.FORMAT_VERSION,
            new Manifest.Schema(
                schema.textFile(),
                Checksums.sha256(schema.text()),
                null,
                schema.binaryFile(),
                Manifest.Lookup.of(schema.plan())),
            new Manifest.Source("bench", "orgs", "{}"),
            new Manifest.Options("strings,tables,vectors", List.of(), shardSizeBytes, true, 1),
            new Manifest.Counts(orgs.size(), orgs.size(), 0),
            files,
            now,
            now);
    current = LocalPublisher.publish(staging, out, name, manifest, 3);
    return current;
  }

  /**
   * Publishes the current export's files again as a new export (hard links: the same pages), and
   * makes it current; keeps the newest 3.
   */
  Path republish() {
    if (current == null) {
      throw new IllegalStateException("nothing published yet");
    }
    String name = nextName();
    Path staging = staging(name);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(current)) {
      for (Path f : files) {
        if (!f.getFileName().toString().equals(Manifest.FILE_NAME)) {
          Files.createLink(staging.resolve(f.getFileName()), f);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    current = LocalPublisher.publish(staging, out, name, manifest, 3);
    return current;
  }

  /** The output directory, which {@code ExportReader.open} follows. */
  Path out() {
    return out;
  }

  /** The current export's shards' total size. */
  long shardBytes() {
    return shards().stream().mapToLong(ArtifactFile::bytes).sum();
  }

  /** The current export's shards, from its manifest. */
  List<ArtifactFile> shards() {
    return manifest.files().stream().filter(f -> f.format().equals("flatbuffers")).toList();
  }

  private String nextName() {
    return String.format("e%06d", ++published);
  }

  private Path staging(String name) {
    try {
      return Files.createDirectories(out.resolve(".flatdump").resolve("staging-" + name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
