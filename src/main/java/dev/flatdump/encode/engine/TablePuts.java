package dev.flatdump.encode.engine;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes tables straight into a {@link FlatBufferBuilder} with {@code put}s: the bytes {@code
 * startTable}, {@code addX} and {@code endTable} would write, without their work per field (a
 * bounds check and alignment per value, a slot array) and without {@code endTable}'s search through
 * every vtable of the buffer.
 *
 * <p>A table's layout, and so its vtable, depends only on which fields are written and on where the
 * table starts modulo 8 (the padding in front of 8-byte values). That pair remembers the vtable
 * already written for it, so most tables cost their {@code put}s and one lookup. A vtable new to
 * its pair is looked up by its contents, as {@code endTable} would, and written only if no table
 * written here has an identical one. Tables that {@code endTable} builds (the root) keep their own
 * vtables; neither side shares the other's.
 *
 * <p>Types with more than 64 fields, or a struct aligned to more than 8, are not handled here
 * ({@link #handles}). One per encoder; forgets everything when the builder changes or restarts.
 */
final class TablePuts {

  private static final byte SCALAR = 0;
  private static final byte STRUCT = 1;
  private static final byte OFFSET = 2;

  private final SchemaPlan plan;
  private final int[][] writeOrder;
  private final boolean[] handles;

  /** Per type, by write order: what each field is, its size and its alignment. */
  private final byte[][] shapes;

  private final int[][] sizes;
  private final int[][] alignments;
  private final FieldKind[][] kinds;

  /** Per type: (written fields, start mod 8) → the vtable's offset from the buffer's end. */
  private final LongIntMap[] vtables;

  /** Every vtable written here, by its contents. */
  private final Map<VtableKey, Integer> vtablesByContents = new HashMap<>();

  private final int[] positions = new int[64];
  private FlatBufferBuilder builder;
  private int highWater;

  TablePuts(SchemaPlan plan, int[][] writeOrder) {
    this.plan = plan;
    this.writeOrder = writeOrder;
    int n = plan.tables().size();
    handles = new boolean[n];
    vtables = new LongIntMap[n];
    shapes = new byte[n][];
    sizes = new int[n][];
    alignments = new int[n][];
    kinds = new FieldKind[n][];
    for (int i = 0; i < n; i++) {
      TablePlan t = plan.tables().get(i);
      int[] order = writeOrder[i];
      shapes[i] = new byte[order.length];
      sizes[i] = new int[order.length];
      alignments[i] = new int[order.length];
      kinds[i] = new FieldKind[order.length];
      for (int k = 0; k < order.length; k++) {
        FieldPlan f = t.fields().get(order[k]);
        kinds[i][k] = f.kind();
        sizes[i][k] = plan.inlineSize(f, f.kind());
        alignments[i][k] = plan.alignment(f, f.kind());
        shapes[i][k] =
            f.kind().isScalar() ? SCALAR : f.kind() == FieldKind.STRUCT ? STRUCT : OFFSET;
      }
      boolean ok = !t.struct() && t.fields().size() <= 64;
      for (FieldPlan f : t.fields()) {
        if (f.kind() == FieldKind.STRUCT && plan.tables().get(f.typeIndex()).minAlign() > 8) {
          ok = false;
        }
      }
      handles[i] = ok;
      vtables[i] = new LongIntMap();
    }
  }

  /** Whether tables of this type are written here. */
  boolean handles(int index) {
    return handles[index];
  }

  /** Writes into {@code b} from now on; forgets the vtables of another buffer or of a restart. */
  void use(FlatBufferBuilder b) {
    if (b != builder || b.offset() < highWater) {
      builder = b;
      for (LongIntMap m : vtables) {
        m.clear();
      }
      vtablesByContents.clear();
    }
  }

  /**
   * Writes one table of type {@code index} from the scratch's fields whose bits are set in {@code
   * written}; returns its offset.
   */
  int write(int index, TablePlan t, Scratch s, long written) {
    int start = builder.offset();
    int[] order = writeOrder[index];
    byte[] shape = shapes[index];
    int[] size = sizes[index];
    int[] alignment = alignments[index];
    int align = 4;
    int bound = 11 + 2 * t.fields().size(); // the offset to the vtable, its padding, the vtable
    for (int k = 0; k < order.length; k++) {
      if ((written & (1L << order[k])) != 0) {
        align = Math.max(align, alignment[k]);
        bound += size[k] + alignment[k] - 1;
      }
    }
    // Room for everything without padding: start + (-start & 7) + bound is aligned to 8 already.
    // It also raises the buffer's alignment as the fields' own prep calls would.
    builder.prep(align, (-start & 7) + ((bound + 7) & ~7));
    for (int k = 0; k < order.length; k++) {
      int fi = order[k];
      if ((written & (1L << fi)) == 0) {
        continue;
      }
      pad(-builder.offset() & (alignment[k] - 1));
      switch (shape[k]) {
        case SCALAR -> put(kinds[index][k], s.bits[fi]);
        case STRUCT -> {
          byte[] bytes = s.structs[fi];
          for (int i = bytes.length - 1; i >= 0; i--) {
            builder.putByte(bytes[i]);
          }
        }
        default -> builder.putInt(builder.offset() + 4 - s.offsets[fi]);
      }
      positions[fi] = builder.offset();
    }
    pad(-builder.offset() & 3);
    int table = builder.offset() + 4;
    highWater = table;
    long key = written * 8 + (start & 7);
    LongIntMap byLayout = vtables[index];
    int vtable = written >>> 61 == 0 ? byLayout.get(key) : 0;
    if (vtable == 0) {
      VtableKey contents = contents(t, written, start, table);
      Integer known = vtablesByContents.get(contents);
      if (known == null) {
        // a new vtable goes right in front of its first table
        int length = contents.slots.length * 2;
        builder.putInt(length);
        for (int i = contents.slots.length - 1; i >= 0; i--) {
          builder.putShort(contents.slots[i]);
        }
        highWater = builder.offset();
        vtablesByContents.put(contents, builder.offset());
        if (written >>> 61 == 0) {
          byLayout.put(key, builder.offset());
        }
        return table;
      }
      vtable = known;
      if (written >>> 61 == 0) {
        byLayout.put(key, vtable);
      }
    }
    builder.putInt(vtable - table); // negative: the vtable was written earlier, further back
    highWater = builder.offset();
    return table;
  }

  /** The vtable as {@code endTable} writes it: its size, the table's size, each field's place. */
  private VtableKey contents(TablePlan t, long written, int start, int table) {
    int fields = 64 - Long.numberOfLeadingZeros(written);
    short[] slots = new short[fields + 2];
    slots[0] = (short) (2 * (fields + 2));
    slots[1] = (short) (table - start);
    for (int fi = 0; fi < fields; fi++) {
      slots[2 + fi] = (written & (1L << fi)) == 0 ? 0 : (short) (table - positions[fi]);
    }
    return new VtableKey(slots);
  }

  private void put(FieldKind kind, long bits) {
    switch (kind) {
      case BOOL, BYTE, UBYTE -> builder.putByte((byte) bits);
      case SHORT, USHORT -> builder.putShort((short) bits);
      case INT, UINT, FLOAT -> builder.putInt((int) bits);
      case LONG, ULONG, DOUBLE -> builder.putLong(bits);
      default -> throw new IllegalArgumentException("not a scalar: " + kind);
    }
  }

  /** 0..7 zero bytes, in at most three writes; all zero, their order does not matter. */
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

  private record VtableKey(short[] slots) {
    @Override
    public boolean equals(Object o) {
      return o instanceof VtableKey k && Arrays.equals(slots, k.slots);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(slots);
    }
  }

  /** An open-addressing map from long keys to non-zero ints; 0 for a missing key. */
  private static final class LongIntMap {
    private long[] keys = new long[16];
    private int[] values = new int[16];
    private int size;

    int get(long key) {
      int mask = keys.length - 1;
      int slot = mix(key) & mask;
      while (values[slot] != 0) {
        if (keys[slot] == key) {
          return values[slot];
        }
        slot = (slot + 1) & mask;
      }
      return 0;
    }

    void put(long key, int value) {
      if (2 * (size + 1) > keys.length) {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[keys.length * 2];
        values = new int[values.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
          if (oldValues[i] != 0) {
            put(oldKeys[i], oldValues[i]);
          }
        }
      }
      int mask = keys.length - 1;
      int slot = mix(key) & mask;
      while (values[slot] != 0 && keys[slot] != key) {
        slot = (slot + 1) & mask;
      }
      if (values[slot] == 0) {
        size++;
      }
      keys[slot] = key;
      values[slot] = value;
    }

    void clear() {
      Arrays.fill(values, 0);
      size = 0;
    }

    private static int mix(long key) {
      long h = key * 0x9E3779B97F4A7C15L;
      return (int) (h ^ (h >>> 32));
    }
  }
}
