package dev.flatdump.source;

import org.bson.RawBsonDocument;

/**
 * Turns each document read into exactly one {@link SourceRecord}: an accepted organization, or a
 * rejection with its reason ({@link RawOrgDecoder}, so {@link OrgCodec}'s rules).
 *
 * <p>Not thread-safe: one decoder per decoding thread (it keeps caches of recent strings and
 * attributes).
 */
public final class OrgRecordDecoder {

  private final RawOrgDecoder decoder = new RawOrgDecoder();

  public SourceRecord decode(RawDocument document) {
    if (document.id() == null) {
      return new SourceRecord.Rejected(new Reject(null, "_id", "missing"));
    }
    RawBsonDocument bson = document.bson();
    try {
      return new SourceRecord.Accepted(document.id(), decoder.decode(bson));
    } catch (InvalidDocumentException e) {
      return new SourceRecord.Rejected(new Reject(document.id(), e.field(), e.reason()));
    }
  }
}
