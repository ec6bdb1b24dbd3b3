package dev.flatdump.source;

import static dev.flatdump.source.BsonBytes.*;
import static java.nio.charset.StandardCharsets.ISO_8859_1;

import dev.flatdump.Attr;
import dev.flatdump.Org;
import dev.flatdump.OrgType;
import java.nio.ByteBuffer;
import java.util.List;
import org.bson.RawBsonDocument;

/**
 * Decodes organization documents by walking their BSON bytes, with exactly {@link OrgCodec}'s
 * result: the same {@link Org}, or the same {@link InvalidDocumentException}.
 *
 * <p>The walk takes the common shape only: every known field once and of its usual BSON type
 * (strings; int32 for {@code quantity}, {@code amount} and {@code size}, in range; a double or an
 * int32 for {@code percent}; a boolean for {@code active}), unknown fields skipped. Anything else
 * (a missing, duplicated, null or widened field, a bad type name, a string that does not decode as
 * UTF-8 cleanly, bytes that do not add up) is handed to {@link OrgCodec}, which accepts or rejects
 * it by its rules and words the reason. So the walk never needs to say why a document is bad, only
 * notice that it is not plainly good.
 *
 * <p>Field names are matched on their bytes. Strings come from {@link RawStrings} (a repeated
 * string is the same {@code String}) and the attributes array from {@link RawAttributeDecoder}
 * (attributes in the layout {@link OrgCodec} writes read at fixed offsets, a repeated attribute the
 * same {@link Attr}); their caches are bounded.
 *
 * <p>Not thread-safe: one decoder per reading thread.
 */
public final class RawOrgDecoder {

  private static final byte[] ID = ascii("_id");
  private static final byte[] NAME = ascii("name");
  private static final byte[] CATEGORY = ascii("category");
  private static final byte[] COUNTRY = ascii("country");
  private static final byte[] TYPE = ascii("type");
  private static final byte[] ATTRIBUTES = ascii("attributes");

  private static final OrgType[] TYPES = OrgType.values();
  private static final byte[][] TYPE_NAMES = typeNames();

  private final OrgCodec codec = new OrgCodec();
  private final RawStrings strings = new RawStrings();
  private final RawAttributeDecoder attributes = new RawAttributeDecoder(strings);
  private long plain;
  private long handedOver;

  private byte[] b;

  /**
   * Decodes one document from its bytes; a rejection carries the document's {@code _id}.
   *
   * @throws InvalidDocumentException if the document does not fit, as {@link
   *     OrgCodec#decode(RawBsonDocument)} says
   */
  public Org decode(RawBsonDocument document) {
    ByteBuffer bytes = document.getByteBuffer().asNIO();
    Org org = null;
    if (bytes.hasArray()) {
      try {
        org = walk(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
      } catch (BsonBytes.NotPlain | IndexOutOfBoundsException notPlain) {
        org = null;
      } finally {
        b = null;
      }
    }
    if (org != null) {
      plain++;
      return org;
    }
    handedOver++;
    return codec.decode(document);
  }

  /** Documents decoded by walking their bytes. */
  public long plainCount() {
    return plain;
  }

  /** Documents handed to {@link OrgCodec} (accepted or rejected there). */
  public long handedOverCount() {
    return handedOver;
  }

  private Org walk(byte[] bytes, int from, int length) {
    this.b = bytes;
    int end = documentEnd(b, from, from + length);
    if (end != from + length) {
      throw NOT_PLAIN;
    }
    int p = from + 4;
    String name = null;
    String category = null;
    String country = null;
    OrgType type = null;
    List<Attr> attrs = null;
    int seen = 0;
    while (true) {
      byte bsonType = next(b, p++, end);
      if (bsonType == 0) {
        break;
      }
      int nameStart = p;
      p = cstringEnd(b, p, end);
      int nameLength = p - nameStart - 1;
      if (is(b, ID, nameStart, nameLength)) {
        seen = once(seen, 1);
        p = skip(b, bsonType, p, end);
      } else if (is(b, NAME, nameStart, nameLength)) {
        seen = once(seen, 1 << 1);
        name = strings.at(b, bsonType, p, end);
        p = afterString(b, p);
      } else if (is(b, CATEGORY, nameStart, nameLength)) {
        seen = once(seen, 1 << 2);
        category = strings.at(b, bsonType, p, end);
        p = afterString(b, p);
      } else if (is(b, COUNTRY, nameStart, nameLength)) {
        seen = once(seen, 1 << 3);
        country = strings.at(b, bsonType, p, end);
        p = afterString(b, p);
      } else if (is(b, TYPE, nameStart, nameLength)) {
        seen = once(seen, 1 << 4);
        type = type(bsonType, p, end);
        p = afterString(b, p);
      } else if (is(b, ATTRIBUTES, nameStart, nameLength)) {
        seen = once(seen, 1 << 5);
        if (bsonType != ARRAY) {
          throw NOT_PLAIN;
        }
        int arrayEnd = documentEnd(b, p, end);
        attrs = attributes.array(b, p + 4, arrayEnd);
        p = arrayEnd;
      } else {
        p = skip(b, bsonType, p, end);
      }
    }
    if (p != end || seen != 0b111111) {
      throw NOT_PLAIN;
    }
    return new Org(name, category, country, type, attrs);
  }

  private OrgType type(byte bsonType, int p, int end) {
    if (bsonType != STRING) {
      throw NOT_PLAIN;
    }
    int length = stringLength(b, p, end);
    for (int i = 0; i < TYPES.length; i++) {
      if (is(b, TYPE_NAMES[i], p + 4, length)) {
        return TYPES[i];
      }
    }
    throw NOT_PLAIN;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(ISO_8859_1);
  }

  private static byte[][] typeNames() {
    byte[][] names = new byte[TYPES.length][];
    for (int i = 0; i < TYPES.length; i++) {
      names[i] = ascii(TYPES[i].name());
    }
    return names;
  }
}
