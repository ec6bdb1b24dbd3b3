package dev.flatdump.encode;

import com.google.flatbuffers.FlatBufferBuilder;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes {@code Attribute} tables straight into a {@link FlatBufferBuilder}: the same bytes as the
 * generated {@code Attribute.createAttribute}, without {@code startTable}/{@code endTable}'s work
 * per field (a bounds check and alignment per value, a slot array, then a search through every
 * vtable of the buffer).
 *
 * <p>A table's layout, and so its vtable, depends only on which fields differ from their default
 * (the generated code leaves those out) and on where the table starts modulo 8 (the padding in
 * front of the double). That pair picks one of 256 slots remembering the vtable already written for
 * it, so most tables cost a few {@code put}s and no search. A vtable that is new to its slot is
 * looked up by its contents, as {@code endTable} would, and written only if no earlier attribute
 * table has an identical one: in a buffer that only this writer puts tables in, the result is byte
 * for byte what the generated code writes. Tables built by {@code endTable} keep their own vtables;
 * neither side shares the other's (a few bytes per shard at most).
 *
 * <p>One writer per builder, used on the builder's thread only.
 */
final class AttributeTableWriter {

  /** The generated code's field indexes in the vtable, in schema order. */
  private static final int ID = 0;

  private static final int QUANTITY = 1;
  private static final int AMOUNT = 2;
  private static final int SIZE = 3;
  private static final int PERCENT = 4;
  private static final int ACTIVE = 5;
  private static final int FIELDS = 6;

  /** Presence bits of the fields that may be left out; the id is always there. */
  private static final int HAS_PERCENT = 1;

  private static final int HAS_SIZE = 2;
  private static final int HAS_ACTIVE = 4;
  private static final int HAS_AMOUNT = 8;
  private static final int HAS_QUANTITY = 16;

  /**
   * At least what a table and its vtable take (padding 7, double 8, id 4, short 2, bytes 3, padding
   * 3, vtable offset 4, vtable 16), rounded up to a multiple of 8 for {@link #write}'s {@code
   * prep}.
   */
  private static final int MAX_BYTES = 48;

  private final FlatBufferBuilder builder;

  /** The vtable (offset from the buffer's end) per (presence bits, start mod 8); 0 if none yet. */
  private final int[] vtables = new int[32 * 8];

  /** Every vtable written, by its contents ({@link #contents}). */
  private final Map<Long, Integer> vtablesByContents = new HashMap<>();

  private final int[] slots = new int[FIELDS];

  AttributeTableWriter(FlatBufferBuilder builder) {
    this.builder = builder;
  }

  /**
   * Writes one table and returns its offset, as {@code Attribute.createAttribute} would.
   *
   * @param idOffset the id string's offset, which must be in this buffer already
   * @param percent written unless its bits are those of 0.0: -0.0 keeps its sign, NaN its payload
   * @throws AssertionError from {@link FlatBufferBuilder} if the buffer cannot grow (2 GB)
   */
  int write(int idOffset, byte quantity, byte amount, short size, double percent, boolean active) {
    long percentBits = Double.doubleToRawLongBits(percent);
    int present =
        (percentBits != 0 ? HAS_PERCENT : 0)
            | (size != 0 ? HAS_SIZE : 0)
            | (active ? HAS_ACTIVE : 0)
            | (amount != 0 ? HAS_AMOUNT : 0)
            | (quantity != 0 ? HAS_QUANTITY : 0);
    int start = builder.offset();
    // Room for the whole table and a vtable, without padding (start + (-start & 7) + MAX_BYTES is
    // aligned already). It also raises the buffer's alignment as the generated code would: to the
    // double's 8 if there is one, else to the 4 of the offsets.
    int alignment = (present & HAS_PERCENT) != 0 ? Double.BYTES : Integer.BYTES;
    builder.prep(alignment, (-start & 7) + MAX_BYTES);
    // Fields in the generated code's order: the double first, then by size, bytes last to first.
    if ((present & HAS_PERCENT) != 0) {
      pad(-start & 7);
      builder.putDouble(percent);
    }
    pad(-builder.offset() & 3);
    builder.putInt(builder.offset() + Integer.BYTES - idOffset);
    if ((present & HAS_SIZE) != 0) {
      builder.putShort(size);
    }
    if ((present & HAS_ACTIVE) != 0) {
      builder.putByte((byte) 1);
    }
    if ((present & HAS_AMOUNT) != 0) {
      builder.putByte(amount);
    }
    if ((present & HAS_QUANTITY) != 0) {
      builder.putByte(quantity);
    }
    pad(-builder.offset() & 3);
    int table = builder.offset() + Integer.BYTES;
    int slot = present << 3 | (start & 7);
    int vtable = vtables[slot];
    if (vtable == 0) {
      int found = vtableFor(present, start, table);
      vtables[slot] = Math.abs(found);
      if (found < 0) {
        // A new vtable goes right in front of its first table.
        writeVtable(present, start, table);
        return table;
      }
      vtable = found;
    }
    builder.putInt(vtable - table); // negative: the vtable was written earlier, further back
    return table;
  }

  /**
   * The offset of an earlier vtable with this layout's contents; or, when there is none, minus the
   * offset the vtable will have once {@link #writeVtable} wrote it in front of this table.
   */
  private int vtableFor(int present, int start, int table) {
    long contents = contents(present, start, table);
    Integer known = vtablesByContents.get(contents);
    if (known != null) {
      return known;
    }
    int written = table + vtableBytes(present);
    vtablesByContents.put(contents, written);
    return -written;
  }

  /** Writes the offset to the vtable and the vtable itself, as {@code endTable} does. */
  private void writeVtable(int present, int start, int table) {
    fillSlots(present, start, table);
    int fields = trimmedFields(present);
    int length = vtableBytes(present);
    builder.putInt(length); // the offset to the vtable: it starts that far in front of here
    for (int i = fields - 1; i >= 0; i--) {
      builder.putShort((short) slots[i]);
    }
    builder.putShort((short) (table - start));
    builder.putShort((short) length);
  }

  /** The vtable as a number: field count, table size and each field's position, a byte each. */
  private long contents(int present, int start, int table) {
    fillSlots(present, start, table);
    int fields = trimmedFields(present);
    long contents = fields;
    contents = contents << 8 | (table - start);
    for (int i = 0; i < fields; i++) {
      contents = contents << 8 | slots[i];
    }
    return contents;
  }

  /**
   * Each field's position from the table's start (0 when left out), replaying where {@link #write}
   * put it.
   */
  private void fillSlots(int present, int start, int table) {
    int at = start;
    at += (present & HAS_PERCENT) != 0 ? (-at & 7) + Double.BYTES : 0;
    slots[PERCENT] = (present & HAS_PERCENT) != 0 ? table - at : 0;
    at += (-at & 3) + Integer.BYTES;
    slots[ID] = table - at;
    at += (present & HAS_SIZE) != 0 ? Short.BYTES : 0;
    slots[SIZE] = (present & HAS_SIZE) != 0 ? table - at : 0;
    at += (present & HAS_ACTIVE) != 0 ? 1 : 0;
    slots[ACTIVE] = (present & HAS_ACTIVE) != 0 ? table - at : 0;
    at += (present & HAS_AMOUNT) != 0 ? 1 : 0;
    slots[AMOUNT] = (present & HAS_AMOUNT) != 0 ? table - at : 0;
    at += (present & HAS_QUANTITY) != 0 ? 1 : 0;
    slots[QUANTITY] = (present & HAS_QUANTITY) != 0 ? table - at : 0;
  }

  /** The vtable leaves out trailing fields that are absent, as {@code endTable} does. */
  private static int trimmedFields(int present) {
    if ((present & HAS_ACTIVE) != 0) {
      return ACTIVE + 1;
    }
    if ((present & HAS_PERCENT) != 0) {
      return PERCENT + 1;
    }
    if ((present & HAS_SIZE) != 0) {
      return SIZE + 1;
    }
    if ((present & HAS_AMOUNT) != 0) {
      return AMOUNT + 1;
    }
    return (present & HAS_QUANTITY) != 0 ? QUANTITY + 1 : ID + 1;
  }

  private static int vtableBytes(int present) {
    return 2 * (trimmedFields(present) + 2);
  }

  /**
   * 0..7 zero bytes, as {@code FlatBufferBuilder.pad} (the space may hold a dropped vtable's
   * bytes), in at most three writes instead of one per byte; all of them zero, their order does not
   * matter.
   */
  private void pad(int bytes) {
    if ((bytes & 4) != 0) {
      builder.putInt(0);
    }
    if ((bytes & 2) != 0) {
      builder.putShort((short) 0);
    }
    if ((bytes & 1) != 0) {
      builder.putByte((byte) 0);
    }
  }
}
