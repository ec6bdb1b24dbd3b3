package dev.flatdump.columnar;

import dev.flatdump.reader.BinarySchema;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes the columnar copy of one shard (docs/format.md, "The columnar copy"). It reads every
 * object the shard's root reaches, by the schema, then lists them in the order they were written
 * (from the buffer's end), and stores each by its column: where it sits only where the builder
 * would not have put it there, what it holds in streams per column. A shard with a byte this does
 * not account for (an object nothing reaches, padding that is not zero, a field the schema does not
 * know) is refused: the copy rebuilds every byte or is not written.
 */
final class ColumnarEncoder {

  static final byte TABLE = 0;
  static final byte STRING = 1;
  static final byte VECTOR = 2;
  static final byte VTABLE = 3;

  private final byte[] fb;
  private final int total;
  private final BinarySchema schema;
  private final Columns columns;

  // Every object the root reaches, by id: where, how big, what.
  private int count;
  private int[] pos = new int[1024];
  private int[] size = new int[1024];
  private byte[] kind = new byte[1024];

  /**
   * By position / 4 (no two objects start within 4 bytes): 0 for nothing; above 0, an object
   * expected there, {@code (column + 1) << 2 | position & 3}; below 0, the object found there,
   * {@code -1 - id}.
   */
  private final int[] slots;

  /** Objects expected, and found, so far. */
  private int expected;

  private int found;

  /** Struct types' padding bytes (offsets within the struct), by object index. */
  private final int[][] structPadding;

  ColumnarEncoder(byte[] fb, BinarySchema schema) {
    this.fb = fb;
    this.total = fb.length;
    this.schema = schema;
    this.columns = new Columns(schema);
    this.slots = new int[(total >> 2) + 1];
    this.structPadding = new int[schema.objects().size()][];
  }

  /** The copy's bytes. */
  static byte[] encode(byte[] fb, byte[] sha, byte[] bfbs, int level) {
    BinarySchema schema = BinarySchema.read(ByteBuffer.wrap(bfbs));
    ColumnarEncoder e = new ColumnarEncoder(fb, schema);
    try {
      return e.write(sha, bfbs, level);
    } catch (IndexOutOfBoundsException | IllegalArgumentException e2) {
      throw new ColumnarException(
          "no columnar copy: the shard is not one of this schema: " + e2, e2);
    }
  }

  // ---- reading the shard

  private int u16(int p) {
    return LittleEndian.getShort(fb, p) & 0xffff;
  }

  private int u32(int p) {
    int v = LittleEndian.getInt(fb, p);
    if (v < 0) {
      throw refused("an offset past 2 GiB at byte " + p);
    }
    return v;
  }

  private ColumnarException refused(String what) {
    return new ColumnarException("no columnar copy of this shard: " + what);
  }

  // ---- finding the objects: one pass from the root up, as references point up

  /** Where the objects start: the prefix (root offset, file identifier) lies below. */
  private int lowest;

  /**
   * Finds every object, in order of position: each reached by a reference from below it (the root's
   * from the prefix), each vtable where no reference points and the bytes are not zero. An object
   * belongs to the column of its first reference in decoding order, which is the last one met here:
   * references are met from the last written object to the first, each object's in reverse order.
   *
   * @return the root table's id
   */
  private int scan() {
    if (total < 8 || (total & 3) != 0) {
      throw refused("a buffer of " + total + " bytes");
    }
    int root = u32(0);
    if (root < 4 || root > total - 4) {
      throw refused("a root offset of " + root);
    }
    expect(root, columns.get(0), 0);
    int rootVt = root - LittleEndian.getInt(fb, root);
    lowest = rootVt < root && rootVt >= 4 ? rootVt : root;
    int p = lowest;
    int rootObject = -1;
    while (p < total) {
      int s = slots[p >> 2];
      if (s > 0 && (s & 3) == (p & 3)) {
        if (p == root) {
          rootObject = count;
        }
        p = object(p, columns.get((s >>> 2) - 1));
      } else if ((p & 1) != 0) {
        if (fb[p] != 0) {
          throw refused("a byte no object holds, at " + p);
        }
        p++;
      } else {
        int v = u16(p);
        if (v == 0) {
          p += 2;
        } else {
          p = vtableAt(p, v);
        }
      }
    }
    if (p != total || found != expected || rootObject < 0) {
      throw refused("a reference into another object, or an object past the buffer's end");
    }
    order = new int[count];
    regionOf = new int[count];
    for (int r = 0; r < count; r++) {
      order[r] = count - 1 - r;
      regionOf[count - 1 - r] = r;
    }
    return rootObject;
  }

  /** A reference from {@code from} to {@code q}, through column {@code c}. */
  private void expect(int q, Columns.Column c, int from) {
    if (q <= from || q > total - 4) {
      throw refused("a reference out of the buffer at byte " + from);
    }
    int k = q >> 2;
    int s = slots[k];
    int here = ((c.id + 1) << 2) | (q & 3);
    if (s == 0) {
      slots[k] = here;
      expected++;
    } else if (s > 0 && (s & 3) == (q & 3)) {
      Columns.Column old = columns.get((s >>> 2) - 1);
      if (old != c && !compatible(old, c, q)) {
        throw refused(
            "an object at byte "
                + q
                + " reached as two types: "
                + old.path(schema)
                + ", "
                + c.path(schema));
      }
      slots[k] = here;
    } else {
      throw refused("objects overlap at byte " + q);
    }
  }

  /**
   * Whether the object at {@code q} rebuilds as one of either column: of one type, or a vector
   * sharing its bytes with one of another (empty, or of scalars or structs of the same width).
   */
  private boolean compatible(Columns.Column a, Columns.Column b, int q) {
    if (a.kind != b.kind) {
      return false;
    }
    return switch (a.kind) {
      case Columns.TABLE -> a.type == b.type;
      case Columns.STRING -> true;
      case Columns.VECTOR ->
          (a.type == b.type && (a.type != BinarySchema.OBJ || a.elementIndex == b.elementIndex))
              || u32(q) == 0
              || (!refs(a) && !refs(b) && a.width == b.width);
      default -> false;
    };
  }

  private boolean refs(Columns.Column vector) {
    return vector.type == BinarySchema.STRING
        || (vector.type == BinarySchema.OBJ && !schema.objects().get(vector.elementIndex).struct());
  }

  private int register(int p, byte k, int s, int owner) {
    if ((long) p + s > total) {
      throw refused("an object past the buffer's end at byte " + p);
    }
    if (count == pos.length) {
      int n = count * 2;
      pos = Arrays.copyOf(pos, n);
      size = Arrays.copyOf(size, n);
      kind = Arrays.copyOf(kind, n);
      owners = Arrays.copyOf(owners, n);
    }
    int id = count++;
    pos[id] = p;
    size[id] = s;
    kind[id] = k;
    owners[id] = owner;
    slots[p >> 2] = -1 - id;
    return id;
  }

  private int vtableAt(int p, int v) {
    if (v < 4 || (v & 1) != 0 || p + v > total || u16(p + 2) < 4) {
      throw refused("a byte no object holds, at " + p);
    }
    register(p, VTABLE, v, -1);
    return p + v;
  }

  /** The object of column {@code c} at {@code p}; returns where it ends. */
  private int object(int p, Columns.Column c) {
    found++;
    switch (c.kind) {
      case Columns.STRING -> {
        int length = u32(p);
        if ((long) p + 5 + length > total || fb[p + 4 + length] != 0) {
          throw refused("a string without its 0 at byte " + p);
        }
        register(p, STRING, 5 + length, c.id);
        return p + 5 + length;
      }
      case Columns.VECTOR -> {
        int n = u32(p);
        long bytes = 4 + (long) n * c.width;
        if (p + bytes > total) {
          throw refused("a vector past the buffer's end at byte " + p);
        }
        register(p, VECTOR, (int) bytes, c.id);
        if (n > 0 && refs(c)) {
          Columns.Column e = columns.child(c, 0, 0);
          for (int i = n - 1; i >= 0; i--) {
            int q = p + 4 + 4 * i;
            expect(q + u32(q), e, q);
          }
        }
        return p + (int) bytes;
      }
      case Columns.TABLE -> {
        int vt = p - LittleEndian.getInt(fb, p);
        if (vt < 4 || vt > total - 4) {
          throw refused("a vtable out of the buffer for the table at byte " + p);
        }
        int vtSize = u16(vt);
        int tSize = u16(vt + 2);
        if (vtSize < 4 || (vtSize & 1) != 0 || tSize < 4 || vt + vtSize > total) {
          throw refused("a vtable of " + vtSize + " bytes for a table of " + tSize);
        }
        register(p, TABLE, tSize, c.id);
        TableFields plan = plan(c);
        for (int i = plan.slot.length - 1; i >= 0; i--) {
          int slot = plan.slot[i];
          if (slot >= vtSize || plan.kind[i] == TableFields.INLINE) {
            continue;
          }
          int off = u16(vt + slot);
          if (off == 0) {
            continue;
          }
          int q = p + off;
          if (off + 4 > tSize) {
            throw refused("a field past its table's end at byte " + q);
          }
          Columns.Column child;
          if (plan.kind[i] == TableFields.UNION) {
            int typeSlot = plan.typeSlot[i];
            int to = typeSlot < vtSize ? u16(vt + typeSlot) : 0;
            int member = to == 0 ? 0 : fb[p + to] & 0xff;
            child = columns.child(c, plan.id[i] + 1, member);
          } else {
            child = plan.child(i, columns, c);
          }
          expect(q + u32(q), child, q);
        }
        return p + tSize;
      }
      default -> throw refused("an object of column " + c.path(schema) + ", which holds scalars");
    }
  }

  private TableFields[] plans = new TableFields[16];

  private TableFields plan(Columns.Column c) {
    if (c.id >= plans.length) {
      plans = Arrays.copyOf(plans, Math.max(c.id + 1, plans.length * 2));
    }
    TableFields plan = plans[c.id];
    return plan != null ? plan : (plans[c.id] = new TableFields(schema, c.type));
  }

  // ---- writing the copy

  // Per object, once ordered.
  private int[] order;
  private int[] owner;

  /** Each object's column, found by {@link #scan}; -1 for a vtable. */
  private int[] owners = new int[1024];

  /**
   * Per object once stored, for references to it: its column (the high int), its index among the
   * column's objects (the low 31 bits), and whether a reference claimed it (bit 31). One array, so
   * that a reference costs one read where objects lie far apart.
   */
  private long[] info;

  private static final long CLAIMED = 0x8000_0000L;
  private int[] vtIndex;

  // Per column.
  private LongList[] refs = new LongList[16];
  private LongList[] own = new LongList[16];
  private LongList[] strLen = new LongList[16];
  private ByteSink[] strBytes = new ByteSink[16];
  private LongList[] values = new LongList[16];
  private IntList[] owned = new IntList[16];
  private int[] cursor = new int[16];
  private final List<StringDictionary> dictionaries = new ArrayList<>();

  private final ByteSink tags = new ByteSink(1 << 12);
  private final ByteSink vtables = new ByteSink();
  private final ByteSink gaps = new ByteSink();
  private final ByteSink xrefs = new ByteSink();
  private int gapCount;
  private int lastGap;
  private int vtableCount;

  private byte[] write(byte[] sha, byte[] bfbs, int level) {
    int rootObject = scan();
    emit();
    int lastStart = lowest;
    int prefix = Math.min(8, lastStart);
    if (prefix < 4) {
      throw refused("the root offset overlaps an object");
    }
    for (int i = prefix; i < lastStart; i++) {
      if (fb[i] != 0) {
        throw refused("a byte nothing holds, at " + i);
      }
    }
    ByteSink out = new ByteSink(Math.max(1024, total / 4));
    out.write(ColumnarCopy.MAGIC);
    out.fixed(0, 4); // the CRC-32C of what follows, once written
    out.varint(total);
    out.write(sha);
    out.varint(prefix);
    out.write(fb, 4, prefix - 4);
    out.varint(count);
    out.varint(indexOf(rootObject));
    out.write(sha256(bfbs));
    out.varint(columns.size());
    // Each stream made (its encoding chosen, then compressed) in parallel, laid out in order.
    List<java.util.function.Function<Streams.Writer, Streams.Piece>> jobs = new ArrayList<>();
    jobs.add(w -> w.piece(tags.array(), tags.size()));
    jobs.add(w -> w.piece(vtables.array(), vtables.size()));
    ByteSink g = new ByteSink();
    g.varint(gapCount);
    g.write(gaps.array(), 0, gaps.size());
    jobs.add(w -> w.piece(g.array(), g.size()));
    jobs.add(w -> w.piece(xrefs.array(), xrefs.size()));
    int[] masks = new int[columns.size()];
    for (int id = 0; id < columns.size(); id++) {
      LongList[] codes = {list(refs, id), list(own, id), list(strLen, id)};
      ByteSink bytes = id < strBytes.length ? strBytes[id] : null;
      LongList v = id < values.length ? values[id] : null;
      int mask = 0;
      for (int i = 0; i < codes.length; i++) {
        if (codes[i] != null && codes[i].size > 0) {
          mask |= 1 << i;
          LongList list = codes[i];
          jobs.add(w -> w.piece(Values.writeCodes(w, list.values, list.size)));
        }
      }
      if (bytes != null && bytes.size() > 0) {
        mask |= 1 << 3;
        jobs.add(w -> w.piece(bytes.array(), bytes.size()));
      }
      if (v != null && v.size > 0) {
        mask |= 1 << 4;
        Columns.Column c = columns.get(id);
        jobs.add(w -> w.piece(Values.write(w, v.values, v.size, c.width, c.real())));
      }
      masks[id] = mask;
    }
    Streams.Piece[] pieces = Streams.make(jobs, level);
    try (Streams.Writer streams = new Streams.Writer(level)) {
      Streams.Layout layout = new Streams.Layout(streams);
      ByteSink d = layout.directory;
      for (int id = 1; id < columns.size(); id++) {
        Columns.Column c = columns.get(id);
        d.varint(c.parent.id);
        d.varint(c.selector);
        d.varint(c.member);
      }
      int next = 0;
      for (int k = 0; k < 4; k++) {
        layout.add(pieces[next++]);
      }
      for (int id = 0; id < columns.size(); id++) {
        d.write(masks[id]);
        for (int bit = 0; bit < 5; bit++) {
          if ((masks[id] & (1 << bit)) != 0) {
            layout.add(pieces[next++]);
          }
        }
      }
      layout.writeTo(out);
    }

    byte[] copy = out.toByteArray();
    int crc = ColumnarCopy.crc(copy);
    for (int i = 0; i < 4; i++) {
      copy[4 + i] = (byte) (crc >>> (8 * i));
    }
    return copy;
  }

  private static LongList list(LongList[] lists, int id) {
    return id < lists.length ? lists[id] : null;
  }

  private int[] regionOf;

  /** The id of the object at {@code p}, or -1. */
  private int objectAt(int p) {
    int id = -1 - slots[p >> 2];
    return id >= 0 && id < count && pos[id] == p ? id : -1;
  }

  private int indexOf(int object) {
    return regionOf[object];
  }

  private void ensureColumns() {
    int n = columns.size();
    if (n > refs.length) {
      int m = Math.max(n, refs.length * 2);
      refs = Arrays.copyOf(refs, m);
      own = Arrays.copyOf(own, m);
      strLen = Arrays.copyOf(strLen, m);
      strBytes = Arrays.copyOf(strBytes, m);
      values = Arrays.copyOf(values, m);
      owned = Arrays.copyOf(owned, m);
      cursor = Arrays.copyOf(cursor, m);
    }
  }

  private LongList refs(int c) {
    ensureColumns();
    LongList s = refs[c];
    return s != null ? s : (refs[c] = new LongList());
  }

  private LongList own(int c) {
    ensureColumns();
    LongList s = own[c];
    return s != null ? s : (own[c] = new LongList());
  }

  private LongList values(int c) {
    ensureColumns();
    LongList s = values[c];
    return s != null ? s : (values[c] = new LongList());
  }

  private void emit() {
    owner = owners;
    info = new long[count];
    vtIndex = new int[count];
    Arrays.fill(vtIndex, -1);
    int o0 = 0; // where the object written last starts, from the buffer's end
    int previous = total; // its position
    for (int r = 0; r < count; r++) {
      int o = order[r];
      int start = total - pos[o];
      switch (kind[o]) {
        case VTABLE -> {
          if (vtIndex[o] >= 0) {
            throw new IllegalStateException("vtable emitted twice");
          }
          tags.varint(0);
          gap(r, start, Layout.object(o0, size[o]));
          vtable(o);
        }
        case STRING -> {
          tag(o, r);
          int length = u32(pos[o]);
          gap(r, start, Layout.string(o0, length));
          string(o, length);
        }
        case VECTOR -> {
          tag(o, r);
          int n = u32(pos[o]);
          Columns.Column c = columns.get(owner[o]);
          gap(r, start, Layout.vector(o0, n, c.width, c.alignment));
          vector(o, c, n);
        }
        case TABLE -> {
          tag(o, r);
          gap(r, start, Layout.object(o0, size[o]));
          int vt = pos[o] - LittleEndian.getInt(fb, pos[o]);
          int v = objectAt(vt);
          if (v < 0 || kind[v] != VTABLE) {
            throw refused("a table whose vtable is not one, at byte " + pos[o]);
          }
          int next = r + 1 < count ? order[r + 1] : -1;
          if (vtIndex[v] >= 0) {
            own(owner[o]).add(1 + vtIndex[v]);
          } else if (v == next) {
            own(owner[o]).add(0);
            vtable(v);
          } else {
            throw refused("a vtable written before its table and after another, at byte " + vt);
          }
          table(o);
          if (v == next) {
            // The vtable, written right after its table.
            r++;
            int vStart = total - pos[v];
            gap(r, vStart, Layout.object(start, size[v]));
            start = vStart;
            o = v;
          }
        }
        default -> throw new IllegalStateException();
      }
      o0 = start;
      previous = pos[o];
    }
  }

  private void zeros(int from, int to) {
    for (int i = from; i < to; i++) {
      if (fb[i] != 0) {
        throw refused("a byte no object holds, at " + i);
      }
    }
  }

  private void gap(int r, int actual, int predicted) {
    if (actual != predicted) {
      gaps.varint(r - lastGap);
      gaps.zigzag((long) actual - predicted);
      lastGap = r;
      gapCount++;
    }
  }

  private void tag(int o, int r) {
    int c = owner[o];
    if (c < 0) {
      throw refused("an object nothing reaches at byte " + pos[o]);
    }
    tags.varint(c + 1);
    ensureColumns();
    IntList list = owned[c];
    if (list == null) {
      list = owned[c] = new IntList();
    }
    info[o] = ((long) c << 32) | list.size;
    list.add(o);
  }

  private void vtable(int v) {
    int p = pos[v];
    int vtSize = size[v];
    vtables.varint((vtSize - 4) / 2);
    vtables.varint(u16(p + 2));
    for (int s = 4; s < vtSize; s += 2) {
      vtables.varint(u16(p + s));
    }
    vtIndex[v] = vtableCount++;
  }

  private void string(int o, int length) {
    int c = owner[o];
    ensureColumns();
    while (dictionaries.size() <= c) {
      dictionaries.add(null);
    }
    StringDictionary dict = dictionaries.get(c);
    if (dict == null) {
      dict = new StringDictionary(fb);
      dictionaries.set(c, dict);
    }
    int known = dict.indexOf(pos[o] + 4, length);
    if (known >= 0) {
      own(c).add(1 + known);
      return;
    }
    own(c).add(0);
    if (strLen[c] == null) {
      strLen[c] = new LongList();
      strBytes[c] = new ByteSink();
    }
    strLen[c].add(length);
    strBytes[c].write(fb, pos[o] + 4, length);
  }

  private void vector(int o, Columns.Column c, int n) {
    own(c.id).add(n);
    if (n == 0) {
      return;
    }
    Columns.Column e = columns.child(c, 0, 0);
    int p = pos[o] + 4;
    switch (e.kind) {
      case Columns.SCALAR -> {
        LongList v = values(e.id);
        boolean signed = e.signed();
        for (int i = 0; i < n; i++) {
          v.add(scalar(p + i * e.width, e.width, signed));
        }
      }
      case Columns.STRUCT -> {
        for (int i = 0; i < n; i++) {
          struct(e, p + i * e.width);
        }
      }
      default -> {
        for (int i = 0; i < n; i++) {
          int q = p + 4 * i;
          ref(e, q + u32(q));
        }
      }
    }
  }

  private void table(int o) {
    int t = pos[o];
    int vt = t - LittleEndian.getInt(fb, t);
    int vtSize = u16(vt);
    int v = objectAt(vt);
    Columns.Column c = columns.get(owner[o]);
    TableFields plan = plan(c);
    int[] padding = padding(v, c.type, plan, vt, vtSize, size[o]);
    for (int i = 0; i < plan.slot.length; i++) {
      int slot = plan.slot[i];
      if (slot >= vtSize) {
        break;
      }
      int off = u16(vt + slot);
      if (off == 0) {
        continue;
      }
      int p = t + off;
      switch (plan.kind[i]) {
        case TableFields.REF -> ref(plan.child(i, columns, c), p + u32(p));
        case TableFields.UNION -> {
          int typeSlot = plan.typeSlot[i];
          int to = typeSlot < vtSize ? u16(vt + typeSlot) : 0;
          int member = to == 0 ? 0 : fb[t + to] & 0xff;
          ref(columns.child(c, plan.id[i] + 1, member), p + u32(p));
        }
        default -> {
          Columns.Column child = plan.child(i, columns, c);
          if (child.kind == Columns.SCALAR) {
            values(child.id).add(scalar(p, child.width, child.signed()));
          } else {
            struct(child, p);
          }
        }
      }
    }
    for (int off : padding) {
      if (fb[t + off] != 0) {
        throw refused(
            "a byte no field holds, at " + (t + off) + " (a field the schema does not know?)");
      }
    }
  }

  /** Per vtable, the table type its padding was found for, and the padding's offsets. */
  private int[] paddingType = new int[0];

  private int[][] paddingOffsets = new int[0][];

  /**
   * The bytes of a table laid out by the vtable {@code v} that no field of type {@code type} holds:
   * found once per vtable (and type), after checking that every field lies inside the table and no
   * two share a byte.
   */
  private int[] padding(int v, int type, TableFields plan, int vt, int vtSize, int tSize) {
    if (v >= paddingType.length) {
      int n = Math.max(v + 1, paddingType.length * 2);
      int old = paddingType.length;
      paddingType = Arrays.copyOf(paddingType, n);
      Arrays.fill(paddingType, old, n, -1);
      paddingOffsets = Arrays.copyOf(paddingOffsets, n);
    }
    if (paddingType[v] == type) {
      return paddingOffsets[v];
    }
    boolean[] held = new boolean[tSize];
    Arrays.fill(held, 0, 4, true);
    for (int i = 0; i < plan.slot.length; i++) {
      if (plan.slot[i] >= vtSize) {
        break;
      }
      int off = u16(vt + plan.slot[i]);
      if (off == 0) {
        continue;
      }
      BinarySchema.Type ft = plan.field[i].type();
      int width;
      if (plan.kind[i] != TableFields.INLINE) {
        width = 4;
      } else if (ft.base() == BinarySchema.OBJ) {
        width = schema.objects().get(ft.index()).byteSize();
      } else if (ft.base() >= BinarySchema.UTYPE && ft.base() <= BinarySchema.DOUBLE) {
        width = Columns.scalarWidth(ft.base());
      } else {
        throw refused("field " + plan.field[i].name() + " is an array");
      }
      if (off + width > tSize) {
        throw refused("a field past its table's end in the vtable at byte " + vt);
      }
      for (int b = off; b < off + width; b++) {
        if (held[b]) {
          throw refused("two fields share a byte in the vtable at byte " + vt);
        }
        held[b] = true;
      }
    }
    IntList free = new IntList();
    for (int b = 0; b < tSize; b++) {
      if (!held[b]) {
        free.add(b);
      }
    }
    paddingType[v] = type;
    return paddingOffsets[v] = Arrays.copyOf(free.values, free.size);
  }

  private void struct(Columns.Column c, int p) {
    for (BinarySchema.Field f : schema.objects().get(c.type).fields()) {
      Columns.Column child = columns.child(c, f.id() + 1, 0);
      if (child.kind == Columns.SCALAR) {
        values(child.id).add(scalar(p + f.offset(), child.width, child.signed()));
      } else {
        struct(child, p + f.offset());
      }
    }
    for (int off : padding(c.type)) {
      if (fb[p + off] != 0) {
        throw refused("a struct's padding is not zero at byte " + (p + off));
      }
    }
  }

  private int[] padding(int struct) {
    int[] pad = structPadding[struct];
    if (pad == null) {
      boolean[] held = new boolean[schema.objects().get(struct).byteSize()];
      hold(struct, 0, held);
      IntList list = new IntList();
      for (int i = 0; i < held.length; i++) {
        if (!held[i]) {
          list.add(i);
        }
      }
      pad = structPadding[struct] = Arrays.copyOf(list.values, list.size);
    }
    return pad;
  }

  private void hold(int struct, int at, boolean[] held) {
    for (BinarySchema.Field f : schema.objects().get(struct).fields()) {
      int base = f.type().base();
      if (base == BinarySchema.OBJ) {
        hold(f.type().index(), at + f.offset(), held);
      } else if (base >= BinarySchema.UTYPE && base <= BinarySchema.DOUBLE) {
        Arrays.fill(held, at + f.offset(), at + f.offset() + Columns.scalarWidth(base), true);
      } else {
        throw refused("field " + f.name() + " of struct " + schema.objects().get(struct).name());
      }
    }
  }

  private long scalar(int p, int width, boolean signed) {
    return switch (width) {
      case 1 -> signed ? fb[p] : fb[p] & 0xffL;
      case 2 -> signed ? LittleEndian.getShort(fb, p) : LittleEndian.getShort(fb, p) & 0xffffL;
      case 4 -> signed ? LittleEndian.getInt(fb, p) : LittleEndian.getInt(fb, p) & 0xffff_ffffL;
      default -> LittleEndian.getLong(fb, p);
    };
  }

  /** A reference through column {@code c} to the object at {@code target}. */
  private void ref(Columns.Column c, int target) {
    int x = -1 - slots[target >> 2]; // found there by the scan, which checked every reference
    LongList out = refs(c.id);
    long i = info[x];
    int index = (int) (i & 0x7fff_ffffL);
    int column = (int) (i >>> 32);
    if (column == c.id) {
      if ((i & CLAIMED) == 0) {
        info[x] = i | CLAIMED;
        IntList list = owned[c.id];
        int k = cursor[c.id];
        while (k < list.size && (info[list.values[k]] & CLAIMED) != 0 && list.values[k] != x) {
          k++;
        }
        cursor[c.id] = k;
        if (list.values[k] == x) {
          out.add(0);
          cursor[c.id] = k + 1;
          return;
        }
      }
      out.add(2 + (long) index);
    } else {
      out.add(1);
      xrefs.varint(column);
      xrefs.varint(index);
    }
  }

  static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
