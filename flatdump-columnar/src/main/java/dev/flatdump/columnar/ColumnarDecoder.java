package dev.flatdump.columnar;

import com.github.luben.zstd.ZstdDecompressCtx;
import dev.flatdump.reader.BinarySchema;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * Rebuilds a shard from its columnar copy: each object in the order it was written, from the
 * buffer's end, where the builder put it (or where the copy says), its fields from its columns. The
 * rebuilt bytes are checked against the SHA-256 the copy carries; a damaged copy is a {@link
 * ColumnarException}, never a different shard.
 */
final class ColumnarDecoder {

  private final byte[] out;
  private final int total;
  private final BinarySchema schema;
  private final Columns columns;

  private final ByteSource tags;
  private final ByteSource vtables;
  private final ByteSource gaps;
  private final ByteSource xrefs;
  private int gapsLeft;
  private int nextGap;

  // Per column.
  private final long[][] refs;
  private final long[][] own;
  private final long[][] strLen;

  /** Where each column's next reference, own code and string length are. */
  private final int[] refAt;

  private final int[] ownAt;
  private final int[] lenAt;
  private final byte[][] strBytes;
  private final int[] strAt;
  private final long[][] values;
  private final int[] valueAt;
  private final IntList[] owned;
  private final int[] cursor;
  private final IntList[] literalAt;
  private final IntList[] literalLength;

  // Vtables, by index: where, and their slots.
  private final IntList vtablePos = new IntList();
  private final java.util.ArrayList<int[]> vtableSlots = new java.util.ArrayList<>();

  private final TableFields[] plans;

  /** The largest array the JVM allocates, as the JDK's own collections assume. */
  static final int MAX_SHARD = Integer.MAX_VALUE - 8;

  private final int regions;
  private final int rootRegion;
  private final byte[] prefix;
  private final byte[] sha;
  private final int[] regionPos;

  ColumnarDecoder(byte[] fbc, byte[] bfbs) {
    ByteSource in = new ByteSource(fbc);
    byte[] magic = in.bytes(ColumnarCopy.MAGIC.length);
    if (!Arrays.equals(magic, ColumnarCopy.MAGIC)) {
      throw new ColumnarException("not a columnar copy: no FBC1 magic");
    }
    if ((int) in.fixed(4) != ColumnarCopy.crc(fbc)) {
      throw new ColumnarException("damaged columnar copy: its CRC-32C does not match its bytes");
    }
    total = in.count();
    if (total > MAX_SHARD) {
      throw Columns.damaged("a shard of " + total + " bytes, more than an array can hold");
    }
    sha = in.bytes(32);
    int p = in.count();
    if (p < 4 || p > 8 || p > total) {
      throw Columns.damaged("a prefix of " + p + " bytes");
    }
    prefix = in.bytes(p - 4);
    regions = in.count();
    rootRegion = in.count();
    if (regions < 1 || regions > total || rootRegion >= regions) {
      throw Columns.damaged(regions + " objects in a shard of " + total + " bytes");
    }
    byte[] schemaSha = in.bytes(32);
    if (!Arrays.equals(schemaSha, ColumnarEncoder.sha256(bfbs))) {
      throw new ColumnarException(
          "the columnar copy was made with another schema than the one given (SHA-256 "
              + java.util.HexFormat.of().formatHex(schemaSha)
              + ")");
    }
    try {
      schema = BinarySchema.read(ByteBuffer.wrap(bfbs));
    } catch (RuntimeException e) {
      throw new ColumnarException("the schema does not read: " + e.getMessage(), e);
    }
    columns = new Columns(schema);
    int n = in.count();
    if (n < 1 || n > fbc.length) {
      throw Columns.damaged(n + " columns");
    }
    try (ZstdDecompressCtx ctx = new ZstdDecompressCtx()) {
      // No stream of a shard of T bytes holds more than 16 bytes per byte of it (a gap, the
      // largest, is two varints per object); the directory holds the small ones besides.
      long limit = 16L * total + 64;
      Streams.Reader streams =
          new Streams.Reader(
              in, ctx, limit + (Streams.SMALL + 16L) * (4 + 5L * n) + 32L * n, limit);
      ByteSource d = streams.directory();
      for (int id = 1; id < n; id++) {
        int parent = d.count();
        int selector = d.count();
        int member = d.count();
        if (parent >= id) {
          throw Columns.damaged("column " + id + " after its parent " + parent);
        }
        Columns.Column c = columns.child(columns.get(parent), selector, member);
        if (c.id != id) {
          throw Columns.damaged("column " + id + " given twice");
        }
      }
      tags = new ByteSource(streams.next());
      vtables = new ByteSource(streams.next());
      gaps = new ByteSource(streams.next());
      xrefs = new ByteSource(streams.next());
      // Each object has a tag of at least a byte, but a vtable written right after its table.
      if (regions > 2L * tags.remaining()) {
        throw Columns.damaged(regions + " objects with " + tags.remaining() + " bytes of tags");
      }
      gapsLeft = gaps.remaining() == 0 ? 0 : gaps.count();
      nextGap = gapsLeft > 0 ? gaps.count() : -1;
      refs = new long[n][];
      own = new long[n][];
      strLen = new long[n][];
      refAt = new int[n];
      ownAt = new int[n];
      lenAt = new int[n];
      strBytes = new byte[n][];
      strAt = new int[n];
      values = new long[n][];
      valueAt = new int[n];
      owned = new IntList[n];
      cursor = new int[n];
      literalAt = new IntList[n];
      literalLength = new IntList[n];
      // Located in order, then decompressed and decoded in parallel: they are independent.
      List<Runnable> work = new java.util.ArrayList<>();
      // Every value stands for at least one byte of the shard: all of them at most its size.
      java.util.concurrent.atomic.AtomicLong budget =
          new java.util.concurrent.atomic.AtomicLong(total);
      for (int id = 0; id < n; id++) {
        int mask = d.read();
        if ((mask & ~0x1f) != 0) {
          throw Columns.damaged("column " + id + " has streams " + mask);
        }
        int column = id;
        Columns.Column c = columns.get(id);
        refs[id] = own[id] = strLen[id] = values[id] = NONE;
        strBytes[id] = EMPTY;
        if ((mask & 1) != 0) {
          Streams.Pending s = streams.pending();
          work.add(() -> refs[column] = Values.read(s.bytes(), false, budget));
        }
        if ((mask & 2) != 0) {
          Streams.Pending s = streams.pending();
          work.add(() -> own[column] = Values.read(s.bytes(), false, budget));
        }
        if ((mask & 4) != 0) {
          Streams.Pending s = streams.pending();
          work.add(() -> strLen[column] = Values.read(s.bytes(), false, budget));
        }
        if ((mask & 8) != 0) {
          Streams.Pending s = streams.pending();
          work.add(() -> strBytes[column] = s.bytes());
        }
        if ((mask & 16) != 0) {
          Streams.Pending s = streams.pending();
          work.add(() -> values[column] = Values.read(s.bytes(), c.signed(), budget));
        }
        owned[id] = new IntList();
      }
      work.parallelStream().forEach(Runnable::run);
      if (d.remaining() != 0 || in.remaining() != 0) {
        throw Columns.damaged("bytes after its last stream");
      }
    }
    plans = new TableFields[columns.size()];
    try {
      out = new byte[total];
      regionPos = new int[regions];
    } catch (OutOfMemoryError e) {
      // One array, not yet used: refusing it leaves nothing half-done.
      throw new ColumnarException(
          "the columnar copy's shard of " + total + " bytes does not fit in this JVM's heap", e);
    }
  }

  /** The rebuilt shard, its SHA-256 checked. */
  byte[] rebuild() {
    byte[] shard = rebuildUnchecked();
    if (!Arrays.equals(ColumnarEncoder.sha256(shard), sha)) {
      throw new ColumnarException(
          "the columnar copy rebuilds a shard whose SHA-256 is not the one it was made from");
    }
    return shard;
  }

  /** The rebuilt shard, its SHA-256 not checked: for a caller that compares it otherwise. */
  byte[] rebuildUnchecked() {
    try {
      decode();
    } catch (IndexOutOfBoundsException | NegativeArraySizeException e) {
      throw Columns.damaged("an object out of the shard (" + e.getMessage() + ")");
    }
    return out;
  }

  private int o0;

  /** Whether the table decoded last had its vtable right after it. */
  private boolean inlineVtable;

  private void decode() {
    for (int r = 0; r < regions; r++) {
      int tag = tags.count();
      if (tag == 0) {
        r = vtable(r, o0);
        continue;
      }
      int c = tag - 1;
      if (c >= columns.size()) {
        throw Columns.damaged("an object of column " + c);
      }
      Columns.Column col = columns.get(c);
      int start;
      switch (col.kind) {
        case Columns.STRING -> start = string(r, col);
        case Columns.VECTOR -> start = vector(r, col);
        case Columns.TABLE -> {
          start = table(r, col);
          if (inlineVtable) {
            // Its vtable came right after it.
            regionPos[r] = total - start;
            own(col, r);
            r++;
            continue;
          }
        }
        default -> throw Columns.damaged("an object of column " + c + ", which holds scalars");
      }
      regionPos[r] = total - start;
      own(col, r);
      o0 = start;
    }
    if (tags.remaining() != 0) {
      throw Columns.damaged("more objects than it says");
    }
    int root = regionPos[rootRegion];
    LittleEndian.putInt(out, 0, root);
    System.arraycopy(prefix, 0, out, 4, prefix.length);
  }

  private static final long[] NONE = new long[0];
  private static final byte[] EMPTY = new byte[0];

  private int own(Columns.Column c) {
    return code(own, ownAt, c.id);
  }

  /** Column {@code id}'s next code of {@code codes}: a non-negative int. */
  private static int code(long[][] codes, int[] at, int id) {
    long[] v = codes[id];
    int i = at[id]++;
    if (i >= v.length) {
      throw Columns.damaged("column " + id + " ends early");
    }
    long x = v[i];
    if (x < 0 || x > Integer.MAX_VALUE) {
      throw Columns.damaged("column " + id + " holds a code of " + x);
    }
    return (int) x;
  }

  private void own(Columns.Column c, int r) {
    owned[c.id].add(regionPos[r]);
  }

  /** Where the object of region {@code r} starts, from the end: predicted, or as the copy says. */
  private int start(int r, int predicted) {
    if (r == nextGap) {
      long d = gaps.zigzag();
      gapsLeft--;
      nextGap = gapsLeft > 0 ? r + gaps.count() : -1;
      long s = predicted + d;
      if (s < 0 || s > total) {
        throw Columns.damaged("an object outside the shard");
      }
      return (int) s;
    }
    if (predicted > total) {
      throw Columns.damaged("an object outside the shard");
    }
    return predicted;
  }

  /** A vtable standing alone (tag 0): returns r. */
  private int vtable(int r, int o) {
    int[] slots = readVtable();
    int start = start(r, Layout.object(o, 4 + 2 * slots.length));
    int p = total - start;
    writeVtable(p, slots);
    regionPos[r] = p;
    o0 = start;
    return r;
  }

  /** A vtable's slots: [table size, offsets...]. */
  private int[] readVtable() {
    int n = vtables.count();
    if (n > 32767) {
      throw Columns.damaged("a vtable of " + n + " slots");
    }
    int[] slots = new int[n + 1];
    slots[0] = vtables.count();
    for (int i = 1; i <= n; i++) {
      slots[i] = vtables.count();
    }
    return slots;
  }

  private void writeVtable(int p, int[] slots) {
    LittleEndian.putShort(out, p, (short) (2 + 2 * slots.length));
    LittleEndian.putShort(out, p + 2, (short) slots[0]);
    for (int i = 1; i < slots.length; i++) {
      LittleEndian.putShort(out, p + 2 + 2 * i, (short) slots[i]);
    }
    vtablePos.add(p);
    vtableSlots.add(slots);
  }

  private int string(int r, Columns.Column c) {
    int code = own(c);
    int id = c.id;
    if (literalAt[id] == null) {
      literalAt[id] = new IntList();
      literalLength[id] = new IntList();
    }
    int at;
    int length;
    if (code == 0) {
      length = code(strLen, lenAt, id);
      at = strAt[id];
      if (length > strBytes[id].length - at) {
        throw ByteSource.truncated();
      }
      strAt[id] = at + length;
      literalAt[id].add(at);
      literalLength[id].add(length);
    } else {
      if (code - 1 >= literalAt[id].size) {
        throw Columns.damaged("a string of column " + id + " repeats one not yet given");
      }
      at = literalAt[id].get(code - 1);
      length = literalLength[id].get(code - 1);
    }
    int start = start(r, Layout.string(o0, length));
    int p = total - start;
    LittleEndian.putInt(out, p, length);
    System.arraycopy(strBytes[id], at, out, p + 4, length);
    return start;
  }

  private int vector(int r, Columns.Column c) {
    int n = own(c);
    if ((long) n * c.width > total) {
      throw Columns.damaged("a vector of " + n + " elements");
    }
    int start = start(r, Layout.vector(o0, n, c.width, c.alignment));
    int p = total - start;
    LittleEndian.putInt(out, p, n);
    if (n == 0) {
      return start;
    }
    Columns.Column e = columns.child(c, 0, 0);
    int q = p + 4;
    switch (e.kind) {
      case Columns.SCALAR -> {
        for (int i = 0; i < n; i++) {
          scalar(e, q + i * e.width);
        }
      }
      case Columns.STRUCT -> {
        for (int i = 0; i < n; i++) {
          struct(e, q + i * e.width);
        }
      }
      default -> {
        for (int i = 0; i < n; i++) {
          ref(e, q + 4 * i);
        }
      }
    }
    return start;
  }

  /** A table, and its vtable when it comes right after it; returns the table's start. */
  private int table(int r, Columns.Column c) {
    int code = own(c);
    inlineVtable = code == 0;
    int[] slots;
    int vtPos;
    int start;
    if (code == 0) {
      slots = readVtable();
      start = start(r, Layout.object(o0, slots[0]));
      if (r + 1 >= regions) {
        throw Columns.damaged("a vtable past the last object");
      }
      int vStart = start(r + 1, Layout.object(start, 4 + 2 * (slots.length - 1)));
      vtPos = total - vStart;
      writeVtable(vtPos, slots);
      regionPos[r + 1] = vtPos;
      o0 = vStart;
    } else {
      if (code - 1 >= vtablePos.size) {
        throw Columns.damaged("a table whose vtable is not yet given");
      }
      slots = vtableSlots.get(code - 1);
      vtPos = vtablePos.get(code - 1);
      start = start(r, Layout.object(o0, slots[0]));
    }
    int t = total - start;
    if (slots[0] < 4 || t + slots[0] > total) {
      throw Columns.damaged("a table outside the shard");
    }
    LittleEndian.putInt(out, t, t - vtPos);
    int vtIndex = code == 0 ? vtablePos.size - 1 : code - 1;
    Program program = program(c, vtIndex, slots);
    int[] off = program.off;
    int[] op = program.op;
    int[] ids = program.column;
    for (int k = 0; k < off.length; k++) {
      int p = t + off[k];
      int id = ids[k];
      switch (op[k]) {
        case Program.BYTE -> out[p] = (byte) values[id][valueAt[id]++];
        case Program.SHORT -> LittleEndian.putShort(out, p, (short) values[id][valueAt[id]++]);
        case Program.INT -> LittleEndian.putInt(out, p, (int) values[id][valueAt[id]++]);
        case Program.LONG -> LittleEndian.putLong(out, p, values[id][valueAt[id]++]);
        case Program.STRUCT -> struct(columns.get(id), p);
        case Program.REF -> ref(columns.get(id), p);
        default -> {
          int to = program.unionType[k];
          int member = to == 0 ? 0 : out[t + to] & 0xff;
          ref(columns.child(c, id + 1, member), p);
        }
      }
    }
    return start;
  }

  /**
   * What a table of one column laid out by one vtable holds, field by field: where, and how each is
   * written. Made once per column and vtable.
   */
  private static final class Program {
    static final int BYTE = 0;
    static final int SHORT = 1;
    static final int INT = 2;
    static final int LONG = 3;
    static final int STRUCT = 4;
    static final int REF = 5;
    static final int UNION = 6;

    final int[] off;
    final int[] op;

    /** The field's column; for a union, its field id. */
    final int[] column;

    /** For a union, its type field's offset in the table, 0 when absent. */
    final int[] unionType;

    Program(int n) {
      off = new int[n];
      op = new int[n];
      column = new int[n];
      unionType = new int[n];
    }
  }

  private final java.util.HashMap<Long, Program> programs = new java.util.HashMap<>();
  private int lastProgramColumn = -1;
  private int lastProgramVtable = -1;
  private Program lastProgram;

  private Program program(Columns.Column c, int vtIndex, int[] slots) {
    if (c.id == lastProgramColumn && vtIndex == lastProgramVtable) {
      return lastProgram;
    }
    long key = ((long) c.id << 32) | vtIndex;
    Program program = programs.get(key);
    if (program == null) {
      program = makeProgram(c, slots);
      programs.put(key, program);
    }
    lastProgramColumn = c.id;
    lastProgramVtable = vtIndex;
    lastProgram = program;
    return program;
  }

  private Program makeProgram(Columns.Column c, int[] slots) {
    TableFields plan = plans[c.id];
    if (plan == null) {
      plan = plans[c.id] = new TableFields(schema, c.type);
    }
    int vtSize = 2 + 2 * slots.length;
    IntList present = new IntList();
    for (int i = 0; i < plan.slot.length; i++) {
      int slot = plan.slot[i];
      if (slot < vtSize && slots[(slot - 2) >> 1] != 0) {
        present.add(i);
      }
    }
    Program program = new Program(present.size);
    for (int k = 0; k < present.size; k++) {
      int i = present.get(k);
      program.off[k] = slots[(plan.slot[i] - 2) >> 1];
      if (plan.kind[i] == TableFields.UNION) {
        int typeSlot = plan.typeSlot[i];
        program.op[k] = Program.UNION;
        program.column[k] = plan.id[i];
        program.unionType[k] = typeSlot < vtSize ? slots[(typeSlot - 2) >> 1] : 0;
        continue;
      }
      Columns.Column child = plan.child(i, columns, c);
      program.column[k] = child.id;
      program.op[k] =
          switch (child.kind) {
            case Columns.SCALAR ->
                switch (child.width) {
                  case 1 -> Program.BYTE;
                  case 2 -> Program.SHORT;
                  case 4 -> Program.INT;
                  default -> Program.LONG;
                };
            case Columns.STRUCT -> Program.STRUCT;
            default -> Program.REF;
          };
      if (child.id >= values.length) {
        throw Columns.damaged("a field of column " + c.id + " has no column");
      }
    }
    return program;
  }

  private void scalar(Columns.Column c, int p) {
    int i = valueAt[c.id]++;
    long[] v = values[c.id];
    if (i >= v.length) {
      throw Columns.damaged("column " + c.id + " has too few values");
    }
    long x = v[i];
    switch (c.width) {
      case 1 -> out[p] = (byte) x;
      case 2 -> LittleEndian.putShort(out, p, (short) x);
      case 4 -> LittleEndian.putInt(out, p, (int) x);
      default -> LittleEndian.putLong(out, p, x);
    }
  }

  private void struct(Columns.Column c, int p) {
    for (BinarySchema.Field f : schema.objects().get(c.type).fields()) {
      Columns.Column child = columns.child(c, f.id() + 1, 0);
      if (child.kind == Columns.SCALAR) {
        scalar(child, p + f.offset());
      } else {
        struct(child, p + f.offset());
      }
    }
  }

  /** Writes at {@code p} the offset of the object column {@code c}'s next reference names. */
  private void ref(Columns.Column c, int p) {
    int code = code(refs, refAt, c.id);
    int target;
    if (code == 1) {
      int other = xrefs.count();
      int index = xrefs.count();
      if (other >= columns.size() || index >= owned[other].size) {
        throw Columns.damaged("a reference to an object not yet given");
      }
      target = owned[other].get(index);
      if (target < 0) {
        target = ~target;
      }
    } else {
      // Positions of the column's objects; a claimed one's is stored as ~position.
      IntList list = owned[c.id];
      int[] at = list.values;
      if (code == 0) {
        int k = cursor[c.id];
        int n = list.size;
        while (k < n && at[k] < 0) {
          k++;
        }
        if (k >= n) {
          throw Columns.damaged("a reference to an object not yet given");
        }
        target = at[k];
        at[k] = ~target;
        cursor[c.id] = k + 1;
      } else {
        int index = code - 2;
        if (index >= list.size) {
          throw Columns.damaged("a reference to an object not yet given");
        }
        target = at[index];
        if (target < 0) {
          target = ~target;
        } else {
          at[index] = ~target;
        }
      }
    }
    if (target <= p) {
      throw Columns.damaged("a reference backwards");
    }
    LittleEndian.putInt(out, p, target - p);
  }
}
