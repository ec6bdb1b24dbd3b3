package dev.flatdump.source;

import static dev.flatdump.source.BsonBytes.*;

import dev.flatdump.Attr;
import dev.flatdump.RepeatSampler;
import java.util.Arrays;
import java.util.List;

/**
 * Decodes the {@code attributes} array of a {@link RawOrgDecoder}'s document by walking its BSON
 * bytes, with {@link OrgCodec}'s result for the common shape, and {@link BsonBytes#NOT_PLAIN} for
 * anything else (see {@link RawOrgDecoder}).
 *
 * <p>An attribute in the layout {@link OrgCodec} writes ({@link CanonicalAttribute}) is read at
 * fixed offsets, its layout checked with a few word compares; any other is walked field by field,
 * its names matched on their bytes. A repeated attribute sub-document is recognised by its bytes
 * ({@link ByteKeyedCache}) and is the same {@link Attr}, without decoding it again, while repeats
 * are common enough to pay for the cache ({@link RepeatSampler}).
 *
 * <p>Not thread-safe: one per decoder.
 */
final class RawAttributeDecoder {

  // An attribute's fields, by their index in FIELDS (and their bit in "seen"); OTHER is any other
  // name.
  private static final int ID = 0;
  private static final int QUANTITY = 1;
  private static final int AMOUNT = 2;
  private static final int ACTIVE = 3;
  private static final int PERCENT = 4;
  private static final int SIZE = 5;
  private static final int OTHER = -1;
  private static final FieldName[] FIELDS = {
    FieldName.of("id"),
    FieldName.of("quantity"),
    FieldName.of("amount"),
    FieldName.of("active"),
    FieldName.of("percent"),
    FieldName.of("size")
  };

  private final RawStrings strings;
  // Sized to stay in a core's L2 cache (2 MiB of keys): a lookup that misses memory costs more than
  // decoding again. Longer attributes are decoded every time.
  private final ByteKeyedCache<Attr> attributes = new ByteKeyedCache<>(1 << 14, 128);
  // Where attributes do not repeat (the articles' random ones), hashing and copying each into the
  // cache is wasted: the cache pauses.
  private final RepeatSampler sharing = RepeatSampler.forAttributes();
  private Attr[] scratch = new Attr[64];

  /**
   * @param strings where the ids come from, shared with the document's other strings
   */
  RawAttributeDecoder(RawStrings strings) {
    this.strings = strings;
  }

  /** The attributes of the array whose elements start at {@code p} and end at {@code end}. */
  List<Attr> array(byte[] b, int p, int end) {
    int count = 0;
    while (true) {
      byte bsonType = next(b, p++, end);
      if (bsonType == 0) {
        break;
      }
      if (bsonType != DOCUMENT) {
        throw NOT_PLAIN;
      }
      p = indexEnd(b, p, end, count); // the index; OrgCodec does not read it either
      int attrEnd = documentEnd(b, p, end);
      Attr attr;
      if (sharing.active()) {
        attr = cached(b, p, attrEnd);
      } else {
        sharing.skipped();
        attr = decode(b, p, attrEnd);
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
  private static int indexEnd(byte[] b, int p, int end, int count) {
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

  /** The attribute of these exact bytes from the cache, or decoded and cached. */
  private Attr cached(byte[] b, int p, int end) {
    int length = end - p;
    int hash = ByteKeyedCache.hash(b, p, length);
    Attr attr = attributes.get(b, p, length, hash);
    sharing.found(attr != null);
    if (attr == null) {
      attr = decode(b, p, end);
      attributes.put(b, p, length, hash, attr);
    }
    return attr;
  }

  /**
   * Decodes the attribute document {@code [p, end)}: its values read at their offsets when it is in
   * {@link CanonicalAttribute}'s layout, else by walking its fields.
   */
  private Attr decode(byte[] b, int p, int end) {
    if (!CanonicalAttribute.matches(b, p, end)) {
      return walk(b, p + 4, end);
    }
    String id = strings.at(b, STRING, p + CanonicalAttribute.ID_LENGTH, end);
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

  private Attr walk(byte[] b, int p, int end) {
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
      int field = field(b, p, end);
      if (field == OTHER) {
        p = cstringEnd(b, p, end);
      } else {
        p += FIELDS[field].size();
        seen = once(seen, 1 << field);
      }
      switch (field) {
        case ID -> {
          id = strings.at(b, bsonType, p, end);
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
  private static int field(byte[] b, int p, int end) {
    int guess =
        switch (b[p]) {
          case 'i' -> ID;
          case 'q' -> QUANTITY;
          case 'a' -> b[p + 1] == 'm' ? AMOUNT : ACTIVE;
          case 'p' -> PERCENT;
          case 's' -> SIZE;
          default -> OTHER;
        };
    if (guess != OTHER && FIELDS[guess].at(b, p, end)) {
      return guess;
    }
    int length = cstringEnd(b, p, end) - p - 1;
    for (int i = 0; i < FIELDS.length; i++) {
      if (is(b, FIELDS[i].bytes(), p, length)) {
        return i;
      }
    }
    return OTHER;
  }
}
