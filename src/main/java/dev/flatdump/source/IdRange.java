package dev.flatdump.source;

import org.bson.BsonMaxKey;
import org.bson.BsonValue;

/**
 * A range of a collection's {@code _id} index: from {@code from} (inclusive) to {@code until}
 * (exclusive), each null for the index's start or end. Bounds compare in the index's order, which
 * orders every BSON type, so a range holds documents whatever their {@code _id} types.
 *
 * @param from the first {@code _id} in the range, or null for the start of the index
 * @param until the first {@code _id} past the range, or null for the end of the index
 */
public record IdRange(BsonValue from, BsonValue until) {

  /** The whole index. */
  public static final IdRange ALL = new IdRange(null, null);

  /** A range that holds nothing. */
  public static final IdRange EMPTY = new IdRange(new BsonMaxKey(), new BsonMaxKey());

  /** Whether the range cannot hold a document: both bounds are the same {@code _id}. */
  public boolean empty() {
    return from != null && from.equals(until);
  }
}
