package dev.flatdump.bench.samples;

import dev.flatdump.FlatdumpException;
import dev.flatdump.encode.Reject;
import java.util.Objects;
import org.bson.BsonValue;

/**
 * A MongoDB document that does not fit the organizations schema. It is rejected, never exported
 * with a guessed value.
 *
 * <p>Carries the {@link #field() path} of the offending field (such as {@code country} or {@code
 * attributes[3].quantity}) and the {@link #reason() reason}, for example {@code 128 is out of range
 * for byte (-128..127)}, and the document's {@code _id} when the decoder knows it. The message is
 * {@code field: reason}, followed by the {@code _id} when known.
 */
public final class InvalidDocumentException extends FlatdumpException {

  private final String field;
  private final String reason;
  private final transient BsonValue id;

  /**
   * @param field the path of the offending field, e.g. {@code attributes[3].quantity}
   * @param reason what is wrong with it, e.g. {@code missing}
   */
  public InvalidDocumentException(String field, String reason) {
    this(field, reason, null);
  }

  /**
   * @param field the path of the offending field
   * @param reason what is wrong with it
   * @param id the document's {@code _id}, or null when unknown or absent
   */
  public InvalidDocumentException(String field, String reason, BsonValue id) {
    super(message(field, reason, id));
    this.field = Objects.requireNonNull(field, "field");
    this.reason = Objects.requireNonNull(reason, "reason");
    this.id = id;
  }

  /** The path of the offending field, e.g. {@code attributes[3].quantity}. */
  public String field() {
    return field;
  }

  /** What is wrong with the field, e.g. {@code missing} or {@code expected string, got int32}. */
  public String reason() {
    return reason;
  }

  /** The document's {@code _id}, or null when the decoder did not know it or it has none. */
  public BsonValue id() {
    return id;
  }

  /** The same rejection, for the document with this {@code _id}. */
  public InvalidDocumentException withId(BsonValue documentId) {
    var copy = new InvalidDocumentException(field, reason, documentId);
    copy.setStackTrace(getStackTrace());
    return copy;
  }

  /** The same rejection with the field's path under {@code parent}, e.g. {@code attributes[3]}. */
  InvalidDocumentException under(String parent) {
    var copy = new InvalidDocumentException(parent + "." + field, reason, id);
    copy.setStackTrace(getStackTrace());
    return copy;
  }

  private static String message(String field, String reason, BsonValue id) {
    String message = field + ": " + reason;
    return id == null ? message : message + " (document _id " + Reject.idToJson(id) + ")";
  }
}
