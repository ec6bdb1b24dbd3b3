package dev.flatdump.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonArray;
import org.bson.BsonBinaryReader;
import org.bson.BsonDocument;
import org.bson.BsonDocumentReader;
import org.bson.BsonInt32;
import org.bson.BsonSerializationException;
import org.bson.BsonString;
import org.bson.BsonType;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.bson.codecs.RawBsonDocumentCodec;
import org.junit.jupiter.api.Test;

class RawDocumentCodecTest {

  private static final DecoderContext CONTEXT = DecoderContext.builder().build();

  private static BsonDocument org(int i) {
    return new BsonDocument("_id", new BsonInt32(i))
        .append("name", new BsonString("org " + i))
        .append(
            "attributes",
            new BsonArray(
                List.of(new BsonDocument("id", new BsonString("490154203237518-9638507" + i)))));
  }

  /** A reply's shape: documents in an array, with fields before and after it. */
  private static byte[] reply(List<BsonDocument> documents) {
    var reply =
        new BsonDocument("id", new BsonInt32(7))
            .append("nextBatch", new BsonArray(new ArrayList<>(documents)))
            .append("ns", new BsonString("db.collection"));
    ByteBuffer bytes = new RawBsonDocument(reply, new BsonDocumentCodec()).getByteBuffer().asNIO();
    byte[] copy = new byte[bytes.remaining()];
    bytes.get(copy);
    return copy;
  }

  /** Reads the reply's array with a codec, then the field after it: the reader must be in step. */
  private static List<RawBsonDocument> readBatch(
      byte[] reply, org.bson.codecs.Decoder<RawBsonDocument> codec) {
    List<RawBsonDocument> batch = new ArrayList<>();
    try (var reader = new BsonBinaryReader(ByteBuffer.wrap(reply))) {
      reader.readStartDocument();
      assertThat(reader.readInt32("id")).isEqualTo(7);
      reader.readName("nextBatch");
      reader.readStartArray();
      while (reader.readBsonType() != BsonType.END_OF_DOCUMENT) {
        batch.add(codec.decode(reader, CONTEXT));
      }
      reader.readEndArray();
      assertThat(reader.readString("ns")).isEqualTo("db.collection");
      reader.readEndDocument();
    }
    return batch;
  }

  @Test
  void readsEachDocumentOfABatchAsTheDriversCodecDoesAndKeepsTheReaderInStep() {
    List<BsonDocument> documents = List.of(org(1), org(2), new BsonDocument(), org(3));
    byte[] reply = reply(documents);

    List<RawBsonDocument> ours = readBatch(reply, new RawDocumentCodec());
    List<RawBsonDocument> drivers = readBatch(reply, new RawBsonDocumentCodec());

    assertThat(ours).isEqualTo(documents).isEqualTo(drivers);
    for (int i = 0; i < ours.size(); i++) {
      ByteBuffer own = ours.get(i).getByteBuffer().asNIO();
      assertThat(own.remaining()).isEqualTo(own.capacity()); // exactly its bytes, no slack
      assertThat(own).isEqualTo(drivers.get(i).getByteBuffer().asNIO());
    }
  }

  @Test
  void readsABatchIntoSharedBlocksWithTheSameBytes() {
    List<BsonDocument> documents = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      documents.add(org(i));
    }
    documents.add(
        org(99).append("padding", new BsonString("x".repeat(1100)))); // larger than a block
    documents.add(org(100));
    byte[] reply = reply(documents);
    var blocks = new DocumentBlocks(1024);

    List<RawBsonDocument> ours = readBatch(reply, new RawDocumentCodec(blocks));
    List<RawBsonDocument> drivers = readBatch(reply, new RawBsonDocumentCodec());

    assertThat(ours).isEqualTo(documents).isEqualTo(drivers);
    for (int i = 0; i < ours.size(); i++) {
      assertThat(ours.get(i).getByteBuffer().asNIO())
          .isEqualTo(drivers.get(i).getByteBuffer().asNIO());
    }
    // Several documents to a block, one after the other.
    ByteBuffer first = ours.get(0).getByteBuffer().asNIO();
    ByteBuffer second = ours.get(1).getByteBuffer().asNIO();
    assertThat(second.array()).isSameAs(first.array()).hasSize(1024);
    assertThat(second.arrayOffset() + second.position())
        .isEqualTo(first.arrayOffset() + first.position() + first.remaining());
    // The large one has an array of its own, exactly its size.
    ByteBuffer large = ours.get(40).getByteBuffer().asNIO();
    assertThat(large.array()).hasSize(large.remaining());
    // About 90 bytes each, so ten to a block; nothing was given back.
    assertThat(blocks.allocated()).isBetween(5L, 7L);
  }

  @Test
  void refusesASizeUnderFiveBytes() {
    byte[] reply = reply(List.of(org(1)));
    sayFirstDocumentSize(reply, 4);

    assertThatThrownBy(() -> readBatch(reply, new RawDocumentCodec()))
        .isInstanceOf(BsonSerializationException.class)
        .hasMessageContaining("less than the minimum of 5 bytes");
  }

  @Test
  void refusesASizeNoReplyCanHoldBeforeAllocatingForIt() {
    byte[] reply = reply(List.of(org(1)));
    sayFirstDocumentSize(reply, Integer.MAX_VALUE);

    // Without the check: an OutOfMemoryError for an array of 2 GiB, not this exception.
    for (RawDocumentCodec codec :
        List.of(new RawDocumentCodec(), new RawDocumentCodec(new DocumentBlocks(1024)))) {
      assertThatThrownBy(() -> readBatch(reply, codec))
          .isInstanceOf(BsonSerializationException.class)
          .hasMessageContaining("is more than the maximum of 16793600 bytes");
    }
  }

  @Test
  void refusesADocumentLongerThanTheBytesLeft() {
    byte[] reply = reply(List.of(org(1)));
    sayFirstDocumentSize(reply, reply.length);

    assertThatThrownBy(() -> readBatch(reply, new RawDocumentCodec()))
        .isInstanceOf(BsonSerializationException.class);
  }

  @Test
  void leavesOtherReadersToTheDriversCodec() {
    BsonDocument document = org(5);
    try (var reader = new BsonDocumentReader(document)) {
      assertThat(new RawDocumentCodec().decode(reader, CONTEXT)).isEqualTo(document);
    }
    try (var reader = new BsonBinaryReader(ByteBuffer.wrap(reply(List.of(document))))) {
      // a whole top-level document, not a value in an array
      assertThat(new RawDocumentCodec().decode(reader, CONTEXT))
          .isEqualTo(
              new BsonDocument("id", new BsonInt32(7))
                  .append("nextBatch", new BsonArray(List.of(document)))
                  .append("ns", new BsonString("db.collection")));
    }
    assertThat(new RawDocumentCodec().getEncoderClass()).isEqualTo(RawBsonDocument.class);
  }

  /** Overwrites the size that the first document of the reply's array states. */
  private static void sayFirstDocumentSize(byte[] reply, int size) {
    ByteBuffer.wrap(reply).order(ByteOrder.LITTLE_ENDIAN).putInt(firstDocumentAt(reply), size);
  }

  /** Where the first document of the reply's array starts (its size). */
  private static int firstDocumentAt(byte[] reply) {
    try (var reader = new BsonBinaryReader(ByteBuffer.wrap(reply))) {
      reader.readStartDocument();
      reader.readInt32("id");
      reader.readName("nextBatch");
      reader.readStartArray();
      reader.readBsonType(); // in an array, this reads the element's name ("0") too
      return reader.getBsonInput().getPosition();
    }
  }
}
