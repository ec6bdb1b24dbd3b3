package dev.flatdump.source;

import dev.flatdump.Org;
import java.util.Objects;
import org.bson.BsonValue;

/**
 * One document as the source read it: either an {@link Accepted} organization to export, or a
 * {@link Rejected} document that did not fit the schema. Every document read becomes exactly one of
 * the two, which is what keeps {@code read = exported + rejected} true.
 */
public sealed interface SourceRecord {

  /**
   * The document's {@code _id}; the checkpoint after this record. Null only for a rejected document
   * without one.
   */
  BsonValue id();

  /** A document that decoded into an organization. */
  record Accepted(BsonValue id, Org org) implements SourceRecord {
    public Accepted {
      Objects.requireNonNull(id, "Accepted.id must not be null");
      Objects.requireNonNull(org, "Accepted.org must not be null");
    }
  }

  /** A document that does not fit the schema, with the reason. */
  record Rejected(Reject reject) implements SourceRecord {
    public Rejected {
      Objects.requireNonNull(reject, "Rejected.reject must not be null");
    }

    @Override
    public BsonValue id() {
      return reject.id();
    }
  }
}
