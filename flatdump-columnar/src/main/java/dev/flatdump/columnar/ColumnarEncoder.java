package dev.flatdump.columnar;

import dev.flatdump.reader.BinarySchema;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
  private final ByteBuffer bb;
  private final int total;
  private final BinarySchema schema;
  private final Columns columns;

  // Every object the root reaches, by id: where, how big, what.
  private int count;
  private int[] pos = new int[1024];
  private int[] size = new int[1024];
  private byte[] kind = new byte[1024];

  /** A table's object index; a vector's element base type. */
  private int[] typeA = new int[1024];

  /** A vector's element object index. */
  private int[] typeB = new int[1024];

  /** Object ids by position / 4, plus 1: no two objects start within 4 bytes in a valid shard. */
  private final PositionIndex at;

  /** Struct types' padding bytes (offsets within the struct), by object index. */
  private final int[][] structPadding;

  ColumnarEncoder(byte[] fb, BinarySchema schema) {
    this.fb = fb;
    this.bb = ByteBuffer.wrap(fb).order(ByteOrder.LITTLE_ENDIAN);
    this.total = fb.length;
    this.schema = schema;
    this.columns = new Columns(schema);
    this.at = new PositionIndex(total);
    this.structPadding = new int[schema.objects().size()][];
  }

  /** The copy's bytes. */
  static byte[] encode(byte[] fb, byte[] bfbs, int level) {
    BinarySchema schema = BinarySchema.read(ByteBuffer.wrap(bfbs));
    ColumnarEncoder e = new ColumnarEncoder(fb, schema);
    try {
      return e.write(bfbs, level);
    } catch (IndexOutOfBoundsException | IllegalArgumentException e2) {
      throw new ColumnarException(
          "no columnar copy: the shard is not one of this schema: " + e2, e2);
    }
  }

  // ---- reading the shard

  private int u16(int p) {
    return bb.getShort(p) & 0xffff;
  }

  private int u32(int p) {
    int v = bb.getInt(p);
    if (v < 0) {
      throw refused("an offset past 2 GiB at byte " + p);
    }
    return v;
  }

  private ColumnarException refused(String what) {
    return new ColumnarException("no columnar copy of this shard: " + what);
  }

  private int add(int p, byte k, int a, int b, int s) {
    if (p < 0 || p >= total || (long) p + s > total) {
      throw refused("an object out of the buffer at byte " + p);
    }
    int id = at.get(p);
    if (id >= 0) {
      if (pos[id] != p) {
        throw refused("objects overlap at byte " + p);
      }
      if (kind[id] != k || size[id] != s) {
        throw refused("two different objects at byte " + p);
      }
      return -1 - id;
    }
    if (count == pos.length) {
      int n = count * 2;
      pos = Arrays.copyOf(pos, n);
      size = Arrays.copyOf(size, n);
      kind = Arrays.copyOf(kind, n);
      typeA = Arrays.copyOf(typeA, n);
      typeB = Arrays.copyOf(typeB, n);
    }
    id = count++;
    pos[id] = p;
    size[id] = s;
    kind[id] = k;
    typeA[id] = a;
    typeB[id] = b;
    at.put(p, id);
    return id;
  }

  /** Adds the object a reference of type (base, element, index) reaches; -1-id when known. */
  private int reach(int p, int base, int element, int index) {
    switch (base) {
      case BinarySchema.STRING:
        return add(p, STRING, 0, 0, 4 + u32(p) + 1);
      case BinarySchema.VECTOR:
        {
          int n = u32(p);
          int width = elementWidth(element, index);
          return add(p, VECTOR, element, index, 4 + n * width);
        }
      case BinarySchema.OBJ:
        {
          int vt = p - bb.getInt(p);
          if (vt < 0 || vt + 4 > total) {
            throw refused("a vtable out of the buffer at byte " + p);
          }
          int vtSize = u16(vt);
          int tSize = u16(vt + 2);
          if (vtSize < 4 || (vtSize & 1) != 0 || tSize < 4) {
            throw refused("a vtable of " + vtSize + " bytes for a table of " + tSize);
          }
          add(vt, VTABLE, 0, 0, vtSize);
          return add(p, TABLE, index, 0, tSize);
        }
      default:
        throw refused("a reference of base type " + base);
    }
  }

  private int elementWidth(int element, int index) {
    if (element == BinarySchema.OBJ) {
      BinarySchema.ObjectType o = schema.objects().get(index);
      return o.struct() ? o.byteSize() : 4;
    }
    if (element == BinarySchema.STRING) {
      return 4;
    }
    if (element >= BinarySchema.UTYPE && element <= BinarySchema.DOUBLE) {
      return Columns.scalarWidth(element);
    }
    throw refused("a vector of base type " + element);
  }

  private void discover() {
    if (total < 8) {
      throw refused("a buffer of " + total + " bytes");
    }
    int root = u32(0);
    int[] stack = new int[64];
    int top = 0;
    stack[top++] = reach(root, BinarySchema.OBJ, 0, schema.root());
    while (top > 0) {
      int o = stack[--top];
      if (kind[o] == TABLE) {
        int t = pos[o];
        int vt = t - bb.getInt(t);
        int vtSize = u16(vt);
        for (BinarySchema.Field f : schema.objects().get(typeA[o]).fields()) {
          int base = f.type().base();
          if (base < BinarySchema.STRING || base == BinarySchema.ARRAY) {
            continue;
          }
          int off = f.offset() < vtSize ? u16(vt + f.offset()) : 0;
          if (off == 0) {
            continue;
          }
          int p = t + off;
          int reached;
          if (base == BinarySchema.UNION) {
            int member = unionMember(t, vt, vtSize, typeA[o], f);
            Integer table = schema.enums().get(f.type().index()).members().get((long) member);
            if (table == null) {
              throw refused("union " + f.name() + " of member " + member);
            }
            reached = reach(p + u32(p), BinarySchema.OBJ, 0, table);
          } else if (base == BinarySchema.OBJ && schema.objects().get(f.type().index()).struct()) {
            continue;
          } else {
            reached = reach(p + u32(p), base, f.type().element(), f.type().index());
          }
          if (reached >= 0) {
            if (top == stack.length) {
              stack = Arrays.copyOf(stack, top * 2);
            }
            stack[top++] = reached;
          }
        }
      } else if (kind[o] == VECTOR) {
        int element = typeA[o];
        boolean refs =
            element == BinarySchema.STRING
                || (element == BinarySchema.OBJ && !schema.objects().get(typeB[o]).struct());
        if (!refs) {
          continue;
        }
        int n = u32(pos[o]);
        for (int i = 0; i < n; i++) {
          int p = pos[o] + 4 + 4 * i;
          int reached = reach(p + u32(p), element, 0, typeB[o]);
          if (reached >= 0) {
            if (top == stack.length) {
              stack = Arrays.copyOf(stack, top * 2);
            }
            stack[top++] = reached;
          }
        }
      }
    }
  }

  /** The value of union {@code f}'s type field in the table at {@code t}: 0 when absent. */
  private int unionMember(int t, int vt, int vtSize, int object, BinarySchema.Field f) {
    BinarySchema.Field typeField = Columns.field(schema, object, f.id() - 1);
    int off = typeField.offset() < vtSize ? u16(vt + typeField.offset()) : 0;
    return off == 0 ? 0 : fb[t + off] & 0xff;
  }

  // ---- writing the copy

  // Per object, once ordered.
  private int[] order;
  private int[] owner;
  private int[] indexInOwner;
  private boolean[] claimed;
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

  private final int[] stamp = new int[1 << 16];
  private int tableSize;
  private int stampValue;

  private byte[] write(byte[] bfbs, int level) {
    discover();
    int rootObject = at.get(u32(0));
    sortByPosition();
    assignOwners(rootObject);
    emit();
    int lastStart = pos[order[count - 1]];
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
    out.write(sha256(fb));
    out.varint(prefix);
    out.write(fb, 4, prefix - 4);
    out.varint(count);
    out.varint(indexOf(rootObject));
    out.write(sha256(bfbs));
    out.varint(columns.size());
    try (Streams.Writer streams = new Streams.Writer(level)) {
      Streams.Layout layout = new Streams.Layout(streams);
      ByteSink d = layout.directory;
      for (int id = 1; id < columns.size(); id++) {
        Columns.Column c = columns.get(id);
        d.varint(c.parent.id);
        d.varint(c.selector);
        d.varint(c.member);
      }
      layout.add(tags.array(), tags.size());
      layout.add(vtables.array(), vtables.size());
      ByteSink g = new ByteSink();
      g.varint(gapCount);
      g.write(gaps.array(), 0, gaps.size());
      layout.add(g.array(), g.size());
      layout.add(xrefs.array(), xrefs.size());
      for (int id = 0; id < columns.size(); id++) {
        LongList[] codes = {list(refs, id), list(own, id), list(strLen, id)};
        ByteSink bytes = id < strBytes.length ? strBytes[id] : null;
        LongList v = id < values.length ? values[id] : null;
        int mask = 0;
        for (int i = 0; i < codes.length; i++) {
          if (codes[i] != null && codes[i].size > 0) {
            mask |= 1 << i;
          }
        }
        if (bytes != null && bytes.size() > 0) {
          mask |= 1 << 3;
        }
        if (v != null && v.size > 0) {
          mask |= 1 << 4;
        }
        d.write(mask);
        for (int i = 0; i < codes.length; i++) {
          if ((mask & (1 << i)) != 0) {
            ByteSink payload = Values.writeCodes(streams, codes[i].values, codes[i].size);
            layout.add(payload.array(), payload.size());
          }
        }
        if ((mask & (1 << 3)) != 0) {
          layout.add(bytes.array(), bytes.size());
        }
        if ((mask & (1 << 4)) != 0) {
          Columns.Column c = columns.get(id);
          ByteSink payload = Values.write(streams, v.values, v.size, c.width, c.real());
          layout.add(payload.array(), payload.size());
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

  private int indexOf(int object) {
    return regionOf[object];
  }

  private void sortByPosition() {
    long[] keys = new long[count];
    for (int i = 0; i < count; i++) {
      keys[i] = ((long) pos[i] << 32) | i;
    }
    Arrays.sort(keys);
    order = new int[count];
    regionOf = new int[count];
    for (int r = 0; r < count; r++) {
      int o = (int) keys[count - 1 - r];
      order[r] = o;
      regionOf[o] = r;
    }
  }

  private void assignOwners(int rootObject) {
    owner = new int[count];
    Arrays.fill(owner, -1);
    owner[rootObject] = 0;
    for (int r = count - 1; r >= 0; r--) {
      int o = order[r];
      if (kind[o] == VTABLE || kind[o] == STRING) {
        continue;
      }
      if (owner[o] < 0) {
        throw refused("an object nothing reaches at byte " + pos[o]);
      }
      Columns.Column c = columns.get(owner[o]);
      if (kind[o] == TABLE) {
        int t = pos[o];
        int vt = t - bb.getInt(t);
        int vtSize = u16(vt);
        List<BinarySchema.Field> fields = schema.objects().get(typeA[o]).fields();
        for (int i = fields.size() - 1; i >= 0; i--) {
          BinarySchema.Field f = fields.get(i);
          int base = f.type().base();
          if (base < BinarySchema.STRING || base == BinarySchema.ARRAY) {
            continue;
          }
          if (base == BinarySchema.OBJ && schema.objects().get(f.type().index()).struct()) {
            continue;
          }
          int off = f.offset() < vtSize ? u16(vt + f.offset()) : 0;
          if (off == 0) {
            continue;
          }
          int member = base == BinarySchema.UNION ? unionMember(t, vt, vtSize, typeA[o], f) : 0;
          Columns.Column child = columns.child(c, f.id() + 1, member);
          int p = t + off;
          owner[at.get(p + u32(p))] = child.id;
        }
      } else if (refElements(o)) {
        Columns.Column child = columns.child(c, 0, 0);
        int n = u32(pos[o]);
        for (int i = n - 1; i >= 0; i--) {
          int p = pos[o] + 4 + 4 * i;
          owner[at.get(p + u32(p))] = child.id;
        }
      }
    }
  }

  private boolean refElements(int o) {
    int element = typeA[o];
    return element == BinarySchema.STRING
        || (element == BinarySchema.OBJ && !schema.objects().get(typeB[o]).struct());
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
    indexInOwner = new int[count];
    claimed = new boolean[count];
    vtIndex = new int[count];
    Arrays.fill(vtIndex, -1);
    int o0 = 0; // where the object written last starts, from the buffer's end
    int previous = total; // its position
    for (int r = 0; r < count; r++) {
      int o = order[r];
      int start = total - pos[o];
      int end = pos[o] + size[o];
      if (end > previous) {
        throw refused("objects overlap at byte " + pos[o]);
      }
      zeros(end, previous);
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
          int vt = pos[o] - bb.getInt(pos[o]);
          int v = at.get(vt);
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
            int vEnd = pos[v] + size[v];
            if (vEnd > pos[o]) {
              throw refused("a vtable overlaps its table at byte " + pos[v]);
            }
            zeros(vEnd, pos[o]);
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
    Columns.Column column = columns.get(c);
    boolean fits =
        switch (kind[o]) {
          case TABLE -> column.kind == Columns.TABLE && column.type == typeA[o];
          case STRING -> column.kind == Columns.STRING;
          case VECTOR -> column.kind == Columns.VECTOR && sameVector(column, o);
          default -> false;
        };
    if (!fits) {
      throw refused(
          "an object at byte "
              + pos[o]
              + " reached as two types (kind "
              + kind[o]
              + " type "
              + typeA[o]
              + "/"
              + typeB[o]
              + " through "
              + column.path(schema)
              + ")");
    }
    tags.varint(c + 1);
    ensureColumns();
    IntList list = owned[c];
    if (list == null) {
      list = owned[c] = new IntList();
    }
    indexInOwner[o] = list.size;
    list.add(o);
  }

  /**
   * Whether the vector {@code o} rebuilds as one of column {@code c}'s: of its type, or sharing its
   * bytes with one (an empty vector of any type; scalars or structs of the same width).
   */
  private boolean sameVector(Columns.Column c, int o) {
    if (c.type == typeA[o] && (c.elementIndex == typeB[o] || c.type != BinarySchema.OBJ)) {
      return true;
    }
    int n = u32(pos[o]);
    if (n == 0) {
      return true;
    }
    return !refElements(o)
        && !(c.type == BinarySchema.STRING
            || (c.type == BinarySchema.OBJ && !schema.objects().get(c.elementIndex).struct()))
        && c.width == elementWidth(typeA[o], typeB[o]);
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
    int tSize = size[o];
    tableSize = tSize;
    int vt = t - bb.getInt(t);
    int vtSize = u16(vt);
    if (++stampValue == 0) {
      Arrays.fill(stamp, 0);
      stampValue = 1;
    }
    mark(t, 0, 4);
    Columns.Column c = columns.get(owner[o]);
    for (BinarySchema.Field f : schema.objects().get(typeA[o]).fields()) {
      int off = f.offset() < vtSize ? u16(vt + f.offset()) : 0;
      if (off == 0) {
        continue;
      }
      int base = f.type().base();
      int p = t + off;
      if (base == BinarySchema.ARRAY) {
        throw refused("field " + f.name() + " is an array");
      }
      if (base == BinarySchema.UNION) {
        mark(t, off, 4);
        int member = unionMember(t, vt, vtSize, typeA[o], f);
        ref(columns.child(c, f.id() + 1, member), p + u32(p));
        continue;
      }
      Columns.Column child = columns.child(c, f.id() + 1, 0);
      switch (child.kind) {
        case Columns.SCALAR -> {
          mark(t, off, child.width);
          values(child.id).add(scalar(p, child.width, child.signed()));
        }
        case Columns.STRUCT -> {
          mark(t, off, child.width);
          struct(child, p);
        }
        default -> {
          mark(t, off, 4);
          ref(child, p + u32(p));
        }
      }
    }
    for (int i = 4; i < tSize; i++) {
      if (stamp[i] != stampValue && fb[t + i] != 0) {
        throw refused(
            "a byte no field holds, at " + (t + i) + " (a field the schema does not know?)");
      }
    }
  }

  private void mark(int t, int off, int width) {
    if (off + width > tableSize) {
      throw refused("a field past its table's end at byte " + (t + off));
    }
    for (int i = off; i < off + width; i++) {
      if (stamp[i] == stampValue) {
        throw refused("two fields share byte " + (t + i));
      }
      stamp[i] = stampValue;
    }
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
      case 2 -> signed ? bb.getShort(p) : bb.getShort(p) & 0xffffL;
      case 4 -> signed ? bb.getInt(p) : bb.getInt(p) & 0xffff_ffffL;
      default -> bb.getLong(p);
    };
  }

  /** A reference through column {@code c} to the object at {@code target}. */
  private void ref(Columns.Column c, int target) {
    int x = at.get(target);
    LongList out = refs(c.id);
    int index = indexInOwner[x];
    if (owner[x] == c.id) {
      if (!claimed[x]) {
        claimed[x] = true;
        IntList list = owned[c.id];
        int k = cursor[c.id];
        while (k < list.size && claimed[list.values[k]] && list.values[k] != x) {
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
      xrefs.varint(owner[x]);
      xrefs.varint(index);
    }
  }

  /** Object ids by position. */
  private static final class PositionIndex {
    private final int[] ids;

    PositionIndex(int total) {
      ids = new int[(total >> 2) + 1];
    }

    /** The id of the object starting in the 4 bytes of {@code p}, or -1. */
    int get(int p) {
      return ids[p >> 2] - 1;
    }

    void put(int p, int id) {
      ids[p >> 2] = id + 1;
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
