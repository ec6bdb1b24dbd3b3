package dev.flatdump.encode.plan;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Finds a table's field by the UTF-8 bytes of a BSON field name, as they stand in a document,
 * without making a {@code String}: an open-addressing table keyed by the names' bytes, compared
 * exactly. Immutable and thread-safe once built.
 */
public final class FieldLookup {

  private final byte[][] names;
  private final int[] positions;
  private final int mask;
  private final byte[][] byPosition;

  /**
   * @param fields a table's fields; each one not deprecated is found by its {@link
   *     FieldPlan#bsonName()}, and {@link #find} returns its position in this list
   */
  FieldLookup(List<FieldPlan> fields) {
    int capacity = Integer.highestOneBit(Math.max(4, fields.size() * 2 - 1)) << 1;
    names = new byte[capacity][];
    positions = new int[capacity];
    mask = capacity - 1;
    byPosition = new byte[fields.size()][];
    for (int i = 0; i < fields.size(); i++) {
      FieldPlan f = fields.get(i);
      if (f.deprecated()) {
        continue;
      }
      byte[] name = f.bsonName().getBytes(StandardCharsets.UTF_8);
      byPosition[i] = name;
      int slot = hash(name, 0, name.length) & mask;
      while (names[slot] != null) {
        slot = (slot + 1) & mask;
      }
      names[slot] = name;
      positions[slot] = i;
    }
  }

  /**
   * The position of the field whose BSON name is {@code bytes[offset, offset + length)}, or -1 when
   * the table has no such field.
   */
  public int find(byte[] bytes, int offset, int length) {
    int slot = hash(bytes, offset, length) & mask;
    byte[] name;
    while ((name = names[slot]) != null) {
      if (name.length == length && Arrays.equals(name, 0, length, bytes, offset, offset + length)) {
        return positions[slot];
      }
      slot = (slot + 1) & mask;
    }
    return -1;
  }

  /**
   * Whether the field at {@code position} reads the BSON name {@code bytes[offset, offset +
   * length)}: a check cheaper than {@link #find} when the position is a good guess.
   */
  public boolean matches(int position, byte[] bytes, int offset, int length) {
    byte[] name = byPosition[position];
    return name != null
        && name.length == length
        && Arrays.equals(name, 0, length, bytes, offset, offset + length);
  }

  /** FNV-1a over the bytes, spread so that the low bits the mask keeps depend on all of them. */
  private static int hash(byte[] bytes, int offset, int length) {
    int h = 0x811c9dc5;
    for (int i = offset; i < offset + length; i++) {
      h = (h ^ (bytes[i] & 0xff)) * 0x01000193;
    }
    return h ^ (h >>> 16);
  }
}
