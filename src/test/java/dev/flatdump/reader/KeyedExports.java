package dev.flatdump.reader;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.ShardFile;
import dev.flatdump.artifact.read.ShardKeys;
import dev.flatdump.artifact.write.LocalPublisher;
import dev.flatdump.artifact.write.SchemaShardWriter;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.testing.SchemaFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * Exports whose records have a key, {@code id} reading {@code _id}, written and published as the
 * job does (the shards by {@link SchemaShardWriter}, each shard's key range by {@link ShardKeys},
 * the lookup by {@link Manifest.Lookup#of}, the switch by {@link LocalPublisher}), in several small
 * shards. Each record also holds {@code tag}, a string the caller derives from the export and the
 * key, so that a test can tell which export an answer came from.
 */
final class KeyedExports {

  /** The schema, with {@code KEY} for the key's type. */
  static final String SCHEMA =
      """
      attribute "bson";
      namespace keyed;
      table R { id: KEY (bson: "_id", key); tag: string; n: long; }
      table Rs { rs: [R]; }
      root_type Rs;
      """;

  private final SchemaFiles schema;
  private final long shardSize;

  /** Compiles the schema with the key of type {@code keyType} ({@code string}, {@code long}...). */
  KeyedExports(Path dir, String keyType, long shardSize) {
    try {
      Path fbs = Files.createDirectories(dir).resolve("keyed-" + keyType + ".fbs");
      Files.writeString(fbs, SCHEMA.replace("KEY", keyType));
      this.schema = SchemaFiles.of(fbs);
      this.fbs = fbs;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.shardSize = shardSize;
  }

  private final Path fbs;

  /** The schema's file, for flatc. */
  Path fbs() {
    return fbs;
  }

  /**
   * Publishes into {@code out} as {@code name} an export of one record per key (a string, a long,
   * or the {@code _id}'s BSON value itself), in the given order (key order), record {@code i} with
   * {@code tag} {@code tags.get(i)} and {@code n} = i.
   */
  Path publish(Path out, String name, int keep, List<?> keys, List<String> tags) {
    Path staging = out.resolve(".flatdump").resolve("staging-" + name);
    try {
      Files.createDirectories(staging);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    SchemaShardWriter writer =
        new SchemaShardWriter(
            staging,
            schema.name(),
            schema.plan(),
            Sharing.Kinds.ALL,
            true,
            shardSize,
            List.of(),
            1024);
    for (int i = 0; i < keys.size(); i++) {
      BsonValue id =
          keys.get(i) instanceof BsonValue v
              ? v
              : keys.get(i) instanceof String s
                  ? new BsonString(s)
                  : new BsonInt64((Long) keys.get(i));
      BsonDocument doc =
          new BsonDocument("_id", id)
              .append("tag", new BsonString(tags.get(i)))
              .append("n", new BsonInt64(i));
      byte[] bson = SchemaFixtures.bson(doc);
      if (writer.add(id, bson, 0, bson.length) instanceof SchemaShardWriter.Outcome.Rejected r) {
        throw new IllegalArgumentException("key " + keys.get(i) + " rejected: " + r);
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
    Manifest manifest =
        new Manifest(
            Manifest.FORMAT_VERSION,
            new Manifest.Schema(
                schema.textFile(),
                Checksums.sha256(schema.text()),
                null,
                schema.binaryFile(),
                Manifest.Lookup.of(schema.plan())),
            new Manifest.Source("db", "keyed", "{}"),
            new Manifest.Options("strings,tables,vectors", List.of(), shardSize, true, 1),
            new Manifest.Counts(keys.size(), keys.size(), 0),
            files,
            Instant.parse("2026-11-29T10:00:00Z"),
            Instant.parse("2026-11-29T10:01:00Z"));
    manifest.write(staging);
    return LocalPublisher.publish(staging, out, name, manifest, keep);
  }
}
