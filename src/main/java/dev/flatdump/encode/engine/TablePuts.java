package dev.flatdump.encode.engine;

import com.google.flatbuffers.BuilderSpace;
import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * table starts modulo 8 (the padding in front of 8-byte values). That pair remembers its layout
 * (each field's padding and width) and the vtable already written for it, so most tables cost their
 * {@code put}s and one lookup. A vtable new to its pair is looked up by its contents, as {@code
 * endTable} would, and written only if no table written here has an identical one. Tables that
 * {@code endTable} builds (the root) keep their own vtables; neither side shares the other's.
 *
 * <p>In a heap buffer, the table's bytes go straight into the builder's array once {@code prep}
 * made room for them, each value at the place its put would have left it (through {@link
 * BuilderSpace}, the one class that moves the builder's position); other buffers take the puts.
 *
 * <p>Types with more than 64 fields, or a struct aligned to more than 8, are not handled here
 * ({@link #handles}). One per encoder; forgets everything when the builder changes or restarts.
 * {@link #rollback} forgets the vtables written since {@link #mark}, as the builder gives their
 * space back; the layouts, which depend on no offset, stay.
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

  /**
   * Per type: (written fields, start mod 8) → the index of its {@link Layout} in {@link #layouts},
   * plus one.
   */
  private final LongIntMap[] byKey;

  /**
   * For a table type of at most {@value #DIRECT_FIELDS} fields, its layouts in an array indexed by
   * the key itself; else null.
   */
  private final Layout[][] direct;

  private static final int DIRECT_FIELDS = 8;

  private final java.util.List<Layout> layouts = new java.util.ArrayList<>();

  /** Every vtable written here, by its contents. */
  private final Map<VtableKey, Integer> vtablesByContents = new HashMap<>();

  private final int[] positions = new int[64];
  private FlatBufferBuilder builder;
  private int highWater;

  /** {@link #highWater} at the mark. */
  private int markedHighWater;

  /** The vtables put in {@link #vtablesByContents} since the mark, in order. */
  private final java.util.List<VtableKey> newVtables = new java.util.ArrayList<>();

  /** The layouts given a vtable since the mark. */
  private final java.util.List<Layout> newLayoutVtables = new java.util.ArrayList<>();

  /** Whether a heap buffer's table is written straight into its array ({@link BuilderSpace}). */
  private boolean arrayWrites = true;

  TablePuts(SchemaPlan plan, int[][] writeOrder) {
    this.plan = plan;
    this.writeOrder = writeOrder;
    int n = plan.tables().size();
    handles = new boolean[n];
    byKey = new LongIntMap[n];
    direct = new Layout[n][];
    shapes = new byte[n][];
    sizes = new int[n][];
    alignments = new int[n][];
    for (int i = 0; i < n; i++) {
      TablePlan t = plan.tables().get(i);
      int[] order = writeOrder[i];
      shapes[i] = new byte[order.length];
      sizes[i] = new int[order.length];
      alignments[i] = new int[order.length];
      for (int k = 0; k < order.length; k++) {
        FieldPlan f = t.fields().get(order[k]);
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
      byKey[i] = new LongIntMap();
      if (t.fields().size() <= DIRECT_FIELDS) {
        direct[i] = new Layout[8 << t.fields().size()];
      }
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
      for (LongIntMap m : byKey) {
        m.clear();
      }
      for (Layout[] d : direct) {
        if (d != null) {
          Arrays.fill(d, null);
        }
      }
      layouts.clear();
      vtablesByContents.clear();
      newVtables.clear();
      newLayoutVtables.clear();
    }
  }

  /**
   * Marks the builder {@code b}'s state, as the builder itself is marked: writes into {@code b}
   * from now on ({@link #use}), and logs the vtables found or written until the next mark.
   */
  void mark(FlatBufferBuilder b) {
    use(b);
    markedHighWater = highWater;
    newVtables.clear();
    newLayoutVtables.clear();
  }

  /**
   * Forgets the vtables found or written since {@link #mark}: the builder is rolled back to the
   * mark, which gives their space back, and a later table must find the vtables as it would have
   * without them.
   */
  void rollback() {
    for (VtableKey k : newVtables) {
      vtablesByContents.remove(k);
    }
    for (Layout l : newLayoutVtables) {
      l.vtable = 0;
    }
    newVtables.clear();
    newLayoutVtables.clear();
    highWater = markedHighWater;
  }

  /**
   * From now on, writes every table through the builder's puts, as a direct buffer's: what the
   * benchmark of {@link BuilderSpace} compares the array writes with.
   */
  void putsOnly() {
    arrayWrites = false;
  }

  /**
   * Writes one table of type {@code index} from the scratch's fields whose bits are set in {@code
   * written}; returns its offset.
   */
  int write(int index, TablePlan t, Scratch s, long written) {
    int start = builder.offset();
    Layout l = layout(index, written, start & 7);
    builder.prep(l.align, l.room);
    ByteBuffer bb = BuilderSpace.buffer(builder);
    if (arrayWrites
        && bb.hasArray()
        && bb.arrayOffset() == 0
        && bb.array().length == bb.capacity()) {
      return writeInto(bb.array(), l, t, s, written, start);
    }
    byte[] pads = l.pads;
    int[] fields = l.fields;
    byte[] widths = l.widths;
    long[] bits = s.bits;
    for (int k = 0; k < fields.length; k++) {
      pad(pads[k]);
      int fi = fields[k];
      switch (widths[k]) {
        case 1 -> builder.putByte((byte) bits[fi]);
        case 2 -> builder.putShort((short) bits[fi]);
        case 4 -> builder.putInt((int) bits[fi]);
        case 8 -> builder.putLong(bits[fi]);
        case OFFSET_WIDTH -> builder.putInt(builder.offset() + 4 - s.offsets[fi]);
        default -> {
          byte[] bytes = s.structs[fi];
          for (int i = bytes.length - 1; i >= 0; i--) {
            builder.putByte(bytes[i]);
          }
        }
      }
    }
    pad(l.tail);
    int table = builder.offset() + 4;
    highWater = table;
    if (l.vtable == 0) {
      return firstOfLayout(l, t, written, start, table);
    }
    builder.putInt(l.vtable - table); // negative: the vtable was written earlier, further back
    highWater = builder.offset();
    return table;
  }

  /**
   * {@link #write} straight into the builder's heap array {@code a}, where {@code prep} made room:
   * the table's bytes zeroed (its paddings), then each value at its place, as the puts would have
   * left them.
   */
  private int writeInto(byte[] a, Layout l, TablePlan t, Scratch s, long written, int start) {
    int top = BuilderSpace.space(builder);
    int low = top - l.size;
    int i = top;
    for (; i - 8 >= low; i -= 8) {
      LONG_LE.set(a, i - 8, 0L);
    }
    while (i > low) {
      a[--i] = 0;
    }
    int[] fields = l.fields;
    byte[] widths = l.widths;
    int[] ends = l.ends;
    long[] bits = s.bits;
    int tableEnd = a.length - low; // the builder's offset once the table's fields are in
    for (int k = 0; k < fields.length; k++) {
      int fi = fields[k];
      int at = top - ends[k];
      switch (widths[k]) {
        case 1 -> a[at] = (byte) bits[fi];
        case 2 -> SHORT_LE.set(a, at, (short) bits[fi]);
        case 4 -> INT_LE.set(a, at, (int) bits[fi]);
        case 8 -> LONG_LE.set(a, at, bits[fi]);
        case OFFSET_WIDTH -> INT_LE.set(a, at, a.length - at - s.offsets[fi]);
        default -> {
          byte[] bytes = s.structs[fi];
          System.arraycopy(bytes, 0, a, at, bytes.length);
        }
      }
    }
    int table = tableEnd + 4;
    if (l.vtable == 0) {
      BuilderSpace.space(builder, low);
      highWater = table;
      return firstOfLayout(l, t, written, start, table);
    }
    INT_LE.set(a, low - 4, l.vtable - table); // negative: the vtable was written earlier
    BuilderSpace.space(builder, low - 4);
    highWater = table;
    return table;
  }

  private static final VarHandle SHORT_LE =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * Ends the first table of a layout: the vtable of an earlier table with the same contents, or a
   * new one right in front of this table.
   */
  private int firstOfLayout(Layout l, TablePlan t, long written, int start, int table) {
    for (int k = 0; k < l.fields.length; k++) {
      positions[l.fields[k]] = start + l.ends[k];
    }
    VtableKey contents = contents(t, written, start, table);
    Integer known = vtablesByContents.get(contents);
    if (known == null) {
      int length = contents.slots.length * 2;
      builder.putInt(length);
      for (int i = contents.slots.length - 1; i >= 0; i--) {
        builder.putShort(contents.slots[i]);
      }
      highWater = builder.offset();
      vtablesByContents.put(contents, builder.offset());
      newVtables.add(contents);
      l.vtable = builder.offset();
      newLayoutVtables.add(l);
      return table;
    }
    l.vtable = known;
    newLayoutVtables.add(l);
    builder.putInt(known - table);
    highWater = builder.offset();
    return table;
  }

  /** The layout of a table of type {@code index} writing {@code written}, starting at 8k + s7. */
  private Layout layout(int index, long written, int s7) {
    Layout[] d = direct[index];
    long key = written * 8 + s7;
    if (d != null) {
      Layout l = d[(int) key];
      if (l == null) {
        l = d[(int) key] = newLayout(index, written, s7);
      }
      return l;
    }
    if (written >>> 61 != 0) {
      return newLayout(index, written, s7); // the key would not fit: not kept
    }
    int i = byKey[index].get(key);
    if (i == 0) {
      Layout l = newLayout(index, written, s7);
      byKey[index].put(key, layouts.size());
      return l;
    }
    return layouts.get(i - 1);
  }

  /**
   * Where each written field goes, replaying the puts from a start at 8k + s7: the padding in front
   * of each, the room {@code prep} makes (everything without padding, so that {@code prep} itself
   * pads nothing, and the buffer's alignment raised as the fields' own prep calls would).
   */
  private Layout newLayout(int index, long written, int s7) {
    int[] order = writeOrder[index];
    int n = Long.bitCount(written);
    byte[] pads = new byte[n];
    int[] fields = new int[n];
    byte[] widths = new byte[n];
    int[] ends = new int[n];
    int align = 4;
    int bound =
        11
            + 2
                * plan.tables()
                    .get(index)
                    .fields()
                    .size(); // the offset to the vtable, its padding, the vtable
    int at = s7;
    int j = 0;
    for (int k = 0; k < order.length; k++) {
      if ((written & (1L << order[k])) == 0) {
        continue;
      }
      int alignment = alignments[index][k];
      align = Math.max(align, alignment);
      bound += sizes[index][k] + alignment - 1;
      pads[j] = (byte) (-at & (alignment - 1));
      at += pads[j] + sizes[index][k];
      fields[j] = order[k];
      widths[j] =
          switch (shapes[index][k]) {
            case SCALAR -> (byte) sizes[index][k];
            case STRUCT -> STRUCT_WIDTH;
            default -> OFFSET_WIDTH;
          };
      ends[j] = at - s7;
      j++;
    }
    int tail = -at & 3;
    Layout l = new Layout(align, (-s7 & 7) + ((bound + 7) & ~7), pads, fields, widths, ends, tail);
    layouts.add(l);
    return l;
  }

  private static final byte OFFSET_WIDTH = 0;
  private static final byte STRUCT_WIDTH = -1;

  /**
   * How a table of one type writing one set of fields, from a start at 8k + s7, is laid out; and
   * its vtable once one is known in this buffer.
   */
  private static final class Layout {
    final int align;
    final int room;
    final byte[] pads;
    final int[] fields;

    /** Per field: its scalar's size, {@link #OFFSET_WIDTH} or {@link #STRUCT_WIDTH}. */
    final byte[] widths;

    /** Per field: the bytes from the table's start once it is written. */
    final int[] ends;

    final int tail;

    /** The table's bytes, from its start to its offset to the vtable: fields and paddings. */
    final int size;

    int vtable;

    Layout(int align, int room, byte[] pads, int[] fields, byte[] widths, int[] ends, int tail) {
      this.align = align;
      this.room = room;
      this.pads = pads;
      this.fields = fields;
      this.widths = widths;
      this.ends = ends;
      this.tail = tail;
      this.size = (ends.length == 0 ? 0 : ends[ends.length - 1]) + tail;
    }
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
