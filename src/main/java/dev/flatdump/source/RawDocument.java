package dev.flatdump.source;

import java.util.Objects;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;

/**
 * One document as the cursor read it, not decoded yet: its {@code _id} (null if it has none; it is
 * then rejected), its bytes, and how many there are. Read through {@link DocumentBlocks}, the bytes
 * are valid only until the decoding thread {@linkplain DocumentBlocks#reached reaches} a document
 * in another block.
 */
public final class RawDocument {

  private final BsonValue id;
  private final String idProblem;
  private final RawBsonDocument bson;
  private final int size;
  private final byte[] block;

  /**
   * @param id its {@code _id}, or null
   * @param bson its bytes
   * @param size how many bytes it has
   * @param block the array holding the bytes, for {@link DocumentBlocks#reached}, or null when they
   *     are not in {@link DocumentBlocks}
   */
  RawDocument(BsonValue id, RawBsonDocument bson, int size, byte[] block) {
    this(id, null, bson, size, block);
  }

  /**
   * @param idProblem why the {@code _id} cannot be read (then {@code id} is null), or null
   */
  RawDocument(BsonValue id, String idProblem, RawBsonDocument bson, int size, byte[] block) {
    this.id = id;
    this.idProblem = idProblem;
    this.bson = Objects.requireNonNull(bson, "RawDocument.bson must not be null");
    this.size = size;
    this.block = block;
  }

  /** Its {@code _id}, or null if it has none. */
  public BsonValue id() {
    return id;
  }

  /**
   * Why its {@code _id} cannot be read, when it has one the driver cannot decode; null when it has
   * none at all or it was read.
   */
  public String idProblem() {
    return idProblem;
  }

  /** Its bytes. */
  public RawBsonDocument bson() {
    return bson;
  }

  /** Its size in bytes. */
  public int size() {
    return size;
  }

  /** The array its bytes lie in, or null when they are not in {@link DocumentBlocks}. */
  byte[] block() {
    return block;
  }
}
