package dev.flatdump.bench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

/**
 * Where the position-dependent numbers of one verified {@code Organizations} FlatBuffer are: every
 * {@code uoffset} (the distance from its own slot to what it points to) and every table's {@code
 * soffset} to its vtable, by kind. A shared table or string is one position but a different number
 * in every slot that points to it, which is what a general-purpose compressor cannot predict;
 * {@link #zeroed} lets a benchmark measure what each kind costs once compressed.
 *
 * <p>Shared tables and vectors are counted once, as they are stored once. The buffer must have
 * passed {@code SchemaVerifier}: positions are not checked again here.
 */
public final class References {

  /** The kinds of reference, in the order of the schema's nesting. */
  public enum Kind {
    ORG_SLOTS("organizations vector's elements (uoffset to each organization)"),
    ORG_VTABLES("organization tables' vtable offsets (soffset)"),
    ORG_FIELDS("organization tables' name, category, country and attributes (uoffsets)"),
    ATTRIBUTE_SLOTS("attribute vectors' elements (uoffset to a shared attribute table)"),
    ATTRIBUTE_VTABLES("attribute tables' vtable offsets (soffset)"),
    ATTRIBUTE_IDS("attribute tables' ids (uoffset to a shared string)");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  // Field indexes of the generated code (schemas/organizations.fbs).
  private static final int ORGANIZATIONS = 0;
  private static final int[] ORG_REFERENCE_FIELDS = {0, 1, 3}; // name, category, country
  private static final int ORG_ATTRIBUTES = 4;
  private static final int ATTRIBUTE_ID = 0;

  private final Map<Kind, int[]> positions;

  private References(Map<Kind, int[]> positions) {
    this.positions = positions;
  }

  /** Finds the references of a verified buffer (its position 0 is the file's first byte). */
  public static References of(ByteBuffer verified) {
    ByteBuffer bb = verified.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    Map<Kind, Positions> found = new EnumMap<>(Kind.class);
    for (Kind kind : Kind.values()) {
      found.put(kind, new Positions());
    }
    BitSet vectorsSeen = new BitSet(bb.limit());
    BitSet tablesSeen = new BitSet(bb.limit());
    int root = bb.getInt(0);
    int orgs = target(bb, field(bb, root, ORGANIZATIONS));
    int count = orgs < 0 ? 0 : bb.getInt(orgs);
    for (int i = 0; i < count; i++) {
      int slot = orgs + 4 + 4 * i;
      found.get(Kind.ORG_SLOTS).add(slot);
      int org = slot + bb.getInt(slot);
      found.get(Kind.ORG_VTABLES).add(org);
      for (int f : ORG_REFERENCE_FIELDS) {
        found.get(Kind.ORG_FIELDS).addIfPresent(field(bb, org, f));
      }
      int attributesField = field(bb, org, ORG_ATTRIBUTES);
      found.get(Kind.ORG_FIELDS).addIfPresent(attributesField);
      int vector = target(bb, attributesField);
      if (vector < 0 || vectorsSeen.get(vector)) {
        continue;
      }
      vectorsSeen.set(vector);
      int length = bb.getInt(vector);
      for (int j = 0; j < length; j++) {
        int element = vector + 4 + 4 * j;
        found.get(Kind.ATTRIBUTE_SLOTS).add(element);
        int table = element + bb.getInt(element);
        if (!tablesSeen.get(table)) {
          tablesSeen.set(table);
          found.get(Kind.ATTRIBUTE_VTABLES).add(table);
          found.get(Kind.ATTRIBUTE_IDS).addIfPresent(field(bb, table, ATTRIBUTE_ID));
        }
      }
    }
    Map<Kind, int[]> positions = new EnumMap<>(Kind.class);
    found.forEach((kind, p) -> positions.put(kind, p.toArray()));
    return new References(positions);
  }

  /** How many references of this kind the buffer holds (4 bytes each). */
  public int count(Kind kind) {
    return positions.get(kind).length;
  }

  /** Where they are: the offset of each reference's first byte, ascending. */
  public int[] positions(Kind kind) {
    return positions.get(kind).clone();
  }

  /** A copy of {@code bytes} (the buffer's bytes) with every reference of these kinds set to 0. */
  public byte[] zeroed(byte[] bytes, Set<Kind> kinds) {
    byte[] copy = bytes.clone();
    for (Kind kind : kinds) {
      for (int p : positions.get(kind)) {
        Arrays.fill(copy, p, p + 4, (byte) 0);
      }
    }
    return copy;
  }

  /** The position of a table's field, or -1 if the table leaves it out. */
  private static int field(ByteBuffer bb, int table, int index) {
    int vtable = table - bb.getInt(table);
    int entry = 4 + 2 * index;
    if (entry >= Short.toUnsignedInt(bb.getShort(vtable))) {
      return -1;
    }
    int at = Short.toUnsignedInt(bb.getShort(vtable + entry));
    return at == 0 ? -1 : table + at;
  }

  /** What the uoffset at {@code position} points to, or -1 for an absent field. */
  private static int target(ByteBuffer bb, int position) {
    return position < 0 ? -1 : position + bb.getInt(position);
  }

  /** A growing list of positions. */
  private static final class Positions {
    private int[] values = new int[1024];
    private int size;

    void add(int position) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = position;
    }

    void addIfPresent(int position) {
      if (position >= 0) {
        add(position);
      }
    }

    int[] toArray() {
      int[] sorted = Arrays.copyOf(values, size);
      Arrays.sort(sorted);
      return sorted;
    }
  }
}
