package dev.flatdump.encode.plan;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
  private final List<FieldPlan> fields;

  /** By position: the fields reading that field's BSON name, by id ({@link #readersOf}). */
  private final List<List<FieldPlan>> readers;

  /**
   * Per position: the name and its NUL as two little-endian longs, for names of up to 15 bytes;
   * with the masks of the bytes that count in each. A mask of 0 in {@link #masks}: a longer name.
   */
  private final long[] packed;

  private final long[] masks;
  private final long[] packedHigh;
  private final long[] masksHigh;

  /** The positions with a packed name, when there are few enough to try each in turn; else null. */
  private final int[] fewShort;

  private static final java.lang.invoke.VarHandle LONG_LE =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
          long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  /**
   * @param fields a table's fields; each one not deprecated (nor a union's type) is found by its
   *     {@link FieldPlan#bsonName()}, the first by id where several read one name, and {@link
   *     #find} returns its position in this list
   */
  FieldLookup(List<FieldPlan> fields) {
    int capacity = Integer.highestOneBit(Math.max(4, fields.size() * 2 - 1)) << 1;
    names = new byte[capacity][];
    positions = new int[capacity];
    mask = capacity - 1;
    byPosition = new byte[fields.size()][];
    this.fields = List.copyOf(fields);
    Map<String, List<FieldPlan>> byName = new HashMap<>();
    List<List<FieldPlan>> groups = new ArrayList<>();
    for (FieldPlan f : fields) {
      boolean read = !f.deprecated() && !f.unionType();
      groups.add(read ? byName.computeIfAbsent(f.bsonName(), n -> new ArrayList<>()) : List.of());
      if (read) {
        groups.get(groups.size() - 1).add(f);
      }
    }
    this.readers = groups.stream().map(List::copyOf).toList();
    packed = new long[fields.size()];
    masks = new long[fields.size()];
    packedHigh = new long[fields.size()];
    masksHigh = new long[fields.size()];
    List<Integer> shortNames = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      FieldPlan f = fields.get(i);
      if (readers.get(i).isEmpty() || readers.get(i).get(0) != f) {
        continue; // nothing finds it, or another field before it reads its name
      }
      byte[] name = f.bsonName().getBytes(StandardCharsets.UTF_8);
      byPosition[i] = name;
      if (name.length <= 15) {
        byte[] withNul = Arrays.copyOf(name, 16); // the NUL, then bytes that do not count
        int counted = name.length + 1;
        for (int k = 0; k < 8; k++) {
          packed[i] |= (withNul[k] & 0xffL) << (8 * k);
          packedHigh[i] |= (withNul[8 + k] & 0xffL) << (8 * k);
        }
        masks[i] = counted >= 8 ? -1L : (1L << (8 * counted)) - 1;
        masksHigh[i] = counted <= 8 ? 0 : counted == 16 ? -1L : (1L << (8 * (counted - 8))) - 1;
        packed[i] &= masks[i];
        packedHigh[i] &= masksHigh[i];
        shortNames.add(i);
      }
      int slot = hash(name, 0, name.length) & mask;
      while (names[slot] != null) {
        slot = (slot + 1) & mask;
      }
      names[slot] = name;
      positions[slot] = i;
    }
    fewShort =
        shortNames.size() <= 8 ? shortNames.stream().mapToInt(Integer::intValue).toArray() : null;
  }

  /**
   * The fields that read {@code f}'s BSON name, by id (the first is the one {@link #find} finds):
   * {@code f} alone when no other field reads its name; none for a field nothing finds (deprecated,
   * a union's type) or not of this table.
   */
  public List<FieldPlan> readersOf(FieldPlan f) {
    int i = f.id();
    return i >= 0 && i < readers.size() && fields.get(i) == f ? readers.get(i) : List.of();
  }

  /**
   * The position of the field whose BSON name is {@code bytes[offset, offset + length)}, the first
   * by id when several read it, or -1 when the table has no such field.
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

  /**
   * When {@code bytes} at {@code offset} hold the BSON name of the field at {@code position} and
   * then its terminating NUL (names of up to 15 bytes), the position of that NUL; else -1, which
   * says nothing (look the name up the long way). One or two 8-byte loads and compares: the caller
   * makes sure {@code offset + 16 <= bytes.length}.
   */
  public int nulAfter(int position, byte[] bytes, int offset) {
    long mask = masks[position];
    if (mask == 0 || ((long) LONG_LE.get(bytes, offset) & mask) != packed[position]) {
      return -1;
    }
    long high = masksHigh[position];
    if (high != 0 && ((long) LONG_LE.get(bytes, offset + 8) & high) != packedHigh[position]) {
      return -1;
    }
    return offset + byPosition[position].length;
  }

  /**
   * The position of the field whose short name (and NUL) starts at {@code offset}, trying each of a
   * table's few short names in turn; -1 when none is there, or the table has too many to try (look
   * the name up the long way). The caller makes sure {@code offset + 16 <= bytes.length}.
   */
  public int findShort(byte[] bytes, int offset) {
    if (fewShort == null) {
      return -1;
    }
    long low = (long) LONG_LE.get(bytes, offset);
    for (int position : fewShort) {
      if ((low & masks[position]) == packed[position]
          && (masksHigh[position] == 0
              || ((long) LONG_LE.get(bytes, offset + 8) & masksHigh[position])
                  == packedHigh[position])) {
        return position;
      }
    }
    return -1;
  }

  /** The length in bytes of the BSON name of the field at {@code position}. */
  public int nameLength(int position) {
    return byPosition[position].length;
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
