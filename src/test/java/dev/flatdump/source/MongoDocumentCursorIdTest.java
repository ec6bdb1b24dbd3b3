package dev.flatdump.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

/**
 * {@link MongoDocumentCursor#id}: the {@code _id} the cursor resumes after, read from the bytes for
 * a leading ObjectId and by {@link RawBsonDocument#get} otherwise; both ways must agree.
 */
class MongoDocumentCursorIdTest {

  private static final ObjectId OID = new ObjectId("65a1b2c3d4e5f60718293a4b");

  private static RawBsonDocument raw(BsonDocument document) {
    return new RawBsonDocument(document, new BsonDocumentCodec());
  }

  @Test
  void aLeadingObjectIdIsReadFromTheBytes() {
    RawBsonDocument doc =
        raw(new BsonDocument("_id", new BsonObjectId(OID)).append("n", BsonNull.VALUE));
    assertThat(MongoDocumentCursor.id(doc)).isEqualTo(new BsonObjectId(OID));
    // the smallest such document: the id and nothing after it
    RawBsonDocument only = raw(new BsonDocument("_id", new BsonObjectId(OID)));
    assertThat(only.getByteBuffer().remaining()).isEqualTo(22);
    assertThat(MongoDocumentCursor.id(only)).isEqualTo(new BsonObjectId(OID));
  }

  @Test
  void aDocumentInsideALargerArrayIsReadAtItsOwnOffset() {
    byte[] bytes = raw(new BsonDocument("_id", new BsonObjectId(OID))).getByteBuffer().array();
    byte[] padded = new byte[bytes.length + 10];
    Arrays.fill(padded, (byte) 0x07);
    System.arraycopy(bytes, 0, padded, 7, bytes.length);
    RawBsonDocument doc = new RawBsonDocument(padded, 7, bytes.length);
    assertThat(MongoDocumentCursor.id(doc)).isEqualTo(new BsonObjectId(OID));
  }

  @Test
  void everyOtherShapeAgreesWithTheDriver() {
    List<BsonDocument> documents =
        List.of(
            new BsonDocument("_id", new BsonInt32(7)),
            new BsonDocument("_id", new BsonInt64(7)),
            new BsonDocument("_id", new BsonString("an id of twelve")),
            new BsonDocument("_id", new BsonDocument("a", new BsonObjectId(OID))),
            new BsonDocument("name", new BsonString("x")).append("_id", new BsonObjectId(OID)),
            new BsonDocument("_ie", new BsonObjectId(OID)).append("_id", new BsonInt32(1)),
            new BsonDocument("_i", new BsonObjectId(OID)),
            new BsonDocument("_idx", new BsonObjectId(OID)),
            new BsonDocument("name", new BsonString("no id")),
            new BsonDocument());
    for (BsonDocument document : documents) {
      RawBsonDocument doc = raw(document);
      BsonValue expected = document.get("_id");
      assertThat(MongoDocumentCursor.id(doc)).as(document.toJson()).isEqualTo(expected);
      assertThat(MongoDocumentCursor.id(doc)).as(document.toJson()).isEqualTo(doc.get("_id"));
    }
  }
}
