package dev.flatdump.cli;

import static dev.flatdump.testing.BsonBytes.bool;
import static dev.flatdump.testing.BsonBytes.int32;
import static dev.flatdump.testing.BsonBytes.raw;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.faults.PrivateMongod;
import dev.flatdump.source.MongoDocumentCursor;
import dev.flatdump.source.RawDocument;
import dev.flatdump.testing.BsonBytes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mongod started with {@code net.wireObjectCheck: false} stores BSON the driver cannot read, such
 * as a bool of 2, as the {@code _id} or in a field the schema skips. Such a document is rejected,
 * the field named, and the export goes on; {@code verify} agrees and does not fail.
 */
class UncheckedServerIT {

  @Test
  void boolsOfTwoAreRejectedTheIdNamedAndTheExportGoesOn(@TempDir Path tmp) throws Exception {
    try (PrivateMongod mongod = unchecked(tmp)) {
      String uri = "mongodb://127.0.0.1:" + mongod.port();
      try (MongoClient client = MongoClients.create(uri)) {
        var coll = client.getDatabase("unchecked").getCollection("c", RawBsonDocument.class);
        coll.insertOne(raw(int32("_id", 1), int32("n", 1)));
        coll.insertOne(raw(bool("_id", 2), int32("n", 2)));
        coll.insertOne(raw(int32("_id", 3), int32("n", 3)));
        coll.insertOne(raw(int32("_id", 4), int32("n", 4), bool("skipped", 2)));
      }
      Path schema = tmp.resolve("r.fbs");
      Files.writeString(schema, "table R { n: int; } table Root { rs: [R]; } root_type Root;");
      Path out = tmp.resolve("out");
      List<String> target = List.of("--uri", uri, "--db", "unchecked", "--collection", "c");

      CliRun export =
          CliRun.of(
              concat(
                  List.of("export"),
                  target,
                  List.of(
                      "--out",
                      out.toString(),
                      "--schema",
                      schema.toString(),
                      "--compress",
                      "none",
                      "--max-rejects",
                      "none")));
      CliRun verify = CliRun.of(concat(List.of("verify"), target, List.of(out.toString())));

      assertThat(export.exitCode()).as(export.toString()).isEqualTo(Flatdump.EXIT_REJECTS);
      assertThat(export.err()).doesNotContain("Exception");
      assertThat(Files.readString(OutputLayout.resolve(out).resolve("rejects.jsonl")))
          .isEqualTo( // numbers come before bools in _id order
              "{\"_id\": 4, \"field\": \"skipped\", \"reason\": \"malformed BSON: a bool holds"
                  + " 2\"}\n"
                  + "{\"_id\": null, \"field\": \"_id\", \"reason\": \"malformed BSON: Expected a"
                  + " boolean value but found 2\"}\n");
      CliRun check = CliRun.of("check", out.toString());
      assertThat(check.out()).as(check.toString()).contains("2 records, no problems");
      assertThat(verify.exitCode()).as(verify.toString()).isZero();
    }
  }

  /**
   * A cursor lost right after a document whose {@code _id} cannot be read resumes after the last
   * {@code _id} it could read, and does not return that document twice.
   */
  @Test
  void aResumedCursorDoesNotReturnAnUnreadableIdTwice(@TempDir Path tmp) throws Exception {
    try (PrivateMongod mongod = unchecked(tmp);
        MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + mongod.port())) {
      var coll = client.getDatabase("unchecked").getCollection("c", RawBsonDocument.class);
      coll.insertOne(raw(int32("_id", 1)));
      coll.insertOne(raw(bool("_id", 2)));
      coll.insertOne( // in _id order: numbers, bools, dates
          raw(BsonBytes.element(0x09, "_id", BsonBytes.concat(BsonBytes.le32(7), new byte[4]))));
      List<String> read = new ArrayList<>();
      try (var cursor =
          new MongoDocumentCursor(
              coll,
              new BsonDocument(),
              null,
              new MongoDocumentCursor.Settings(1, 5, java.time.Duration.ZERO))) {
        read.add(describe(cursor.next()));
        read.add(describe(cursor.next()));
        killCursors(client);
        while (cursor.hasNext()) {
          read.add(describe(cursor.next()));
        }
      }

      assertThat(read).containsExactly("INT32", "unreadable", "DATE_TIME");
    }
  }

  /** A mongod of this test's own that stores what it is sent, unchecked. */
  private static PrivateMongod unchecked(Path tmp) throws Exception {
    Path config = tmp.resolve("mongod.yaml");
    Files.writeString(config, "net:\n  wireObjectCheck: false\n");
    return PrivateMongod.start(
        tmp.resolve("mongod"), Map.of("FLATDUMP_MONGOD_CONFIG", config.toString()));
  }

  private static String describe(RawDocument d) {
    return d.id() != null ? d.id().getBsonType().toString() : "unreadable";
  }

  /** Kills every cursor open on unchecked.c, as a server that lost them would. */
  private static void killCursors(MongoClient client) {
    List<BsonInt64> ids = new ArrayList<>();
    for (BsonDocument op :
        client
            .getDatabase("admin")
            .aggregate(
                List.of(
                    new BsonDocument(
                        "$currentOp",
                        new BsonDocument("idleCursors", BsonBoolean.TRUE)
                            .append("allUsers", BsonBoolean.TRUE)),
                    new BsonDocument(
                        "$match", new BsonDocument("ns", new BsonString("unchecked.c")))),
                BsonDocument.class)) {
      if (op.containsKey("cursor")) {
        ids.add(op.getDocument("cursor").getInt64("cursorId"));
      }
    }
    assertThat(ids).as("an open cursor").isNotEmpty();
    client
        .getDatabase("unchecked")
        .runCommand(
            new BsonDocument("killCursors", new BsonString("c"))
                .append("cursors", new BsonArray(new ArrayList<>(ids))));
  }

  @SafeVarargs
  private static String[] concat(List<String>... parts) {
    return java.util.Arrays.stream(parts).flatMap(List::stream).toArray(String[]::new);
  }
}
