package dev.flatdump.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link IdBoundaries} and range-bounded {@link MongoDocumentCursor}s against a real mongod. */
@ExtendWith(MongoDbExtension.class)
class IdBoundariesIT {

  @Test
  void cutsIntoRangesOfEqualCountsThatTheCursorReadsWithoutGapOrOverlap(MongoServer server) {
    try (MongoClient client = MongoClients.create(server.uri())) {
      MongoCollection<RawBsonDocument> c = collection(client, "boundaries_ints");
      List<RawBsonDocument> docs = new ArrayList<>();
      for (int i = 999; i >= 0; i--) { // inserted out of order: the cut follows the index
        docs.add(RawBsonDocument.parse("{_id: " + i + ", v: " + (i % 7) + "}"));
      }
      c.insertMany(docs);

      List<IdRange> ranges = IdBoundaries.split(c, new BsonDocument(), 4, 1000);
      assertThat(ranges)
          .containsExactly(
              new IdRange(null, new BsonInt32(250)),
              new IdRange(new BsonInt32(250), new BsonInt32(500)),
              new IdRange(new BsonInt32(500), new BsonInt32(750)),
              new IdRange(new BsonInt32(750), null));
      List<BsonValue> read = new ArrayList<>();
      for (IdRange r : ranges) {
        List<BsonValue> ids = ids(c, new BsonDocument(), r);
        assertThat(ids).as("%s", r).hasSize(250);
        read.addAll(ids);
      }
      assertThat(read).isEqualTo(ids(c, new BsonDocument(), IdRange.ALL));

      assertThat(IdBoundaries.split(c, new BsonDocument(), 1, 1000)).containsExactly(IdRange.ALL);

      // a query: the cut counts only what it matches
      BsonDocument query = BsonDocument.parse("{v: 0}");
      long matching = c.countDocuments(query);
      List<IdRange> some = IdBoundaries.split(c, query, 3, matching);
      List<BsonValue> bySome = new ArrayList<>();
      for (IdRange r : some) {
        List<BsonValue> ids = ids(c, query, r);
        assertThat((long) ids.size()).isBetween(matching / 3, matching / 3 + 1);
        bySome.addAll(ids);
      }
      assertThat(bySome).isEqualTo(ids(c, query, IdRange.ALL));
    }
  }

  @Test
  void fewerDocumentsThanRangesLeaveEmptyRanges(MongoServer server) {
    try (MongoClient client = MongoClients.create(server.uri())) {
      MongoCollection<RawBsonDocument> c = collection(client, "boundaries_few");
      c.insertMany(
          List.of(
              RawBsonDocument.parse("{_id: 'b'}"),
              RawBsonDocument.parse("{_id: 1}"),
              RawBsonDocument.parse("{_id: {x: 1}}")));
      // the estimate says 5; 3 are there
      List<IdRange> ranges = IdBoundaries.split(c, new BsonDocument(), 8, 5);
      assertThat(ranges).hasSize(8);
      List<BsonValue> read = new ArrayList<>();
      int empty = 0;
      for (IdRange r : ranges) {
        List<BsonValue> ids = ids(c, new BsonDocument(), r);
        empty += ids.isEmpty() ? 1 : 0;
        read.addAll(ids);
      }
      assertThat(read)
          .containsExactly(new BsonInt32(1), new BsonString("b"), BsonDocument.parse("{x: 1}"));
      assertThat(empty).isGreaterThanOrEqualTo(5);
      assertThat(ranges.get(7)).isEqualTo(IdRange.EMPTY);

      MongoCollection<RawBsonDocument> none = collection(client, "boundaries_none");
      none.insertOne(RawBsonDocument.parse("{_id: 1}"));
      none.deleteMany(new BsonDocument());
      assertThat(IdBoundaries.split(none, new BsonDocument(), 3, 0))
          .containsExactly(IdRange.ALL, IdRange.EMPTY, IdRange.EMPTY);
    }
  }

  private static MongoCollection<RawBsonDocument> collection(MongoClient client, String name) {
    MongoCollection<RawBsonDocument> c =
        client.getDatabase("flatdump_it").getCollection(name, RawBsonDocument.class);
    c.drop();
    return c;
  }

  private static List<BsonValue> ids(
      MongoCollection<RawBsonDocument> c, BsonDocument query, IdRange range) {
    List<BsonValue> ids = new ArrayList<>();
    try (MongoDocumentCursor cursor =
        new MongoDocumentCursor(
            c, query, range, null, MongoDocumentCursor.Settings.DEFAULTS, null)) {
      while (cursor.hasNext()) {
        ids.add(cursor.next().id());
      }
    }
    return ids;
  }
}
