package dev.flatdump.source;

import static dev.flatdump.testing.BsonBytes.doc;
import static dev.flatdump.testing.BsonBytes.int32;
import static dev.flatdump.testing.BsonBytes.string;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Indexes;
import dev.flatdump.testing.MongoDbExtension;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What {@link IdOrderedFind} reads from a real mongod, and how. */
@ExtendWith(MongoDbExtension.class)
class IdOrderedFindIT {

  private static final BsonDocument ALL = new BsonDocument();

  private static MongoCollection<RawBsonDocument> collection(MongoDatabase db, String name) {
    return db.getCollection(name, RawBsonDocument.class);
  }

  /** {@code _id: i, v: i % 2}, inserted from the last to the first. */
  private static MongoCollection<RawBsonDocument> numbered(MongoDatabase db, String name, int n) {
    MongoCollection<RawBsonDocument> c = collection(db, name);
    List<RawBsonDocument> docs = new ArrayList<>();
    for (int i = n - 1; i >= 0; i--) {
      docs.add(RawBsonDocument.parse("{_id: " + i + ", v: " + (i % 2) + "}"));
    }
    c.insertMany(docs);
    return c;
  }

  private static List<BsonValue> ids(MongoCollection<RawBsonDocument> c, IdOrderedFind find) {
    List<BsonValue> ids = new ArrayList<>();
    try (MongoCursor<RawBsonDocument> cursor = find.open(c)) {
      cursor.forEachRemaining(d -> ids.add(d.get("_id")));
    }
    return ids;
  }

  @Test
  void readsTheMatchingDocumentsWholeAndInTheIdIndexsOrder(MongoDatabase db) {
    MongoCollection<RawBsonDocument> c = collection(db, "mixed");
    // a field given twice: a projection would hide the second, a whole document keeps it
    byte[] twice = doc(string("_id", "b"), int32("v", 0), int32("v", 1));
    c.insertMany(
        List.of(
            RawBsonDocument.parse("{_id: {x: 1}, v: 0}"),
            new RawBsonDocument(twice),
            RawBsonDocument.parse("{_id: 2, v: 1}"),
            RawBsonDocument.parse("{_id: 1, v: 0}")));

    List<byte[]> read = new ArrayList<>();
    try (MongoCursor<RawBsonDocument> cursor =
        IdOrderedFind.of(BsonDocument.parse("{v: 0}")).open(c)) {
      cursor.forEachRemaining(d -> read.add(bytes(d.getByteBuffer().asNIO())));
    }

    assertThat(read)
        .extracting(b -> new RawBsonDocument(b).get("_id"))
        .containsExactly(new BsonInt32(1), new BsonString("b"), BsonDocument.parse("{x: 1}"));
    assertThat(read.get(1)).isEqualTo(twice);
  }

  @Test
  void readsInBatchesOfTheSizeAskedOrOfTheServersOtherwise(MongoDatabase db) {
    MongoCollection<RawBsonDocument> c = numbered(db, "batches", 10);

    try (MongoCursor<RawBsonDocument> cursor = IdOrderedFind.of(ALL).withBatchSize(3).open(c)) {
      cursor.hasNext();
      assertThat(cursor.available()).isEqualTo(3);
    }
    try (MongoCursor<RawBsonDocument> cursor = IdOrderedFind.of(ALL).open(c)) {
      cursor.hasNext();
      assertThat(cursor.available()).as("the server's first batch holds 101").isEqualTo(10);
    }
  }

  @Test
  void readsARangeOfTheIdIndexFromItsStartInclusiveToItsEndExclusive(MongoDatabase db) {
    MongoCollection<RawBsonDocument> c = numbered(db, "ranges", 10);
    IdOrderedFind hinted = IdOrderedFind.of(ALL).withIdIndexHint();

    assertThat(ids(c, hinted.within(new IdRange(new BsonInt32(3), new BsonInt32(7)))))
        .containsExactly(new BsonInt32(3), new BsonInt32(4), new BsonInt32(5), new BsonInt32(6));
    assertThat(ids(c, hinted.within(new IdRange(new BsonInt32(8), null))))
        .containsExactly(new BsonInt32(8), new BsonInt32(9));
    assertThat(ids(c, hinted.within(new IdRange(null, new BsonInt32(2)))))
        .containsExactly(new BsonInt32(0), new BsonInt32(1));
    assertThat(
            ids(
                c,
                IdOrderedFind.of(BsonDocument.parse("{v: 1}"))
                    .withIdIndexHint()
                    .within(new IdRange(new BsonInt32(4), null))))
        .as("the query and the range both")
        .containsExactly(new BsonInt32(5), new BsonInt32(7), new BsonInt32(9));
  }

  @Test
  void walksTheIdIndexWhenHintedEvenWhereAnotherIndexServesTheQuery(MongoDatabase db) {
    MongoCollection<RawBsonDocument> c = numbered(db, "hinted", 10);
    c.createIndex(Indexes.ascending("v"));

    String plan =
        IdOrderedFind.of(BsonDocument.parse("{v: 1}"))
            .withIdIndexHint()
            .find(c)
            .explain(BsonDocument.class)
            .toJson();

    assertThat(plan).contains("\"_id_\"").doesNotContain("\"v_1\"");
  }

  @Test
  void streamsEachDocumentsBytesInOrderAndClosesTheCursorWithTheStream(
      MongoClient client, MongoDatabase db) {
    MongoCollection<RawBsonDocument> c = numbered(db, "streamed", 10);

    List<BsonValue> ids = new ArrayList<>();
    try (Stream<ByteBuffer> documents = IdOrderedFind.of(ALL).withBatchSize(2).documents(c)) {
      documents.limit(3).forEach(b -> ids.add(new RawBsonDocument(bytes(b)).get("_id")));
      assertThat(openCursors(client, db, "streamed")).isEqualTo(1);
    }

    assertThat(ids).containsExactly(new BsonInt32(0), new BsonInt32(1), new BsonInt32(2));
    assertThat(openCursors(client, db, "streamed")).as("closed with the stream").isZero();
  }

  /** The server's idle cursors on {@code collection}: those open between two batches. */
  private static int openCursors(MongoClient client, MongoDatabase db, String collection) {
    List<BsonDocument> pipeline =
        List.of(
            BsonDocument.parse("{$currentOp: {idleCursors: true}}"),
            new BsonDocument(
                "$match",
                new BsonDocument("type", new BsonString("idleCursor"))
                    .append("ns", new BsonString(db.getName() + "." + collection))));
    return client
        .getDatabase("admin")
        .aggregate(pipeline, BsonDocument.class)
        .into(new ArrayList<>())
        .size();
  }

  private static byte[] bytes(ByteBuffer b) {
    return Arrays.copyOfRange(
        b.array(), b.arrayOffset() + b.position(), b.arrayOffset() + b.limit());
  }
}
