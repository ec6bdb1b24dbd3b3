package dev.flatdump.source;

import com.mongodb.client.MongoCollection;
import org.bson.AbstractBsonReader.State;
import org.bson.BsonBinaryReader;
import org.bson.BsonReader;
import org.bson.BsonSerializationException;
import org.bson.BsonType;
import org.bson.BsonWriter;
import org.bson.RawBsonDocument;
import org.bson.codecs.Codec;
import org.bson.codecs.DecoderContext;
import org.bson.codecs.EncoderContext;
import org.bson.codecs.RawBsonDocumentCodec;
import org.bson.codecs.configuration.CodecRegistries;
import org.bson.io.BsonInput;
import org.bson.io.BsonInputMark;

/**
 * Reads each document of a reply into a {@link RawBsonDocument} of exactly its bytes, with one copy
 * out of the reply: into an array of its own, or into {@link DocumentBlocks} shared with the
 * documents before and after it. The driver's {@link RawBsonDocumentCodec} pipes every document
 * through a new {@code BsonBinaryWriter} into an output buffer it grows from nothing (three buffers
 * and the writer's state per document) for the same bytes. Readers other than a {@link
 * BsonBinaryReader} at a document value, and encoding, go to the driver's codec.
 */
final class RawDocumentCodec implements Codec<RawBsonDocument> {

  private static final RawBsonDocumentCodec DRIVER = new RawBsonDocumentCodec();

  /**
   * The largest document a reply can hold: MongoDB's 16 MiB limit on a stored document plus the 16
   * KiB it allows for its own use ({@code BSONObjMaxInternalSize}). A larger stated size is a
   * corrupt reply, refused before an array of that size is allocated for it.
   */
  static final int MAX_DOCUMENT_BYTES = (16 << 20) + (16 << 10);

  /** Where documents are copied to, or null for an array of its own each. */
  private final DocumentBlocks blocks;

  /** Each document into an array of its own. */
  RawDocumentCodec() {
    this(null);
  }

  /** Each document into {@code blocks}, or into an array of its own if null. */
  RawDocumentCodec(DocumentBlocks blocks) {
    this.blocks = blocks;
  }

  /** The collection, reading its documents through this codec, into {@code blocks} if not null. */
  static MongoCollection<RawBsonDocument> reading(
      MongoCollection<RawBsonDocument> collection, DocumentBlocks blocks) {
    return collection.withCodecRegistry(
        CodecRegistries.fromRegistries(
            CodecRegistries.fromCodecs(new RawDocumentCodec(blocks)),
            collection.getCodecRegistry()));
  }

  @Override
  public RawBsonDocument decode(BsonReader reader, DecoderContext decoderContext) {
    if (!(reader instanceof BsonBinaryReader binary)
        || binary.getState() != State.VALUE
        || binary.getCurrentBsonType() != BsonType.DOCUMENT) {
      return DRIVER.decode(reader, decoderContext);
    }
    BsonInput input = binary.getBsonInput();
    // The mark must hold over the whole document, whose size is not known yet.
    BsonInputMark start = input.getMark(Integer.MAX_VALUE);
    int size = input.readInt32();
    if (size < 5) {
      throw new BsonSerializationException(
          "Document size of " + size + " is less than the minimum of 5 bytes");
    }
    if (size > MAX_DOCUMENT_BYTES) {
      throw new BsonSerializationException(
          "Document size of "
              + size
              + " is more than the maximum of "
              + MAX_DOCUMENT_BYTES
              + " bytes a MongoDB reply can hold");
    }
    int at = blocks == null ? 0 : blocks.reserve(size);
    byte[] bytes = blocks == null ? new byte[size] : blocks.block();
    bytes[at] = (byte) size;
    bytes[at + 1] = (byte) (size >>> 8);
    bytes[at + 2] = (byte) (size >>> 16);
    bytes[at + 3] = (byte) (size >>> 24);
    input.readBytes(bytes, at + Integer.BYTES, size - Integer.BYTES);
    // Back to the document's start, so that the reader steps over it and expects the next element.
    start.reset();
    binary.skipValue();
    return new RawBsonDocument(bytes, at, size);
  }

  @Override
  public void encode(BsonWriter writer, RawBsonDocument value, EncoderContext encoderContext) {
    DRIVER.encode(writer, value, encoderContext);
  }

  @Override
  public Class<RawBsonDocument> getEncoderClass() {
    return RawBsonDocument.class;
  }
}
