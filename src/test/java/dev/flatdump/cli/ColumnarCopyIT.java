package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.columnar.ColumnarCopy;
import dev.flatdump.testing.BsonCorpus;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.bson.BsonBinaryReader;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code --compress columnar} on real exports: every shard's {@code .fbc} is listed, {@code check}
 * rebuilds it, {@code unpack} writes the shard's bytes again with the manifest's SHA-256, and a
 * damaged copy or the wrong schema is an error that writes nothing.
 */
@ExtendWith(MongoDbExtension.class)
class ColumnarCopyIT {

  @Test
  void organizationsWithRejectsInShardsAndPartitions(
      MongoServer server, MongoDatabase db, @TempDir Path dir) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 11, 3000);
    var coll = db.getCollection("orgs", BsonDocument.class);
    for (int i = 0; i < 6; i++) {
      // a name that is not a string: rejected after the fields before it were written
      coll.insertOne(
          BsonDocument.parse(
              "{_id: 'bad-" + i + "', country: 'ES', tags: ['x', 'y'], name: [" + i + "]}"));
    }
    Path out = dir.resolve("out");
    CliRun export =
        ExportCommandIT.export(
            server,
            db,
            "orgs",
            out,
            "--compress",
            "zstd,columnar",
            "--shard-size",
            "256KiB",
            "--partitions",
            "2");
    assertThat(export.exitCode()).as(export.toString()).isIn(0, 3);
    Path exported = ExportCommandIT.exported(out);
    Manifest m = Manifest.read(exported.resolve(Manifest.FILE_NAME));
    assertThat(m.counts().rejected()).isEqualTo(6);
    assertThat(m.shards()).hasSizeGreaterThan(2);
    List<ArtifactFile> copies =
        m.files().stream().filter(f -> f.format().equals(ColumnarCopy.FORMAT)).toList();
    assertThat(copies).hasSameSizeAs(m.shards());
    long shardBytes = m.shards().stream().mapToLong(ArtifactFile::bytes).sum();
    long copyBytes = copies.stream().mapToLong(ArtifactFile::bytes).sum();
    long zstdBytes =
        m.files().stream()
            .filter(f -> f.format().equals("zstd"))
            .mapToLong(ArtifactFile::bytes)
            .sum();
    System.out.printf(
        "organizations: .fb %,d, .fb.zst %,d, .fbc %,d bytes%n", shardBytes, zstdBytes, copyBytes);
    assertThat(copyBytes).isLessThan(zstdBytes);

    CliRun check = CliRun.of("check", out.toString());
    assertThat(check.exitCode()).as(check.toString()).isZero();
    JsonNode report =
        JsonMapper.builder().build().readTree(Files.readString(exported.resolve("report.json")));
    assertThat(report.toString()).contains("\"format\":\"columnar\"");
    unpackEveryShard(exported, m, dir.resolve("unpacked"));

    // a damaged copy: check names it, unpack refuses it and writes nothing
    ArtifactFile first = copies.get(0);
    Path copy = exported.resolve(first.name());
    byte[] bytes = Files.readAllBytes(copy);
    bytes[bytes.length / 2] ^= 0x20;
    Path damaged = Files.createDirectories(dir.resolve("damaged")).resolve(first.name());
    Files.write(damaged, bytes);
    Path bfbs = exported.resolve(m.schema().binary());
    CliRun refused =
        CliRun.of(
            "unpack",
            damaged.toString(),
            "--schema",
            bfbs.toString(),
            "--out",
            dir.resolve("nothing").toString());
    assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
    assertThat(refused.err()).contains("does not rebuild").contains("damaged columnar copy");
    assertThat(dir.resolve("nothing").resolve(ColumnarCopy.shardName(first.name()))).doesNotExist();
    Files.write(copy, bytes);
    CliRun checkDamaged = CliRun.of("check", out.toString());
    assertThat(checkDamaged.exitCode()).isEqualTo(1);
    assertThat(checkDamaged.out()).contains(first.name() + ": does not rebuild its shard");

    // the wrong schema
    Path other = dir.resolve("other.bfbs");
    Files.write(
        other, dev.flatdump.encode.plan.FlatcRunner.compile(Path.of("sample-data", "states.fbs")));
    CliRun wrong =
        CliRun.of(
            "unpack",
            exported.resolve(copies.get(1).name()).toString(),
            "--schema",
            other.toString(),
            "--out",
            dir.resolve("nothing").toString());
    assertThat(wrong.exitCode()).as(wrong.toString()).isEqualTo(1);
    assertThat(wrong.err()).contains("another schema");
    CliRun notACopy = CliRun.of("unpack", bfbs.toString());
    assertThat(notACopy.exitCode()).isEqualTo(2);
  }

  @Test
  void theBsonCorpusCollection(MongoServer server, MongoDatabase db, @TempDir Path dir)
      throws Exception {
    var coll = db.getCollection("corpus", BsonDocument.class);
    int n = 0;
    for (Path file : BsonCorpus.files()) {
      JsonNode corpus = JsonMapper.builder().build().readTree(Files.readString(file));
      JsonNode valid = corpus.get("valid");
      if (valid == null) {
        continue;
      }
      int i = 0;
      for (JsonNode c : valid) {
        byte[] bson = HexFormat.of().parseHex(c.get("canonical_bson").asString());
        BsonDocument doc;
        try (BsonBinaryReader reader = new BsonBinaryReader(ByteBuffer.wrap(bson))) {
          doc = new BsonDocumentCodec().decode(reader, DecoderContext.builder().build());
        }
        BsonDocument withId =
            new BsonDocument("_id", new BsonString(file.getFileName() + "#" + i++));
        doc.forEach(
            (k, v) -> {
              if (!k.equals("_id")) {
                withId.put(k, v);
              }
            });
        try {
          coll.insertOne(withId);
          n++;
        } catch (RuntimeException refusedByTheServer) {
          // a key MongoDB does not store (e.g. one starting with $)
        }
      }
    }
    assertThat(n).isGreaterThan(100);
    Path out = dir.resolve("out");
    CliRun export =
        ExportCommandIT.export(
            server,
            db,
            "corpus",
            out,
            "--infer",
            "--compress",
            "columnar",
            "--max-rejects",
            "none");
    assertThat(export.exitCode()).as(export.toString()).isIn(0, 3);
    Path exported = ExportCommandIT.exported(out);
    Manifest m = Manifest.read(exported.resolve(Manifest.FILE_NAME));
    CliRun check = CliRun.of("check", out.toString());
    assertThat(check.exitCode()).as(check.toString()).isZero();
    unpackEveryShard(exported, m, dir.resolve("unpacked"));
  }

  /**
   * Unpacks every shard's copy into {@code into}: each the shard's bytes, as the manifest lists.
   */
  static void unpackEveryShard(Path exported, Manifest m, Path into) throws Exception {
    List<String> args = new ArrayList<>(List.of("unpack"));
    for (ArtifactFile shard : m.shards()) {
      args.add(exported.resolve(ColumnarCopy.copyName(shard.name())).toString());
    }
    args.addAll(List.of("--out", into.toString()));
    CliRun unpack = CliRun.of(args.toArray(String[]::new));
    assertThat(unpack.exitCode()).as(unpack.toString()).isZero();
    for (ArtifactFile shard : m.shards()) {
      Path rebuilt = into.resolve(shard.name());
      assertThat(rebuilt).hasSameBinaryContentAs(exported.resolve(shard.name()));
      assertThat(dev.flatdump.artifact.Checksums.sha256(rebuilt)).isEqualTo(shard.sha256());
      assertThat(unpack.out()).contains(rebuilt + ": rebuilt");
    }
  }
}
