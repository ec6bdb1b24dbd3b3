package dev.flatdump.source;

import static dev.flatdump.source.BsonBytes.*;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import dev.flatdump.Attr;
import dev.flatdump.Org;
import dev.flatdump.OrgType;
import dev.flatdump.RepeatSampler;
import java.nio.ByteBuffer;
import java.util.Arrays;
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
 * <p>An attribute in the layout {@link OrgCodec} writes ({@link CanonicalAttribute}) is read at
 * fixed offsets, its layout checked with a few word compares; any other is walked field by field.
 *
 * <p>Field names are matched on their bytes, and equal strings and equal attribute sub-documents
 * are recognised by their bytes ({@link ByteKeyedCache}): a repeated attribute id is the same
 * {@code String}, and a repeated attribute the same {@link Attr}, without decoding either again.
 * Both caches are bounded.
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

  // An attribute's fields, by their index in ATTRIBUTE_FIELDS (and their bit in "seen"); OTHER is
  // any other name.
  private static final int ATTR_ID = 0;
  private static final int QUANTITY = 1;
  private static final int AMOUNT = 2;
  private static final int ACTIVE = 3;
  private static final int PERCENT = 4;
  private static final int SIZE = 5;
  private static final int OTHER = -1;
  private static final FieldName[] ATTRIBUTE_FIELDS = {
    FieldName.of("id"),
    FieldName.of("quantity"),
    FieldName.of("amount"),
    FieldName.of("active"),
    FieldName.of("percent"),
    FieldName.of("size")
  };

  private static final OrgType[] TYPES = OrgType.values();
  private static final byte[][] TYPE_NAMES = typeNames();

  private final OrgCodec codec = new OrgCodec();
  // Sized to stay in a core's L2 cache (1 MiB and 2 MiB of keys): a lookup that misses memory
  // costs more than decoding again. Longer strings and attributes are decoded every time.
  private final ByteKeyedCache<String> strings = new ByteKeyedCache<>(1 << 14, 64);
  private final ByteKeyedCache<Attr> attributes = new ByteKeyedCache<>(1 << 14, 128);
  // Where attributes do not repeat (the articles' random ones), hashing and copying each into the
  // cache is wasted: the cache pauses.
  private final RepeatSampler attributeSharing = RepeatSampler.forAttributes();
  private Attr[] scratch = new Attr[64];
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
        name = string(bsonType, p, end);
        p = afterString(b, p);
      } else if (is(b, CATEGORY, nameStart, nameLength)) {
        seen = once(seen, 1 << 2);
        category = string(bsonType, p, end);
        p = afterString(b, p);
      } else if (is(b, COUNTRY, nameStart, nameLength)) {
        seen = once(seen, 1 << 3);
        country = string(bsonType, p, end);
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
        attrs = attributes(p + 4, arrayEnd);
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

  private List<Attr> attributes(int p, int end) {
    int count = 0;
    while (true) {
      byte bsonType = next(b, p++, end);
      if (bsonType == 0) {
        break;
      }
      if (bsonType != DOCUMENT) {
        throw NOT_PLAIN;
      }
      p = indexEnd(p, end, count); // the index; OrgCodec does not read it either
      int attrEnd = documentEnd(b, p, end);
      Attr attr;
      if (attributeSharing.active()) {
        attr = cachedAttribute(p, attrEnd);
      } else {
        attributeSharing.skipped();
        attr = decodeAttribute(p, attrEnd);
      }
      if (count == scratch.length) {
        scratch = Arrays.copyOf(scratch, count * 2);
      }
      scratch[count++] = attr;
      p = attrEnd;
    }
    if (p != end) {
      throw NOT_PLAIN;
    }
    return List.of(Arrays.copyOf(scratch, count));
  }

  /**
   * Just after the element name at {@code p}, as {@link BsonBytes#cstringEnd}: without a scan when
   * it is the one- or two-digit name that the {@code count}th element usually has.
   */
  private int indexEnd(int p, int end, int count) {
    if (count < 10) {
      if (p + 1 < end && b[p] != 0 && b[p + 1] == 0) {
        return p + 2;
      }
    } else if (count < 100) {
      if (p + 2 < end && b[p] != 0 && b[p + 1] != 0 && b[p + 2] == 0) {
        return p + 3;
      }
    }
    return cstringEnd(b, p, end);
  }

  /**
   * Decodes the attribute document {@code [p, end)}: its values read at their offsets when it is in
   * {@link CanonicalAttribute}'s layout, else by walking its fields.
   */
  private Attr decodeAttribute(int p, int end) {
    if (!CanonicalAttribute.matches(b, p, end)) {
      return attribute(p + 4, end);
    }
    String id = string(STRING, p + CanonicalAttribute.ID_LENGTH, end);
    int values = end - CanonicalAttribute.TAIL;
    int quantity = int32At(b, values + CanonicalAttribute.QUANTITY);
    int amount = int32At(b, values + CanonicalAttribute.AMOUNT);
    int size = int32At(b, values + CanonicalAttribute.SIZE);
    byte active = b[values + CanonicalAttribute.ACTIVE];
    // out of range: as the walk, let OrgCodec decide (and word the reason)
    if (quantity != (byte) quantity
        || amount != (byte) amount
        || size != (short) size
        || (active & ~1) != 0) {
      throw NOT_PLAIN;
    }
    double percent = Double.longBitsToDouble(int64(b, values + CanonicalAttribute.PERCENT, end));
    return new Attr(id, (byte) quantity, (byte) amount, (short) size, percent, active == 1);
  }

  /** The attribute of these exact bytes from the cache, or decoded and cached. */
  private Attr cachedAttribute(int p, int end) {
    int length = end - p;
    int hash = ByteKeyedCache.hash(b, p, length);
    Attr attr = attributes.get(b, p, length, hash);
    attributeSharing.found(attr != null);
    if (attr == null) {
      attr = decodeAttribute(p, end);
      attributes.put(b, p, length, hash, attr);
    }
    return attr;
  }

  private Attr attribute(int p, int end) {
    String id = null;
    int quantity = 0;
    int amount = 0;
    int size = 0;
    double percent = 0;
    boolean active = false;
    int seen = 0;
    while (true) {
      byte bsonType = next(b, p++, end);
      if (bsonType == 0) {
        break;
      }
      int field = attributeField(p, end);
      if (field == OTHER) {
        p = cstringEnd(b, p, end);
      } else {
        p += ATTRIBUTE_FIELDS[field].size();
        seen = once(seen, 1 << field);
      }
      switch (field) {
        case ATTR_ID -> {
          id = string(bsonType, p, end);
          p = afterString(b, p);
        }
        case QUANTITY -> {
          quantity = int32(b, bsonType, p, end, Byte.MIN_VALUE, Byte.MAX_VALUE);
          p += 4;
        }
        case AMOUNT -> {
          amount = int32(b, bsonType, p, end, Byte.MIN_VALUE, Byte.MAX_VALUE);
          p += 4;
        }
        case ACTIVE -> {
          active = bool(b, bsonType, p, end);
          p += 1;
        }
        case PERCENT -> {
          if (bsonType == DOUBLE) {
            percent = Double.longBitsToDouble(int64(b, p, end));
            p += 8;
          } else {
            percent = int32(b, bsonType, p, end, Integer.MIN_VALUE, Integer.MAX_VALUE);
            p += 4;
          }
        }
        case SIZE -> {
          size = int32(b, bsonType, p, end, Short.MIN_VALUE, Short.MAX_VALUE);
          p += 4;
        }
        default -> p = skip(b, bsonType, p, end);
      }
    }
    if (p != end || seen != 0b111111) {
      throw NOT_PLAIN;
    }
    return new Attr(id, (byte) quantity, (byte) amount, (short) size, percent, active);
  }

  /**
   * Which attribute field the element name at {@code p} is: one load and compare for the field its
   * first byte suggests; a scan and byte comparisons only when that cannot tell.
   */
  private int attributeField(int p, int end) {
    int guess =
        switch (b[p]) {
          case 'i' -> ATTR_ID;
          case 'q' -> QUANTITY;
          case 'a' -> b[p + 1] == 'm' ? AMOUNT : ACTIVE;
          case 'p' -> PERCENT;
          case 's' -> SIZE;
          default -> OTHER;
        };
    if (guess != OTHER && ATTRIBUTE_FIELDS[guess].at(b, p, end)) {
      return guess;
    }
    int length = cstringEnd(b, p, end) - p - 1;
    for (int i = 0; i < ATTRIBUTE_FIELDS.length; i++) {
      if (is(b, ATTRIBUTE_FIELDS[i].bytes(), p, length)) {
        return i;
      }
    }
    return OTHER;
  }

  /** A string value at {@code p}, shared with every earlier string of the same bytes. */
  private String string(byte bsonType, int p, int end) {
    if (bsonType != STRING) {
      throw NOT_PLAIN;
    }
    int length = stringLength(b, p, end);
    int from = p + 4;
    int hash = ByteKeyedCache.hash(b, from, length);
    String value = strings.get(b, from, length, hash);
    if (value == null) {
      value = newString(from, length);
      strings.put(b, from, length, hash, value);
    }
    return value;
  }

  private String newString(int from, int length) {
    // The JDK's UTF-8 decoding already takes a vectorized path for ASCII bytes.
    String value = new String(b, from, length, UTF_8);
    // A U+FFFD may stand for bytes that are not UTF-8: OrgCodec checks and words the reason.
    if (value.indexOf('\uFFFD') >= 0) {
      throw NOT_PLAIN;
    }
    return value;
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

  private static int once(int seen, int bit) {
    if ((seen & bit) != 0) {
      throw NOT_PLAIN;
    }
    return seen | bit;
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
