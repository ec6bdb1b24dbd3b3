package dev.flatdump.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import dev.flatdump.testing.MongoDbExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(MongoDbExtension.class)
class MongoOrgSourceIT {

  private static BsonDocument org(BsonValue id, String name) {
    return new BsonDocument("_id", id)
        .append("name", new BsonString(name))
        .append("category", new BsonString("c"))
        .append("country", new BsonString("ES"))
        .append("type", new BsonString("FOO"))
        .append("attributes", new BsonArray());
  }

  /** Inserts orgs with _id 0..count-1 and names prefix0, prefix1, ...; returns them. */
  private static List<BsonDocument> insertOrgs(MongoDatabase db, int count, String prefix) {
    List<BsonDocument> docs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      docs.add(org(new BsonInt32(i), prefix + i));
    }
    db.getCollection("orgs", BsonDocument.class).insertMany(docs);
    return docs;
  }

  /**
   * Mixed _id types: the index orders them number < string < ObjectId; $gt would only compare
   * within a type.
   */
  private static List<BsonDocument> mixedIds() {
    List<BsonDocument> docs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      docs.add(org(new BsonInt32(i), "int" + i));
    }
    docs.add(org(new BsonInt64(100), "long100"));
    for (int i = 0; i < 5; i++) {
      docs.add(org(new BsonString("s" + i), "str" + i));
    }
    for (int i = 0; i < 5; i++) {
      docs.add(org(new BsonObjectId(new ObjectId(1_700_000_000 + i, 0)), "oid" + i));
    }
    return docs;
  }

  private static List<BsonValue> ids(MongoOrgSource source) {
    List<BsonValue> ids = new ArrayList<>();
    source.forEachRemaining(r -> ids.add(r.id()));
    return ids;
  }

  @Test
  void readsEveryDocumentInIdOrder(MongoDatabase db) {
    List<BsonDocument> docs = mixedIds();
    var coll = db.getCollection("orgs", BsonDocument.class);
    List<BsonDocument> reversed = new ArrayList<>(docs);
    java.util.Collections.reverse(reversed);
    coll.insertMany(reversed);
    try (var source =
        new MongoOrgSource(
            db.getCollection("orgs", RawBsonDocument.class),
            new BsonDocument(),
            null,
            MongoDocumentCursor.Settings.DEFAULTS)) {
      assertThat(ids(source))
          .containsExactlyElementsOf(docs.stream().map(d -> d.get("_id")).toList());
    }
  }

  @Test
  void cursorSaysWhatIsLeftOfItsBatch(MongoDatabase db) {
    insertOrgs(db, 12, "o");
    var settings = new MongoDocumentCursor.Settings(5, 0, Duration.ofMillis(10));
    try (var cursor =
        new MongoDocumentCursor(
            db.getCollection("orgs", RawBsonDocument.class), new BsonDocument(), null, settings)) {
      assertThat(cursor.readyWithoutWaiting()).isZero(); // not opened yet
      List<Integer> ready = new ArrayList<>();
      while (cursor.hasNext()) {
        ready.add(cursor.readyWithoutWaiting());
        cursor.next();
      }
      // batches of 5, 5 and 2: what hasNext has fetched, the document it holds included
      assertThat(ready).containsExactly(5, 4, 3, 2, 1, 5, 4, 3, 2, 1, 2, 1);
      assertThat(cursor.readyWithoutWaiting()).isZero();
    }
  }

  @Test
  void resumesAfterLastIdAcrossBsonTypes(MongoDatabase db) {
    List<BsonDocument> docs = mixedIds();
    db.getCollection("orgs", BsonDocument.class).insertMany(docs);
    for (int k = 0; k < docs.size(); k++) {
      BsonValue after = docs.get(k).get("_id");
      try (var source =
          new MongoOrgSource(
              db.getCollection("orgs", RawBsonDocument.class),
              new BsonDocument(),
              after,
              MongoDocumentCursor.Settings.DEFAULTS)) {
        assertThat(ids(source))
            .as("after " + after)
            .containsExactlyElementsOf(
                docs.subList(k + 1, docs.size()).stream().map(d -> d.get("_id")).toList());
      }
    }
  }

  @Test
  void reopensTheCursorWhenTheServerKillsIt(MongoClient client, MongoDatabase db) {
    List<BsonDocument> docs = insertOrgs(db, 50, "n");
    var settings = new MongoDocumentCursor.Settings(5, 3, Duration.ofMillis(10));
    try (var source =
        new MongoOrgSource(
            db.getCollection("orgs", RawBsonDocument.class), new BsonDocument(), null, settings)) {
      List<BsonValue> seen = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        seen.add(source.next().id());
      }
      killAllCursors(client, db);
      source.forEachRemaining(r -> seen.add(r.id()));
      assertThat(seen).containsExactlyElementsOf(docs.stream().map(d -> d.get("_id")).toList());
    }
  }

  private static void killAllCursors(MongoClient client, MongoDatabase db) {
    var admin = client.getDatabase("admin");
    var cursors =
        admin
            .aggregate(
                List.of(
                    new BsonDocument(
                        "$currentOp",
                        new BsonDocument("idleCursors", new org.bson.BsonBoolean(true))),
                    new BsonDocument(
                        "$match",
                        new BsonDocument("type", new BsonString("idleCursor"))
                            .append("ns", new BsonString(db.getName() + ".orgs")))),
                BsonDocument.class)
            .into(new ArrayList<>());
    assertThat(cursors).as("an idle cursor to kill").isNotEmpty();
    BsonArray ids = new BsonArray();
    cursors.forEach(c -> ids.add(c.getDocument("cursor").get("cursorId")));
    db.runCommand(new BsonDocument("killCursors", new BsonString("orgs")).append("cursors", ids));
  }

  @Test
  void rejectsDocumentsThatDoNotFitWithTheirReason(MongoDatabase db) {
    db.getCollection("orgs", BsonDocument.class)
        .insertMany(
            List.of(
                org(new BsonInt32(1), "good"),
                org(new BsonInt32(2), "bad").append("type", new BsonString("QUX")),
                org(new BsonInt32(3), "good2")));
    try (var source =
        new MongoOrgSource(
            db.getCollection("orgs", RawBsonDocument.class),
            new BsonDocument(),
            null,
            MongoDocumentCursor.Settings.DEFAULTS)) {
      List<SourceRecord> all = new ArrayList<>();
      source.forEachRemaining(all::add);
      assertThat(all).hasSize(3);
      assertThat(all.get(0)).isInstanceOf(SourceRecord.Accepted.class);
      assertThat(all.get(1))
          .isInstanceOfSatisfying(
              SourceRecord.Rejected.class,
              r -> {
                assertThat(r.reject().id()).isEqualTo(new BsonInt32(2));
                assertThat(r.reject().field()).isEqualTo("type");
                assertThat(r.reject().reason()).contains("QUX");
              });
      assertThat(all.get(2)).isInstanceOf(SourceRecord.Accepted.class);
    }
  }

  @Test
  void honoursTheQuery(MongoDatabase db) {
    db.getCollection("orgs", BsonDocument.class)
        .insertMany(
            List.of(
                org(new BsonInt32(1), "a"),
                org(new BsonInt32(2), "b"),
                org(new BsonInt32(3), "a")));
    try (var source =
        new MongoOrgSource(
            db.getCollection("orgs", RawBsonDocument.class),
            BsonDocument.parse("{\"name\": \"a\"}"),
            null,
            MongoDocumentCursor.Settings.DEFAULTS)) {
      assertThat(ids(source)).containsExactly(new BsonInt32(1), new BsonInt32(3));
    }
  }

  @Test
  void closedSourceRefusesToRead(MongoDatabase db) {
    var source =
        new MongoOrgSource(
            db.getCollection("orgs", RawBsonDocument.class),
            new BsonDocument(),
            null,
            MongoDocumentCursor.Settings.DEFAULTS);
    source.close();
    source.close();
    assertThatThrownBy(source::hasNext).isInstanceOf(IllegalStateException.class);
  }

  /**
   * The export's path: the cursor on a second thread copies documents into small blocks that the
   * decoding thread gives back as it goes, so the blocks are overwritten all along. Every record
   * must come out as decoding each document from bytes of its own gives it, and an {@code _id} that
   * is a document must survive its block being reused.
   */
  @Test
  void decodesTheSameThroughBlocksReusedByAnotherThread(MongoDatabase db) throws Exception {
    List<BsonDocument> docs = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      BsonValue id = i % 7 == 0 ? new BsonDocument("k", new BsonInt32(i)) : new BsonInt32(i);
      BsonArray attributes = new BsonArray();
      for (int a = 0; a < i % 5; a++) {
        attributes.add(
            new BsonDocument("id", new BsonString("a" + (i * 31 + a) % 97))
                // out of range in every 500th document: rejected
                .append("quantity", new BsonInt32(i % 500 == 1 ? 1000 : (i + a) % 100))
                .append("amount", new BsonInt32(a))
                .append("size", new BsonInt32(i % 300))
                .append("percent", new org.bson.BsonDouble(a / 3.0))
                .append("active", org.bson.BsonBoolean.valueOf(a % 2 == 0)));
      }
      docs.add(org(id, "name " + i + " " + "x".repeat(i % 40)).append("attributes", attributes));
    }
    docs.add(org(new BsonInt32(-1), "n".repeat(2000))); // larger than a block
    db.getCollection("orgs", BsonDocument.class).insertMany(docs);
    var collection = db.getCollection("orgs", RawBsonDocument.class);
    var settings = new MongoDocumentCursor.Settings(100, 0, Duration.ofMillis(10));

    List<SourceRecord> expected = new ArrayList<>();
    var decoder = new OrgRecordDecoder();
    try (var cursor = new MongoDocumentCursor(collection, new BsonDocument(), null, settings)) {
      cursor.forEachRemaining(d -> expected.add(decoder.decode(d)));
    }

    var blocks = new DocumentBlocks(1024);
    var cursor = new MongoDocumentCursor(collection, new BsonDocument(), null, settings, blocks);
    List<SourceRecord> records = new ArrayList<>();
    var blockDecoder = new OrgRecordDecoder();
    try (var ahead =
        new PrefetchingIterator<>(cursor, 64, RawDocument::size, 4096, "test-reader")) {
      while (ahead.hasNext()) {
        RawDocument document = ahead.next();
        blocks.reached(document);
        records.add(blockDecoder.decode(document));
      }
    }

    assertThat(expected).hasSize(docs.size());
    assertThat(expected).filteredOn(r -> r instanceof SourceRecord.Rejected).hasSize(6);
    assertThat(records).containsExactlyElementsOf(expected);
    // The cursor's checkpoint, an _id that is a document read from a reused block.
    assertThat(cursor.lastId()).isEqualTo(new BsonDocument("k", new BsonInt32(2996)));
    // Blocks came back and were filled again: without that, one for every ten documents or so.
    assertThat(blocks.allocated()).isLessThan(docs.size() / 50);
  }
}
