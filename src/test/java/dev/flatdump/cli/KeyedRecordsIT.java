package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.reader.BinarySchema;
import dev.flatdump.reader.ExportManifest;
import dev.flatdump.reader.ExportReader;
import dev.flatdump.reader.GenericRecords;
import dev.flatdump.reader.Snapshot;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The records keyed by {@code _id}'s field ({@code (key)}): MongoDB's {@code _id} order is the
 * key's order for {@code _id}s of one BSON type (strings by their bytes, integers by value,
 * ObjectIds as their hex), so the export writes them as they come, {@code check} finds every shard
 * sorted, and an {@code _id} of another type, out of that order, is rejected.
 */
@ExtendWith(MongoDbExtension.class)
class KeyedRecordsIT {

  private static final String STRING_KEY =
      """
      attribute "bson";
      table R { id: string (bson: "_id", key); n: int; }
      table Rs { rs: [R]; }
      root_type Rs;
      """;

  @Test
  void idsOfOneTypeAreInKeyOrderAndCheckFindsEveryShardSorted(
      MongoServer server, MongoDatabase db, @TempDir Path dir) throws Exception {
    List<BsonValue> strings = new ArrayList<>();
    for (String s : List.of("b", "a", "Z", "é", "e", "ab", "", "a\u0000b", "日本", "zz", "~")) {
      strings.add(new BsonString(s));
    }
    for (int i = 0; i < 300; i++) {
      strings.add(new BsonString("k" + (i * 7919 % 1000)));
    }
    List<BsonValue> objectIds = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      objectIds.add(new BsonObjectId(new ObjectId((i * 7919) % 100_000, i)));
    }
    List<BsonValue> integers = new ArrayList<>();
    for (long v : new long[] {-5_000_000_000L, -1, 0, 7, Integer.MAX_VALUE, 5_000_000_000L}) {
      integers.add(
          v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE
              ? new BsonInt32((int) v)
              : new BsonInt64(v));
    }
    for (int i = 0; i < 300; i++) {
      integers.add(new BsonInt32(i * 7919 % 100_000 + 10));
    }
    Path strKey = Files.writeString(dir.resolve("s.fbs"), STRING_KEY);
    Path longKey =
        Files.writeString(dir.resolve("l.fbs"), STRING_KEY.replace("id: string", "id: long"));

    assertKeyed(server, db, dir, "strings", strings, strKey, 0);
    assertKeyed(server, db, dir, "objectids", objectIds, strKey, 0);
    assertKeyed(server, db, dir, "integers", integers, longKey, 0);

    // MongoDB orders strings before ObjectIds: as hex strings, these ObjectIds come before "~"
    List<BsonValue> mixed = new ArrayList<>(List.of(new BsonString("~"), new BsonString("x")));
    mixed.add(new BsonObjectId(new ObjectId(1, 1)));
    mixed.add(new BsonObjectId(new ObjectId(2, 2)));
    CliRun rejected = assertKeyed(server, db, dir, "mixed", mixed, strKey, 2);
    String rejects =
        Files.readString(ExportCommandIT.exported(dir.resolve("mixed")).resolve("rejects.jsonl"));
    assertThat(rejects)
        .contains("\"field\": \"_id\"")
        .contains("not after the previous record's in the order of the records' key id");
    assertThat(rejected.exitCode()).isEqualTo(3);
  }

  /**
   * A key on another field than {@code _id}'s: each shard's records are sorted by it at export
   * (equal keys in the documents' order), whatever order the cursor gives; {@code check} finds
   * every shard sorted, {@code verify} expects each shard sorted, and the reader finds a record for
   * every key, in partitions too (whose shards' ranges overlap).
   */
  @Test
  void aKeyOnAnotherFieldIsSortedWithinEachShard(
      MongoServer server, MongoDatabase db, @TempDir Path dir) throws Exception {
    List<BsonDocument> docs = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      String name = "n" + (i * 7919 % 450); // 450 names, some twice, in no order of the _id's
      docs.add(
          new BsonDocument("_id", new BsonInt32(i))
              .append("name", new BsonString(name))
              .append("rank", new BsonInt64((i * 104729L) % 1000 - 500)));
    }
    db.getCollection("named", BsonDocument.class).insertMany(docs);
    for (String key : List.of("name", "rank")) {
      String text =
          "attribute \"bson\";\n"
              + "table R { id: int (bson: \"_id\"); name: string"
              + (key.equals("name") ? " (key)" : " (required)")
              + "; rank: long"
              + (key.equals("rank") ? " (key)" : "")
              + "; }\ntable Rs { rs: [R]; }\nroot_type Rs;\n";
      Path schema = Files.writeString(dir.resolve(key + ".fbs"), text);
      for (String partitions : List.of("1", "3")) {
        Path out = dir.resolve(key + "-" + partitions);
        CliRun export =
            ExportCommandIT.export(
                server,
                db,
                "named",
                out,
                "--schema",
                schema.toString(),
                "--strict",
                "--compress",
                "none",
                "--shard-size",
                "4KiB",
                "--partitions",
                partitions);
        assertThat(export.exitCode()).as(export.toString()).isZero();
        CliRun check = CliRun.of("check", out.toString());
        assertThat(check.exitCode()).as(check.toString()).isZero();
        CliRun verify = ExportCommandIT.verify(server, db, "named", out);
        assertThat(verify.exitCode()).as("%s, partitions %s: %s", key, partitions, verify).isZero();
        try (ExportReader reader = ExportReader.open(out);
            Snapshot s = reader.snapshot()) {
          assertThat(s.shardCount()).isGreaterThan(2);
          GenericRecords json =
              GenericRecords.of(
                  BinarySchema.read(
                      java.nio.ByteBuffer.wrap(
                          Files.readAllBytes(
                              s.directory().resolve(s.manifest().binarySchemaFile())))));
          for (BsonDocument d : docs) {
            long at =
                key.equals("name")
                    ? s.locate(d.getString("name").getValue())
                    : s.locate(d.getInt64("rank").getValue());
            assertThat(at).as("%s of _id %s", key, d.get("_id")).isNotNegative();
            String record = json.jsonAt(s.shard(Snapshot.shardOf(at)), Snapshot.tableOf(at));
            assertThat(record)
                .contains(
                    key.equals("name")
                        ? "\"name\":\"" + d.getString("name").getValue() + "\""
                        : "\"rank\":" + d.getInt64("rank").getValue());
          }
          assertThat(key.equals("name") ? s.locate("zz") : s.locate(10_000L)).isEqualTo(-1);
        }
      }
    }
  }

  /**
   * {@code _id}s of two types in partitions: which documents are out of the key's order depends on
   * where shards and partitions begin (each partition writes its own shards), and {@code verify}
   * follows the export's shards to expect exactly the rejects the export made.
   */
  @Test
  void mixedIdTypesInPartitionsRejectWhatVerifyExpects(
      MongoServer server, MongoDatabase db, @TempDir Path dir) throws Exception {
    List<BsonDocument> docs = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      docs.add(
          new BsonDocument("_id", new BsonString("x" + (1000 + i))).append("n", new BsonInt32(i)));
    }
    for (int i = 0; i < 400; i++) {
      docs.add(
          new BsonDocument("_id", new BsonObjectId(new ObjectId(i + 1000, i)))
              .append("n", new BsonInt32(i)));
    }
    db.getCollection("mixedparts", BsonDocument.class).insertMany(docs);
    Path schema = Files.writeString(dir.resolve("s.fbs"), STRING_KEY);
    for (String partitions : List.of("1", "4")) {
      Path out = dir.resolve("mixed-" + partitions);
      CliRun export =
          ExportCommandIT.export(
              server,
              db,
              "mixedparts",
              out,
              "--schema",
              schema.toString(),
              "--strict",
              "--compress",
              "none",
              "--shard-size",
              "4KiB",
              "--max-rejects",
              "none",
              "--partitions",
              partitions);
      assertThat(export.exitCode()).as(export.toString()).isEqualTo(3);
      Manifest m = Manifest.read(ExportCommandIT.exported(out).resolve(Manifest.FILE_NAME));
      assertThat(m.counts().rejected()).as("partitions %s", partitions).isPositive();
      CliRun verify = ExportCommandIT.verify(server, db, "mixedparts", out);
      assertThat(verify.exitCode()).as("partitions %s: %s", partitions, verify).isZero();
      CliRun check = CliRun.of("check", out.toString());
      assertThat(check.exitCode()).as(check.toString()).isZero();
    }
  }

  /**
   * The reader finds every exported record by its {@code _id} (an ObjectId by its hex), in the
   * shard whose manifest range holds it, and nothing for an id no document has.
   */
  private static void assertLookups(Path out, List<BsonValue> ids, int rejects) {
    try (ExportReader reader = ExportReader.open(out);
        Snapshot s = reader.snapshot()) {
      assertThat(s.keyed()).isTrue();
      int found = 0;
      for (BsonValue id : ids) {
        long at =
            switch (id.getBsonType()) {
              case STRING -> s.locate(id.asString().getValue());
              case OBJECT_ID -> s.locate(id.asObjectId().getValue().toHexString());
              case INT32 -> s.locate(id.asInt32().getValue());
              default -> s.locate(id.asInt64().getValue());
            };
        if (at >= 0) {
          found++;
          ExportManifest.Shard shard = s.manifest().shards().get(Snapshot.shardOf(at));
          assertThat(shard.firstKey()).as("%s's shard has a range", id).isNotNull();
        }
      }
      assertThat(found).as("records found by their _id").isEqualTo(ids.size() - rejects);
      boolean strings = s.manifest().lookup().stringKey();
      assertThat(strings ? s.locate("no such id") : s.locate(-123_456_789L)).isEqualTo(-1);
    }
  }

  private static CliRun assertKeyed(
      MongoServer server,
      MongoDatabase db,
      Path dir,
      String coll,
      List<BsonValue> ids,
      Path schema,
      int rejects)
      throws Exception {
    List<BsonDocument> docs = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      docs.add(new BsonDocument("_id", ids.get(i)).append("n", new BsonInt32(i)));
    }
    db.getCollection(coll, BsonDocument.class).insertMany(docs);
    Path out = dir.resolve(coll);
    CliRun export =
        ExportCommandIT.export(
            server,
            db,
            coll,
            out,
            "--schema",
            schema.toString(),
            "--strict",
            "--compress",
            "none",
            "--shard-size",
            "4KiB",
            "--max-rejects",
            "none");
    assertThat(export.exitCode()).as(export.toString()).isEqualTo(rejects == 0 ? 0 : 3);
    Manifest m = Manifest.read(ExportCommandIT.exported(out).resolve(Manifest.FILE_NAME));
    assertThat(m.counts().rejected()).as(coll).isEqualTo(rejects);
    assertThat(m.shards().size())
        .as("several shards, each sorted on its own")
        .isGreaterThan(rejects == 0 ? 1 : 0);
    assertLookups(out, ids, rejects);
    CliRun check = CliRun.of("check", out.toString());
    assertThat(check.exitCode()).as(check.toString()).isZero();
    CliRun verify = ExportCommandIT.verify(server, db, coll, out);
    assertThat(verify.exitCode()).as(verify.toString()).isZero();
    return export;
  }
}
