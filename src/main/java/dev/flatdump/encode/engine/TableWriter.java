package dev.flatdump.encode.engine;

import com.google.flatbuffers.BuilderSpace;
import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The building half of {@link RecordEncoder}: writes strings, vectors and tables into the builder
 * from what the walk collected, each shared with an equal one already written when {@link Sharing}
 * says so. One per encoder; not thread-safe.
 */
final class TableWriter {

  private final SchemaPlan plan;
  private final Sharing sharing;
  private final int[][] writeOrder;
  private final long[][] defaults;

  /**
   * Per table type, by field: 0 for a field never written (deprecated), 1 for one written when
   * present, 2 for a scalar that is left out when it holds its default.
   */
  private final byte[][] writeRules;

  /** Per table type, the most bytes its content key can take. */
  private final int[] keyBytes;

  /** Per table or struct type, its {@code (key)} field, or null. */
  private final FieldPlan[] keys;

  private FlatBufferBuilder builder;
  private final TablePuts puts;

  /** The size in bytes of the table {@link #table} returned last, written or shared. */
  private int lastTableBytes;

  TableWriter(SchemaPlan plan, Sharing sharing, boolean tablePuts) {
    this.plan = plan;
    this.sharing = sharing;
    List<TablePlan> tables = plan.tables();
    writeOrder = new int[tables.size()][];
    defaults = new long[tables.size()][];
    keyBytes = new int[tables.size()];
    writeRules = new byte[tables.size()][];
    for (int i = 0; i < tables.size(); i++) {
      writeOrder[i] = TableLayout.writeOrder(tables.get(i), plan);
      defaults[i] = TableLayout.defaultBits(tables.get(i));
      List<FieldPlan> fields = tables.get(i).fields();
      writeRules[i] = new byte[fields.size()];
      for (int fi = 0; fi < fields.size(); fi++) {
        FieldPlan f = fields.get(fi);
        writeRules[i][fi] = (byte) (f.deprecated() ? 0 : TableLayout.leftOutAtDefault(f) ? 2 : 1);
      }
      for (FieldPlan f : tables.get(i).fields()) {
        keyBytes[i] += 1 + Math.max(Long.BYTES, plan.inlineSize(f, f.kind())); // see putBits
      }
    }
    keys = new FieldPlan[tables.size()];
    for (int i = 0; i < tables.size(); i++) {
      keys[i] = tables.get(i).key();
    }
    puts = tablePuts ? new TablePuts(plan, writeOrder) : null;
  }

  /** Tables through the builder's puts only ({@link TablePuts#putsOnly}). */
  void putsOnly() {
    if (puts != null) {
      puts.putsOnly();
    }
  }

  /** Writes into {@code builder} from now on. */
  void use(FlatBufferBuilder builder) {
    this.builder = builder;
    if (puts != null) {
      puts.use(builder);
    }
  }

  /** Writes into {@code builder} from now on, and marks it for {@link #rollback}. */
  void mark(FlatBufferBuilder builder) {
    use(builder);
    if (puts != null) {
      puts.mark(builder);
    }
  }

  /** Forgets the vtables written since {@link #mark}; the builder is rolled back by its caller. */
  void rollback() {
    if (puts != null) {
      puts.rollback();
    }
  }

  /** The string of UTF-8 bytes {@code b[from, to)}: an equal one already written, or a new one. */
  int string(byte[] b, int from, int to) {
    if (!sharing.strings()) {
      return builder.createString(ByteBuffer.wrap(b, from, to - from));
    }
    Sharing.ContentKey key = sharing.key();
    key.room(to - from);
    key.put(b, from, to);
    int hit = sharing.findString();
    if (hit != 0) {
      return hit;
    }
    int before = builder.offset();
    int offset = builder.createString(ByteBuffer.wrap(b, from, to - from));
    sharing.keepString(offset, offset - before);
    return offset;
  }

  /**
   * A string of {@code b[from, to)} that {@link #peekString} just did not find, with no string
   * written since: written and kept without looking it up again.
   */
  int newString(byte[] b, int from, int to) {
    int before = builder.offset();
    int offset = builder.createString(ByteBuffer.wrap(b, from, to - from));
    if (sharing.strings()) {
      sharing.keepPeekedString(b, from, to, offset, offset - before);
    }
    return offset;
  }

  /** A {@code [ubyte]} of {@code b[from, to)}: an equal one already written, or a new one. */
  int bytes(byte[] b, int from, int to) {
    if (sharing.vectors()) {
      Sharing.ContentKey key = sharing.key();
      key.room(5 + 8 * (to - from));
      key.putByte(FieldKind.UBYTE.ordinal());
      key.putInt(to - from);
      for (int i = from; i < to; i++) {
        key.putLong(b[i] & 0xff);
      }
      int hit = sharing.findVector();
      if (hit != 0) {
        return hit;
      }
    }
    int before = builder.offset();
    int offset = builder.createByteVector(b, from, to - from);
    if (sharing.vectors()) {
      sharing.keepVector(offset, offset - before);
    }
    return offset;
  }

  /** The vector of field {@code f} from the {@code n} elements the scratch holds. */
  int vector(FieldPlan f, Scratch s, int n) {
    FieldKind element = f.element();
    if (n > 1 && f.typeIndex() >= 0 && keys[f.typeIndex()] != null) {
      sortByKey(f, element, s, n);
    }
    if (sharing.vectors()) {
      vectorKey(f, element, s, n);
      int hit = sharing.findVector();
      if (hit != 0) {
        return hit;
      }
    }
    int before = builder.offset();
    int offset = TableLayout.writeVector(builder, element, plan, f, s, n);
    if (sharing.vectors()) {
      sharing.keepVector(offset, offset - before);
    }
    return offset;
  }

  /**
   * Puts a vector of tables or structs whose type has a {@code (key)} field in {@link KeyOrder},
   * equal keys in document order.
   */
  private void sortByKey(FieldPlan f, FieldKind element, Scratch s, int n) {
    TablePlan t = plan.tables().get(f.typeIndex());
    FieldPlan key = keys[f.typeIndex()];
    if (element == FieldKind.TABLE) {
      ByteBuffer bb = BuilderSpace.buffer(builder); // unfinished: dataBuffer() refuses it
      int end = bb.capacity();
      Integer[] sorted = new Integer[n];
      for (int i = 0; i < n; i++) {
        sorted[i] = s.elementOffsets[i];
      }
      long absent = KeyOrder.absentKey(t, key);
      Arrays.sort(sorted, (x, y) -> KeyOrder.compareTables(bb, end - x, end - y, key, absent));
      for (int i = 0; i < n; i++) {
        s.elementOffsets[i] = sorted[i];
      }
    } else {
      Arrays.sort(s.elementStructs, 0, n, (x, y) -> KeyOrder.compareStructs(x, y, key));
    }
  }

  /** A vector's content: its element kind, length and elements, as a [ubyte] from binary has it. */
  private void vectorKey(FieldPlan f, FieldKind element, Scratch s, int n) {
    Sharing.ContentKey key = sharing.key();
    int each =
        element == FieldKind.STRUCT ? plan.tables().get(f.typeIndex()).byteSize() : Long.BYTES;
    key.room(9 + each * n);
    key.putByte(element.ordinal());
    if (element == FieldKind.STRUCT) {
      // equal bytes of structs that align differently are not the same vector: the elements of
      // one aligned for the other may be misaligned for it
      key.putInt(plan.tables().get(f.typeIndex()).minAlign());
    }
    key.putInt(n);
    switch (element) {
      case STRING, TABLE -> {
        for (int i = 0; i < n; i++) {
          key.putInt(s.elementOffsets[i]);
        }
      }
      case STRUCT -> {
        for (int i = 0; i < n; i++) {
          key.put(s.elementStructs[i], 0, s.elementStructs[i].length);
        }
      }
      default -> {
        for (int i = 0; i < n; i++) {
          key.putLong(s.elementBits[i]);
        }
      }
    }
  }

  /** The table of plan {@code index} from the fields the scratch holds. */
  int table(int index, Scratch s) {
    TablePlan t = plan.tables().get(index);
    return table(index, t, s, t.fields().size() <= 64 ? written(index, s) : 0);
  }

  /**
   * The table of plan {@code index} from the scratch's fields whose bits are set in {@code
   * written}, for a type of at most 64 fields (present, and not a default left out); the scratch's
   * other fields are not read.
   */
  int table(int index, TablePlan t, Scratch s, long written) {
    FieldPlan key = keys[index];
    if (key != null && key.kind().isScalar()) {
      // a key not given is written at its default all the same: the generated lookups read it
      // without asking whether it is there
      int fi = key.id();
      boolean wide = t.fields().size() > 64; // no bit per field: write() asks isWritten
      if (wide ? !s.present[fi] : (written & (1L << fi)) == 0) {
        s.bits[fi] = defaults[index][fi];
        written |= wide ? 0 : 1L << fi;
      }
      s.present[fi] = true;
    }
    boolean share = sharing.tables(index);
    if (share) {
      tableKey(index, t, s, written);
      int hit = sharing.findTable(index);
      if (hit != 0) {
        lastTableBytes = sharing.lastTableSize(index);
        return hit;
      }
    } else if (sharing.kinds().tables()) {
      sharing.skippedTable(index);
    }
    int before = builder.offset();
    int offset = write(index, t, s, written);
    lastTableBytes = offset - before;
    if (share) {
      sharing.keepTable(index, offset, lastTableBytes);
    }
    return offset;
  }

  /** The size of the table the last {@link #table} call returned. */
  int lastTableBytes() {
    return lastTableBytes;
  }

  /**
   * The string of UTF-8 bytes {@code b[from, to)} if an equal one was written already, or 0 (always
   * 0 when strings are not shared); not counted until {@link #stringUsed}. Its size is {@link
   * #lastStringSize}.
   */
  int peekString(byte[] b, int from, int to) {
    return sharing.strings() ? sharing.peekString(b, from, to) : 0;
  }

  int lastStringSize() {
    return sharing.lastStringSize();
  }

  /** Counts a string {@link #peekString} found, of {@code size} bytes, as shared. */
  void stringUsed(int size) {
    sharing.stringFound(size);
  }

  /** The fields written: present, and not a default left out; bit {@code fi} for field fi. */
  private long written(int index, Scratch s) {
    long written = 0;
    for (int fi = 0; fi < writeRules[index].length; fi++) {
      if (isWritten(index, fi, s)) {
        written |= 1L << fi;
      }
    }
    return written;
  }

  private boolean isWritten(int index, int fi, Scratch s) {
    byte rule = writeRules[index][fi];
    return s.present[fi] && rule != 0 && (rule == 1 || s.bits[fi] != defaults[index][fi]);
  }

  /**
   * A table's content: for each field by id, whether it is written ({@code written}'s bits, for a
   * type of at most 64 fields), then its value.
   */
  private void tableKey(int index, TablePlan t, Scratch s, long written) {
    Sharing.ContentKey key = sharing.key();
    key.room(keyBytes[index]);
    boolean wide = t.fields().size() > 64; // no bit per field: asked field by field
    for (int fi = 0; fi < t.fields().size(); fi++) {
      FieldPlan f = t.fields().get(fi);
      boolean w = wide ? isWritten(index, fi, s) : (written & (1L << fi)) != 0;
      if (!w) {
        key.putByte(0);
        continue;
      }
      key.putByte(1);
      switch (f.kind()) {
        case STRUCT -> key.put(s.structs[fi], 0, s.structs[fi].length);
        case STRING, TABLE, VECTOR, UNION -> key.putInt(s.offsets[fi]);
        default -> key.putBits(s.bits[fi], f.kind().inlineSize());
      }
    }
  }

  private int write(int index, TablePlan t, Scratch s, long written) {
    if (puts != null && puts.handles(index)) {
      return puts.write(index, t, s, written);
    }
    builder.startTable(t.fields().size());
    for (int fi : writeOrder[index]) {
      FieldPlan f = t.fields().get(fi);
      if (!isWritten(index, fi, s)) {
        continue; // absent, or a default that a reader gets without it being written
      }
      FieldKind kind = f.kind();
      if (kind.isScalar()) {
        TableLayout.addScalar(builder, kind, s.bits[fi]);
        builder.slot(f.id());
      } else if (kind == FieldKind.STRUCT) {
        TablePlan st = plan.tables().get(f.typeIndex());
        TableLayout.putStruct(builder, st, s.structs[fi]);
        builder.addStruct(f.id(), builder.offset(), 0);
      } else {
        builder.addOffset(s.offsets[fi]);
        builder.slot(f.id());
      }
    }
    return builder.endTable();
  }
}
