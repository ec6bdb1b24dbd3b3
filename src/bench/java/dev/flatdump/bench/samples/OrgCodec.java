package dev.flatdump.bench.samples;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.bson.BsonBinaryReader;
import org.bson.BsonReader;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.BsonWriter;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonValueCodec;
import org.bson.codecs.Codec;
import org.bson.codecs.DecoderContext;
import org.bson.codecs.EncoderContext;

/**
 * Decodes an organization document straight into an {@link Org} and encodes one back: {@code {_id,
 * name, category, country, type, attributes: [{id, quantity, amount, active, percent, size}]}}.
 *
 * <p>Decoding is strict: a document that does not fit is rejected with an {@link
 * InvalidDocumentException} naming the field, never exported with a guess. Every field is required
 * and must not be null; a known field may appear only once per (sub)document; {@code type} is one
 * of the {@link OrgType} names; a string read from BSON bytes must be valid UTF-8. {@code quantity}
 * and {@code amount} (byte) and {@code size} (short) accept an int32, and an int64 or a finite
 * integral double holding an in-range integer; never a wrapped or truncated value. {@code percent}
 * accepts a double, an int32, and an int64 or a decimal128 only when a double holds exactly that
 * number. {@code active} must be a boolean. Unknown fields, nested or not, and {@code _id} are
 * skipped.
 *
 * <p>After an exception the reader's state is unspecified, so decode each document from its own
 * bytes ({@link #decode(RawBsonDocument)}): a bad document then never breaks a cursor.
 *
 * <p>Stateless and thread-safe.
 */
public final class OrgCodec implements Codec<Org> {

  private static final DecoderContext DECODER_CONTEXT = DecoderContext.builder().build();
  private static final EncoderContext ENCODER_CONTEXT = EncoderContext.builder().build();

  // Bits of the known fields, to reject duplicates.
  private static final int ID = 1;
  private static final int NAME = 1 << 1;
  private static final int CATEGORY = 1 << 2;
  private static final int COUNTRY = 1 << 3;
  private static final int TYPE = 1 << 4;
  private static final int ATTRIBUTES = 1 << 5;
  private static final int QUANTITY = 1 << 1;
  private static final int AMOUNT = 1 << 2;
  private static final int ACTIVE = 1 << 3;
  private static final int PERCENT = 1 << 4;
  private static final int SIZE = 1 << 5;

  private static final OrgType[] TYPES = OrgType.values();
  private static final String TYPE_NAMES = typeNames();

  private final Codec<BsonValue> idCodec = new BsonValueCodec();

  /**
   * Decodes one document from its bytes; a rejection carries the document's {@code _id}. A string
   * field whose bytes are not valid UTF-8 is rejected too (a {@link BsonReader} of any other kind
   * would have decoded it with U+FFFD already).
   */
  public Org decode(RawBsonDocument document) {
    try (BsonBinaryReader reader =
        BsonFields.utf8CheckingReader(document.getByteBuffer().asNIO())) {
      return decode(reader, DECODER_CONTEXT);
    } catch (InvalidDocumentException e) {
      throw e.withId(document.get("_id"));
    }
  }

  @Override
  public Org decode(BsonReader reader, DecoderContext decoderContext) {
    reader.readStartDocument();
    String name = null;
    String category = null;
    String country = null;
    OrgType type = null;
    List<Attr> attributes = null;
    int seen = 0;
    while (reader.readBsonType() != BsonType.END_OF_DOCUMENT) {
      String field = reader.readName();
      switch (field) {
        case "_id" -> {
          seen = once(seen, ID, field);
          reader.skipValue();
        }
        case "name" -> {
          seen = once(seen, NAME, field);
          name = BsonFields.readString(reader, field);
        }
        case "category" -> {
          seen = once(seen, CATEGORY, field);
          category = BsonFields.readString(reader, field);
        }
        case "country" -> {
          seen = once(seen, COUNTRY, field);
          country = BsonFields.readString(reader, field);
        }
        case "type" -> {
          seen = once(seen, TYPE, field);
          type = readType(reader);
        }
        case "attributes" -> {
          seen = once(seen, ATTRIBUTES, field);
          attributes = readAttributes(reader);
        }
        default -> reader.skipValue();
      }
    }
    reader.readEndDocument();
    return new Org(
        present(name, "name"),
        present(category, "category"),
        present(country, "country"),
        present(type, "type"),
        present(attributes, "attributes"));
  }

  private static OrgType readType(BsonReader reader) {
    String value = BsonFields.readString(reader, "type");
    for (OrgType t : TYPES) {
      if (t.name().equals(value)) {
        return t;
      }
    }
    throw new InvalidDocumentException(
        "type", "unknown value " + BsonFields.quote(value) + " (expected " + TYPE_NAMES + ")");
  }

  private static List<Attr> readAttributes(BsonReader reader) {
    BsonType type = reader.getCurrentBsonType();
    if (type != BsonType.ARRAY) {
      throw BsonFields.unexpected("attributes", "array", type);
    }
    reader.readStartArray();
    List<Attr> attributes = new ArrayList<>();
    while (reader.readBsonType() != BsonType.END_OF_DOCUMENT) {
      int index = attributes.size();
      BsonType elementType = reader.getCurrentBsonType();
      if (elementType != BsonType.DOCUMENT) {
        throw BsonFields.unexpected("attributes[" + index + "]", "document", elementType);
      }
      try {
        attributes.add(readAttr(reader));
      } catch (InvalidDocumentException e) {
        // Paths are built only on failure: attributes are the hot loop.
        throw e.under("attributes[" + index + "]");
      }
    }
    reader.readEndArray();
    return attributes;
  }

  private static Attr readAttr(BsonReader reader) {
    reader.readStartDocument();
    String id = null;
    byte quantity = 0;
    byte amount = 0;
    boolean active = false;
    double percent = 0;
    short size = 0;
    int seen = 0;
    while (reader.readBsonType() != BsonType.END_OF_DOCUMENT) {
      String field = reader.readName();
      switch (field) {
        case "id" -> {
          seen = once(seen, ID, field);
          id = BsonFields.readString(reader, field);
        }
        case "quantity" -> {
          seen = once(seen, QUANTITY, field);
          quantity = BsonFields.readByte(reader, field);
        }
        case "amount" -> {
          seen = once(seen, AMOUNT, field);
          amount = BsonFields.readByte(reader, field);
        }
        case "active" -> {
          seen = once(seen, ACTIVE, field);
          active = BsonFields.readBoolean(reader, field);
        }
        case "percent" -> {
          seen = once(seen, PERCENT, field);
          percent = BsonFields.readDouble(reader, field);
        }
        case "size" -> {
          seen = once(seen, SIZE, field);
          size = BsonFields.readShort(reader, field);
        }
        default -> reader.skipValue();
      }
    }
    reader.readEndDocument();
    // Report the first missing field in schema order.
    present(id, "id");
    required(seen, QUANTITY, "quantity");
    required(seen, AMOUNT, "amount");
    required(seen, ACTIVE, "active");
    required(seen, PERCENT, "percent");
    required(seen, SIZE, "size");
    return new Attr(id, quantity, amount, size, percent, active);
  }

  private static int once(int seen, int bit, String field) {
    if ((seen & bit) != 0) {
      throw new InvalidDocumentException(field, "duplicate field");
    }
    return seen | bit;
  }

  private static void required(int seen, int bit, String field) {
    if ((seen & bit) == 0) {
      throw new InvalidDocumentException(field, "missing");
    }
  }

  private static <T> T present(T value, String field) {
    if (value == null) {
      throw new InvalidDocumentException(field, "missing");
    }
    return value;
  }

  /** Writes the organization without an {@code _id}. */
  @Override
  public void encode(BsonWriter writer, Org org, EncoderContext encoderContext) {
    write(writer, null, org);
  }

  /** Writes the organization with {@code _id} first, so that inserts get deterministic ids. */
  public void encode(BsonWriter writer, BsonValue id, Org org) {
    write(writer, Objects.requireNonNull(id, "id"), org);
  }

  private void write(BsonWriter writer, BsonValue id, Org org) {
    writer.writeStartDocument();
    if (id != null) {
      writer.writeName("_id");
      idCodec.encode(writer, id, ENCODER_CONTEXT);
    }
    writer.writeString("name", org.name());
    writer.writeString("category", org.category());
    writer.writeString("country", org.country());
    writer.writeString("type", org.type().name());
    writer.writeStartArray("attributes");
    for (Attr attr : org.attributes()) {
      writer.writeStartDocument();
      writer.writeString("id", attr.id());
      writer.writeInt32("quantity", attr.quantity());
      writer.writeInt32("amount", attr.amount());
      writer.writeBoolean("active", attr.active());
      writer.writeDouble("percent", attr.percent());
      writer.writeInt32("size", attr.size());
      writer.writeEndDocument();
    }
    writer.writeEndArray();
    writer.writeEndDocument();
  }

  @Override
  public Class<Org> getEncoderClass() {
    return Org.class;
  }

  private static String typeNames() {
    var names = new StringBuilder();
    for (int i = 0; i < TYPES.length; i++) {
      if (i > 0) {
        names.append(i == TYPES.length - 1 ? " or " : ", ");
      }
      names.append(TYPES[i].name());
    }
    return names.toString();
  }
}
