package dev.flatdump.example.lookup;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;

/**
 * One field of the record table that answers render, read in place as flatc's generated code reads
 * it: the table's vtable says where the field lies, or that the record omits it.
 *
 * @param name the name it has in answers
 * @param voffset its vtable offset: 4 + 2 * the field's id (its position in the table, from 0)
 * @param type how its bytes read
 */
public record Field(String name, int voffset, Type type) {

  /** The kinds of field an answer renders; an omitted scalar reads as 0 (or false). */
  public enum Type {
    STRING,
    LONG,
    INT,
    DOUBLE,
    BOOL;

    static Type of(String name) {
      try {
        return valueOf(name.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "TYPE must be string, long, int, double or bool, not '" + name + "'");
      }
    }
  }

  public Field {
    Objects.requireNonNull(name, "Field.name");
    Objects.requireNonNull(type, "Field.type");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("NAME is empty");
    }
    if (voffset < 4 || voffset % 2 != 0 || voffset > 0xffff) {
      throw new IllegalArgumentException(
          "VOFFSET must be even, 4 to 65534 (4 + 2 * the field's id), not " + voffset);
    }
  }

  /**
   * The field of the table at {@code table} in {@code bb}: a {@link String} (null when omitted), a
   * {@link Long}, {@link Integer}, {@link Double} or {@link Boolean}. Reads at absolute positions
   * only, so {@code bb} may be shared.
   *
   * @throws IllegalStateException when the bytes are not a field of this type (a wrong VOFFSET or
   *     TYPE)
   */
  public Object read(ByteBuffer bb, int table) {
    try {
      int vtable = table - bb.getInt(table);
      int offset = voffset < (bb.getShort(vtable) & 0xffff) ? bb.getShort(vtable + voffset) : 0;
      if (offset == 0) {
        return switch (type) {
          case STRING -> null;
          case LONG -> 0L;
          case INT -> 0;
          case DOUBLE -> 0.0;
          case BOOL -> false;
        };
      }
      int at = table + (offset & 0xffff);
      return switch (type) {
        case STRING -> {
          int string = at + bb.getInt(at);
          yield StandardCharsets.UTF_8.decode(bb.slice(string + 4, bb.getInt(string))).toString();
        }
        case LONG -> bb.getLong(at);
        case INT -> bb.getInt(at);
        case DOUBLE -> bb.getDouble(at);
        case BOOL -> bb.get(at) != 0;
      };
    } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "field " + name + " (voffset " + voffset + ") does not read as a " + type, e);
    }
  }
}
