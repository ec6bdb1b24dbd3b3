package dev.flatdump.encode.engine;

import com.google.flatbuffers.BuilderSpace;
import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.encode.plan.EnumPlan;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldLookup;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds one BSON document into the schema's record table, walking its bytes once with the plan:
 * every string, table and vector is written before the table that holds it (postorder), and the
 * table last. A document that does not fit throws a {@link RejectedRecord} with the field's path;
 * what was written for it before that stays in the buffer, unless the caller {@link #mark}ed the
 * builder before and {@link #rollback}s it (as {@link ShardBuilder} does): then the document leaves
 * nothing behind, neither bytes nor anything shared or counted.
 *
 * <p>A sub-document of a leaf table type laid out as one met before is read by that layout ({@link
 * LeafShape}), and by the general walk, field by field, otherwise; both give the same table or the
 * same reject.
 *
 * <p>Unknown BSON fields are skipped and counted by path ({@link #unknownFields()}); with {@code
 * strict} they reject the document. The record's {@code _id} is neither, unless the record table
 * has a field for it. One encoder per builder; not thread-safe.
 */
public final class RecordEncoder {

  /** MongoDB's own nesting limit: deeper documents cannot come from a server. */
  static final int MAX_DEPTH = 100;

  /**
   * How deep tables may nest in a shard, counting its root table and the record: the limit of
   * FlatBuffers' verifiers (64 by default in C++, and in {@code check}), so that every reader
   * accepts what the export writes. A document whose tables nest deeper is rejected.
   */
  public static final int MAX_TABLE_DEPTH = 64;

  /**
   * The deepest table whose sub-tables are found by their BSON bytes ({@link BsonMemo}): a hit is
   * not walked, so its depth is not checked, but a key of at most {@link Sharing#MEMO_KEY_BYTES}
   * nests at most one table per 7 bytes (an element with an empty name and an empty document),
   * which from here stays within {@link #MAX_TABLE_DEPTH}. That bound holds only for types that
   * reach no {@code (wrapper)} ({@link #memoDepthBound}).
   */
  private static final int MEMO_MAX_DEPTH = MAX_TABLE_DEPTH - 2 - 1 - Sharing.MEMO_KEY_BYTES / 7;

  private static final byte[] ID = "_id".getBytes(StandardCharsets.US_ASCII);

  private static final String STRUCT_MISSING = "missing: a struct needs every field";

  private final SchemaPlan plan;
  private final UnionChoice unions;
  private final TableWriter writer;
  private final Sharing sharing;
  private final boolean strict;
  private final EncodePath path = new EncodePath();
  private final Map<String, Long> unknown = new TreeMap<>();
  private Scratch[] scratch = new Scratch[0];
  private final int[][] guesses;

  /**
   * Per table type, by field, the next field (by id) that reads the same BSON name, or -1; null for
   * a type where no two fields read one name.
   */
  private final int[][] alternates;

  /** Per table type, its required fields' ids. */
  private final int[][] required;

  /** Per table type, whether it is a leaf ({@link LeafShape#isLeaf}). */
  private final boolean[] leaf;

  /**
   * Per table type, whether a sub-document of it may be found by its bytes ({@link
   * #MEMO_MAX_DEPTH}): a type that reaches a {@code (wrapper)} (a union's member too) may nest
   * tables with no sub-document of their own, two or more per 8 bytes, so its depth is unbounded by
   * its size and it is always walked.
   */
  private final boolean[] memoDepthBound;

  /**
   * Per table type, the layouts of its last sub-documents in a different layout, the one read last
   * first; the record's (whose {@code _id} a layout may skip) apart, in the last row.
   */
  private final LeafShape[][] shapes;

  /** How many layouts a table type keeps. */
  private static final int SHAPES = 2;

  /** Per leaf table type, sub-documents read by their layout, and walked since the last reset. */
  private final int[] shapeHits;

  private final int[] shapeWalks;

  private long shapeReads;

  private long shapeLearns;

  /** Whether learned layouts get a generated reader ({@link LeafReaders}). */
  private final boolean readers;

  private int readersMade;
  private long readerReads;

  /**
   * The readers one encoder generates at most: past them, layouts are read by the loop. Learning
   * stops where layouts keep changing, so real collections stay far below.
   */
  private static final int MAX_READERS = 1024;

  /** Where {@link #leafTable} finds each segment of its shape. */
  private int[] segmentAt = new int[4];

  /** The builder's state at the last {@link #mark}, and the builder. */
  private final BuilderSpace.Mark mark = new BuilderSpace.Mark();

  private FlatBufferBuilder markedBuilder;

  /** BSON fields the schema does not name, met so far: a table that met one is not memoized. */
  private long unknownSeen;

  /** An encoder that shares nothing. */
  public RecordEncoder(SchemaPlan plan, boolean strict) {
    this(plan, new Sharing(plan, Sharing.Kinds.NONE), strict);
  }

  /** Tables through the builder's puts only ({@link TablePuts#putsOnly}). */
  void putsOnly() {
    writer.putsOnly();
  }

  /**
   * @param sharing what to share, and the shard's index of what was written; {@link
   *     Sharing#clear()} it at each new shard
   */
  public RecordEncoder(SchemaPlan plan, Sharing sharing, boolean strict) {
    this(plan, sharing, strict, true);
  }

  /**
   * @param tablePuts whether tables are written with {@link TablePuts}; off only to test that it
   *     writes what {@code startTable}/{@code endTable} write
   */
  RecordEncoder(SchemaPlan plan, Sharing sharing, boolean strict, boolean tablePuts) {
    this(plan, sharing, strict, tablePuts, true);
  }

  /**
   * @param shapes whether leaf tables are read by their layout ({@link LeafShape}); off only to
   *     test that it gives what the general walk gives
   */
  RecordEncoder(
      SchemaPlan plan, Sharing sharing, boolean strict, boolean tablePuts, boolean shapes) {
    this(plan, sharing, strict, tablePuts, shapes, true);
  }

  /**
   * @param readers whether a layout is checked and its scalars read by a reader generated for it
   *     ({@link LeafReaders}); off only to test that it reads what the loop over the layout reads
   */
  RecordEncoder(
      SchemaPlan plan,
      Sharing sharing,
      boolean strict,
      boolean tablePuts,
      boolean shapes,
      boolean readers) {
    this.readers = readers;
    this.plan = plan;
    this.unions = new UnionChoice(plan);
    this.writer = new TableWriter(plan, sharing, tablePuts);
    this.sharing = sharing;
    this.strict = strict;
    this.guesses = new int[plan.tables().size()][];
    this.required = new int[plan.tables().size()][];
    this.leaf = new boolean[plan.tables().size()];
    this.shapes = new LeafShape[plan.tables().size() + 1][SHAPES];
    this.shapeHits = new int[plan.tables().size()];
    this.shapeWalks = new int[plan.tables().size()];
    this.alternates = new int[plan.tables().size()][];
    for (int i = 0; i < alternates.length; i++) {
      alternates[i] = alternates(plan.tables().get(i));
    }
    for (int i = 0; i < leaf.length; i++) {
      leaf[i] =
          shapes
              && LeafShape.isLeaf(plan.tables().get(i))
              && !plan.tables().get(i).wrapper()
              && alternates[i] == null; // a layout knows one field per name
    }
    this.memoDepthBound = memoDepthBound(plan);
    for (int i = 0; i < required.length; i++) {
      required[i] =
          plan.tables().get(i).fields().stream()
              .filter(FieldPlan::required)
              .mapToInt(FieldPlan::id)
              .toArray();
    }
  }

  /** {@link #memoDepthBound} of every table type: those from which no wrapper is reachable. */
  private static boolean[] memoDepthBound(SchemaPlan plan) {
    int n = plan.tables().size();
    boolean[] reaches = new boolean[n];
    for (int i = 0; i < n; i++) {
      reaches[i] = plan.tables().get(i).wrapper();
    }
    for (boolean changed = true; changed; ) { // to a fixed point: types may be recursive
      changed = false;
      for (int i = 0; i < n; i++) {
        if (reaches[i]) {
          continue;
        }
        for (FieldPlan f : plan.tables().get(i).fields()) {
          boolean wraps =
              f.kind() == FieldKind.UNION
                  || (f.kind() == FieldKind.TABLE
                          || f.kind() == FieldKind.VECTOR && f.element() == FieldKind.TABLE)
                      && reaches[f.typeIndex()];
          if (wraps) {
            reaches[i] = true;
            changed = true;
            break;
          }
        }
      }
    }
    boolean[] bound = new boolean[n];
    for (int i = 0; i < n; i++) {
      bound[i] = !reaches[i];
    }
    return bound;
  }

  /** {@link #alternates} of one table type. */
  private static int[] alternates(TablePlan t) {
    int[] next = new int[t.fields().size()];
    java.util.Arrays.fill(next, -1);
    boolean any = false;
    for (FieldPlan f : t.fields()) {
      List<FieldPlan> readers = t.lookup().readersOf(f);
      int at = readers.indexOf(f);
      if (at >= 0 && at + 1 < readers.size()) {
        next[f.id()] = readers.get(at + 1).id();
        any = true;
      }
    }
    return any ? next : null;
  }

  /**
   * Builds the document {@code doc[offset, offset + length)} into {@code builder}.
   *
   * @return the record table's offset
   * @throws RejectedRecord when the document does not fit the schema
   */
  public int encode(FlatBufferBuilder builder, byte[] doc, int offset, int length) {
    writer.use(builder);
    path.reset();
    int end = Bson.documentEnd(doc, offset, offset + length, path);
    if (end != offset + length) {
      throw path.reject(
          "malformed BSON: the document says it has "
              + (end - offset)
              + " bytes, but "
              + length
              + " were given");
    }
    return table(plan.recordIndex(), doc, offset, end, 0);
  }

  /**
   * Marks {@code builder}, and what is shared in it, before a document: {@link #rollback} takes
   * both back to here. Costs a few fields, whatever the shard's size.
   */
  void mark(FlatBufferBuilder builder) {
    BuilderSpace.mark(builder, mark);
    markedBuilder = builder;
    sharing.mark();
    writer.mark(builder);
  }

  /**
   * Takes the builder marked last back to its {@link #mark}, as if no document had been encoded
   * since: its bytes zeroed and given back, its alignment and vtables, the strings, tables and
   * vectors kept for sharing, the memos of sub-documents, the samplers and the de-dup counts. The
   * layouts learned ({@link LeafShape}) stay: they only speed up reading, and the unknown fields'
   * counts stay too.
   */
  void rollback() {
    BuilderSpace.rollback(markedBuilder, mark);
    sharing.rollback();
    writer.rollback();
  }

  /** How many tables were read by their layout ({@link LeafShape}) so far. */
  long shapeReads() {
    return shapeReads;
  }

  /** How many times a layout was learned, or tried to be, so far. */
  long shapeLearns() {
    return shapeLearns;
  }

  /** Sub-documents whose scalars a generated reader read (tests). */
  long readerReads() {
    return readerReads;
  }

  /** Unknown BSON fields seen so far, by path, with how many documents had each. */
  public Map<String, Long> unknownFields() {
    return Collections.unmodifiableMap(unknown);
  }

  private Scratch scratch(int depth) {
    if (depth > MAX_TABLE_DEPTH - 2) { // depth 0 is the record, below the shard's root
      throw path.reject(
          "tables nested deeper than "
              + MAX_TABLE_DEPTH
              + " levels (counting the shard's root and the record), which FlatBuffers readers"
              + " refuse");
    }
    if (depth >= scratch.length) {
      scratch = Arrays.copyOf(scratch, Math.max(depth + 1, scratch.length * 2));
    }
    if (scratch[depth] == null) {
      scratch[depth] = new Scratch();
    }
    return scratch[depth];
  }

  /** The table of plan {@code index} from the document {@code [start, end)}; its offset. */
  private int table(int index, byte[] b, int start, int end, int depth) {
    if (!leaf[index]) {
      return walk(index, b, start, end, depth);
    }
    LeafShape[] known = shapes[depth == 0 ? shapes.length - 1 : index];
    for (int i = 0; i < known.length && known[i] != null; i++) {
      int offset = leafTable(index, known[i], b, start, end, depth);
      if (offset != 0) {
        if (i > 0) { // the layout read last comes first
          LeafShape hit = known[i];
          known[i] = known[0];
          known[0] = hit;
        }
        shapeHits[index]++;
        shapeReads++;
        return offset;
      }
    }
    long unknownBefore = unknownSeen;
    int offset = walk(index, b, start, end, depth);
    if (unknownSeen == unknownBefore && learns(index)) {
      learn(index, known, b, start, end, depth == 0);
    }
    return offset;
  }

  /**
   * Learns the layout of the sub-document {@code [start, end)}, which the walk just accepted, with
   * a reader generated for it while {@link #MAX_READERS} allows, and puts it first in {@code
   * known}, where it takes the place of the layout read least recently; if it has a layout a shape
   * can describe.
   */
  private void learn(int index, LeafShape[] known, byte[] b, int start, int end, boolean root) {
    shapeLearns++;
    LeafShape learned = LeafShape.learn(plan.tables().get(index), b, start, end, root);
    if (learned == null) {
      return;
    }
    if (readers && readersMade < MAX_READERS) {
      learned.reader = LeafReaders.of(learned);
      readersMade++;
    }
    System.arraycopy(known, 0, known, 1, known.length - 1);
    known[0] = learned;
  }

  /**
   * Whether to learn the layout of a sub-document the general walk just accepted (it had no layout
   * known, or another one): for the first 64 walks of a type, then while its layouts are read at
   * least as often as it is walked. Where sub-documents keep changing layout, or have one a layout
   * cannot describe, learning stops; every {@code 2^16} walks it starts again.
   */
  private boolean learns(int index) {
    int walks = ++shapeWalks[index];
    if (walks == 1 << 16) {
      shapeHits[index] = 0;
      shapeWalks[index] = 0;
      return true;
    }
    return walks <= 64 || walks <= shapeHits[index];
  }

  /**
   * The table of leaf type {@code index} from the sub-document {@code [start, end)}, read in the
   * layout {@code shape}; 0 when it is not in that layout or a value does not convert, before
   * anything was written: then the general walk reads it (and words a reject).
   */
  private int leafTable(int index, LeafShape shape, byte[] b, int start, int end, int depth) {
    int[] segments = segmentAt(shape.segments());
    TablePlan t = plan.tables().get(index);
    Scratch s = scratch(depth);
    s.room(t.fields().size());
    long[] bits = s.bits;
    // The layout checked, and the fields written whatever their values: by the layout's reader,
    // which also reads the scalars that do not convert, or by the layout itself.
    long written;
    int[] scalars;
    if (shape.reader != null) {
      written = shape.reader.read(b, start, end, segments, bits);
      if (written == LeafReader.NO) {
        return 0;
      }
      readerReads++;
      scalars = shape.converts; // the values left to read: those that convert
    } else {
      if (!shape.match(b, start, end, segments)) {
        return 0;
      }
      written = shape.always;
      scalars = shape.scalars;
    }
    for (int k : shape.checkedIds) {
      if (!idValid(shape, k, b, segments)) {
        return 0;
      }
    }
    int[] offsets = s.offsets;
    byte[] ops = shape.ops;
    int[] at = shape.fields;
    long[] defaults = shape.defaults;
    boolean[] omittable = shape.omittable;
    // The scalars left to read, each checked as the walk checks it.
    for (int k : scalars) {
      int v = shape.valueAt(k, segments);
      long x;
      switch (ops[k]) {
        case LeafShape.BOOL -> {
          x = b[v];
          if ((x & ~1) != 0) {
            return 0;
          }
        }
        case LeafShape.INT32 -> {
          x = Bson.int32(b, v);
          if (x < shape.min[k] || x > shape.max[k]) {
            return 0;
          }
        }
        case LeafShape.INT64 -> {
          x = Bson.int64(b, v);
          if (x < shape.min[k] || x > shape.max[k]) {
            return 0;
          }
        }
        case LeafShape.BITS64 -> x = Bson.int64(b, v);
        default -> {
          FieldPlan f = t.fields().get(at[k]);
          try {
            x = Scalars.convert(f.kind(), enumOf(f), shape.types[k], b, v, end - 1, path);
          } catch (RejectedRecord notThisWay) {
            return 0;
          }
        }
      }
      bits[at[k]] = x;
      if (x != defaults[k] && omittable[k]) {
        written |= shape.bit[k];
      }
    }
    // The strings, once nothing else can send the table back to the general walk: each one found
    // written already (an equal one passed the check), or checked here; then counted, and the new
    // ones written in the order the general walk writes them, the document's.
    int[] strings = shape.strings;
    if (strings.length == 1) { // nothing after the check can send it back: one pass
      int k = strings[0];
      int v = shape.valueAt(k, segments);
      int to = v + 3 + Bson.int32(b, v);
      int found = writer.peekString(b, v + 4, to);
      if (found != 0) {
        writer.stringUsed(writer.lastStringSize());
      } else if (Utf8.valid(b, v + 4, to)) {
        found = writer.newString(b, v + 4, to);
      } else {
        return 0;
      }
      offsets[at[k]] = found;
      return writer.table(index, t, s, written);
    }
    for (int k : strings) {
      int v = shape.valueAt(k, segments);
      int to = v + 3 + Bson.int32(b, v);
      int found = writer.peekString(b, v + 4, to);
      if (found == 0 && !Utf8.valid(b, v + 4, to)) {
        return 0;
      }
      if (found != 0) {
        bits[at[k]] = writer.lastStringSize(); // a string field has no bits of its own
      }
      offsets[at[k]] = found;
    }
    for (int k : strings) {
      int fi = at[k];
      if (offsets[fi] != 0) {
        writer.stringUsed((int) bits[fi]);
      } else {
        int v = shape.valueAt(k, segments);
        offsets[fi] = writer.string(b, v + 4, v + 3 + Bson.int32(b, v));
      }
    }
    return writer.table(index, t, s, written);
  }

  /** {@link #segmentAt}, with room for {@code segments}. */
  private int[] segmentAt(int segments) {
    if (segmentAt.length < segments) {
      segmentAt = new int[Math.max(segments, 2 * segmentAt.length)];
    }
    return segmentAt;
  }

  /**
   * Whether the record's {@code _id} at element {@code k}, which the layout skips, holds what BSON
   * allows: a string of valid UTF-8, a bool of 0 or 1. Else the walk rejects the document.
   */
  private static boolean idValid(LeafShape shape, int k, byte[] b, int[] segments) {
    int v = shape.valueAt(k, segments);
    if (shape.types[k] == Bson.BOOLEAN) {
      return (b[v] & ~1) == 0;
    }
    return Utf8.valid(b, v + 4, v + 3 + Bson.int32(b, v));
  }

  /** {@link #table}, field by field, by the plan. */
  private int walk(int index, byte[] b, int start, int end, int depth) {
    TablePlan t = plan.tables().get(index);
    Scratch s = scratch(depth);
    s.reset(t.fields().size());
    int[] guesses = guesses(index);
    int last = end - 1; // the document's closing NUL
    int p = start + 4;
    int ordinal = 0;
    while (p < last) {
      byte type = b[p];
      int name = p + 1;
      int nameEnd = -1;
      int fi = -1;
      // the field that stood here last time, or one of a few short names, recognised by 8-byte
      // loads and compares; else the long way
      if (name + 16 <= b.length) {
        FieldLookup lookup = t.lookup();
        int guess = ordinal < guesses.length ? guesses[ordinal] : -1;
        int nul = guess >= 0 ? lookup.nulAfter(guess, b, name) : -1;
        if (nul >= 0) {
          fi = guess;
        } else {
          fi = lookup.findShort(b, name);
          nul = fi >= 0 ? name + lookup.nameLength(fi) : -1;
          if (fi >= 0 && ordinal < guesses.length) {
            guesses[ordinal] = fi;
          }
        }
        if (nul >= 0 && nul < last) {
          nameEnd = nul;
        } else {
          fi = -1;
        }
      }
      if (fi < 0) {
        nameEnd = Bson.cstringEnd(b, name, last, path);
        fi = lookup(t, guesses, ordinal, b, name, nameEnd);
      }
      ordinal++;
      int value = nameEnd + 1;
      if (fi < 0) {
        unknownField(b, name, nameEnd, depth);
        p = skipUnknown(b, type, name, nameEnd, last);
        continue;
      }
      FieldPlan f = t.fields().get(fi);
      path.push(f.name());
      if (s.given[fi]) {
        throw path.reject("the field appears twice in the document");
      }
      s.given[fi] = true;
      if (alternates[index] != null && alternates[index][fi] >= 0 && type != Bson.NULL) {
        fi = alternative(index, fi, type, b, value, last);
        f = t.fields().get(fi);
      }
      p = field(f, fi, s, type, b, value, last, depth);
      path.pop();
    }
    if (p != last) {
      throw path.reject("malformed BSON: a value runs past its document");
    }
    for (int i : required[index]) {
      if (!s.present[i]) {
        throw new RejectedRecord(
            path.with(t.fields().get(i).name()), "required, and missing or null");
      }
    }
    return writer.table(index, s);
  }

  /**
   * Of the fields of table {@code index} that read one BSON name, from {@code first} on by id, the
   * first that takes the value of BSON type {@code type} at {@code p}: a scalar or a string by the
   * value itself (70000 does not go to a {@code short}, a name an enum lacks not to the enum), any
   * other kind by the value's type alone; {@code first} when none takes it (it rejects it).
   */
  private int alternative(int index, int first, byte type, byte[] b, int p, int end) {
    for (int fi = first; fi >= 0; fi = alternates[index][fi]) {
      FieldPlan f = plan.tables().get(index).fields().get(fi);
      if (f.kind().isScalar() || f.kind() == FieldKind.STRING) {
        if (takes(f, type, b, p, end)) {
          return fi;
        }
      } else if (unions.rank(f, type) > 0) {
        return fi;
      }
    }
    return first;
  }

  /** Whether the scalar or string field {@code f} takes the value at {@code p}. */
  private boolean takes(FieldPlan f, byte type, byte[] b, int p, int end) {
    try {
      if (f.kind().isScalar()) {
        Scalars.convert(f.kind(), enumOf(f), type, b, p, end, path);
      } else if (type == Bson.STRING) {
        Strings.checkedString(b, p, end, path); // valid UTF-8, or not taken
      } else {
        Strings.converted(type, b, p, end, path);
      }
      return true;
    } catch (RejectedRecord no) {
      return false;
    }
  }

  /**
   * The field named {@code b[name, nameEnd)}: first the one that stood at this ordinal in the table
   * before (documents of a collection mostly keep their fields' order), else by hash.
   */
  private static int lookup(
      TablePlan t, int[] guesses, int ordinal, byte[] b, int name, int nameEnd) {
    if (ordinal < guesses.length) {
      int guess = guesses[ordinal];
      if (guess >= 0 && t.lookup().matches(guess, b, name, nameEnd - name)) {
        return guess;
      }
    }
    int fi = t.lookup().find(b, name, nameEnd - name);
    if (ordinal < guesses.length) {
      guesses[ordinal] = fi;
    }
    return fi;
  }

  /** Per table type, the field found at each ordinal of the last document: a guess for the next. */
  private int[] guesses(int index) {
    int[] g = guesses[index];
    if (g == null) {
      g = new int[Math.min(64, 2 * plan.tables().get(index).fields().size() + 4)];
      Arrays.fill(g, -1);
      guesses[index] = g;
    }
    return g;
  }

  /**
   * Skips the value of a field the schema does not read (checked as the driver checks it); a reject
   * from it names the field.
   */
  private int skipUnknown(byte[] b, byte type, int name, int nameEnd, int last) {
    try {
      return Bson.skip(b, type, nameEnd + 1, last, path);
    } catch (RejectedRecord bad) {
      String field = new String(b, name, nameEnd - name, StandardCharsets.UTF_8);
      throw new RejectedRecord(path.with(field), bad.reason());
    }
  }

  private void unknownField(byte[] b, int name, int nameEnd, int depth) {
    if (depth == 0 && nameEnd - name == 3 && Arrays.equals(b, name, nameEnd, ID, 0, 3)) {
      return;
    }
    unknownSeen++;
    String at = path.with(new String(b, name, nameEnd - name, StandardCharsets.UTF_8));
    if (strict) {
      throw new RejectedRecord(at, "not a field of the schema (--strict)");
    }
    unknown.merge(at, 1L, Long::sum);
  }

  /** Reads one field's value into the scratch; returns the position after it. */
  private int field(
      FieldPlan f, int fi, Scratch s, byte type, byte[] b, int p, int end, int depth) {
    if (type == Bson.NULL) {
      return p; // absent: its default, or a reject if it is required
    }
    FieldKind kind = f.kind();
    if (kind.isScalar()) {
      s.bits[fi] = Scalars.convert(kind, enumOf(f), type, b, p, end, path);
      s.present[fi] = true;
      int size = Bson.scalarSize(type);
      return size >= 0 ? p + size : Bson.skip(b, type, p, end, path);
    }
    int after = Bson.valueEnd(b, type, p, end, path);
    switch (kind) {
      case STRING -> s.offsets[fi] = string(type, b, p, end);
      case TABLE -> s.offsets[fi] = subTable(f, type, b, p, after, end, depth);
      case STRUCT -> s.structs[fi] = subStruct(f, type, b, p, after);
      case VECTOR ->
          s.offsets[fi] =
              f.map() ? map(f, type, b, p, after, depth) : vector(f, type, b, p, after, depth);
      case UNION -> s.offsets[fi] = union(f, s, type, b, p, end, depth);
      default -> throw new IllegalStateException("kind " + kind);
    }
    s.present[fi] = true;
    return after;
  }

  /**
   * The member table of union field {@code f} that the value's BSON type chooses ({@link
   * UnionChoice}), holding the value; sets the union's type field in {@code s}.
   */
  private int union(FieldPlan f, Scratch s, byte type, byte[] b, int p, int end, int depth) {
    int member = unions.member(f.enumIndex(), type);
    if (member == 0) {
      throw Scalars.mismatch(unions.expected(f.enumIndex()), type, path);
    }
    s.bits[f.id() - 1] = member;
    s.present[f.id() - 1] = true;
    int table = plan.enums().get(f.enumIndex()).members().get(member);
    return wrapped(table, type, b, p, end, depth + 1);
  }

  /**
   * The {@code (wrapper)} table of plan {@code index} holding the value at {@code p} (of {@code
   * type}, null included: then its field is absent) in its one field; {@code end} bounds the
   * document or array that holds the value.
   */
  private int wrapped(int index, byte type, byte[] b, int p, int end, int depth) {
    TablePlan t = plan.tables().get(index);
    FieldPlan value = t.wrapped();
    Scratch w = scratch(depth);
    w.reset(t.fields().size());
    field(value, value.id(), w, type, b, p, end, depth);
    if (value.required() && !w.present[value.id()]) {
      throw path.reject("required, and missing or null");
    }
    return writer.table(index, w);
  }

  /**
   * A {@code (map)}: the vector of entry tables of field {@code f} from the document {@code [p,
   * after)}, one per field, its name the key and its value by the entry's value field; sorted by
   * key ({@link TableWriter#vector}). A key given twice rejects the document.
   */
  private int map(FieldPlan f, byte type, byte[] b, int p, int after, int depth) {
    if (type != Bson.DOCUMENT) {
      throw Scalars.mismatch("a document (map)", type, path);
    }
    int index = f.typeIndex();
    TablePlan entry = plan.tables().get(index);
    FieldPlan key = entry.key();
    FieldPlan value = entry.mapValue();
    Scratch s = scratch(depth);
    Set<String> keys = new HashSet<>();
    int last = after - 1;
    int q = p + 4;
    int n = 0;
    while (q < last) {
      byte t = b[q];
      int name = q + 1;
      int nameEnd = Bson.cstringEnd(b, name, last, path);
      String k = new String(b, name, nameEnd - name, StandardCharsets.UTF_8);
      path.push(k);
      if (!Utf8.valid(b, name, nameEnd)) {
        throw path.reject("a map's key is not valid UTF-8");
      }
      if (!keys.add(k)) {
        throw path.reject("the key appears twice in the map");
      }
      int valueAt = nameEnd + 1;
      int end = Bson.valueEnd(b, t, valueAt, last, path);
      Scratch e = scratch(depth + 1);
      e.reset(entry.fields().size());
      field(value, value.id(), e, t, b, valueAt, last, depth + 1);
      if (value.required() && !e.present[value.id()]) {
        throw path.reject("required, and missing or null");
      }
      e.offsets[key.id()] = writer.string(b, name, nameEnd);
      e.present[key.id()] = true;
      s.elementRoom(n);
      s.elementOffsets[n++] = writer.table(index, e);
      path.pop();
      q = end;
    }
    if (q != last) {
      throw path.reject("malformed BSON: a value runs past its document");
    }
    return writer.vector(f, s, n);
  }

  /**
   * The table a document gives field {@code f} (or one element of it); its offset. A sub-document
   * whose bytes equal one decoded before in the shard is the same table, found by its bytes without
   * decoding it again, while its type is shared. A {@code (wrapper)} takes any value; {@code end}
   * bounds the document or array that holds it.
   */
  private int subTable(FieldPlan f, byte type, byte[] b, int p, int after, int end, int depth) {
    int index = f.typeIndex();
    if (plan.tables().get(index).wrapper()) {
      return wrapped(index, type, b, p, end, depth + 1);
    }
    requireDocument(type, "table");
    if (!sharing.tables(index)) {
      return table(index, b, p, after, depth + 1);
    }
    if (depth > MEMO_MAX_DEPTH || !memoDepthBound[index] || !sharing.memoizes(index)) {
      return table(index, b, p, after, depth + 1);
    }
    int hash = BsonMemo.hash(b, p, after);
    int hit = sharing.findTableByBson(index, b, p, after, hash);
    if (hit != 0) {
      return hit;
    }
    long unknownBefore = unknownSeen;
    int offset = table(index, b, p, after, depth + 1);
    if (unknownSeen == unknownBefore) {
      sharing.keepTableByBson(index, b, p, after, hash, offset, writer.lastTableBytes());
    }
    return offset;
  }

  /** Whether vector {@code f}'s elements are {@code (wrapper)} tables, which take a null. */
  private boolean wrappers(FieldPlan f) {
    return plan.tables().get(f.typeIndex()).wrapper();
  }

  /** The struct a document gives field {@code f} (or one element of it); its bytes. */
  private byte[] subStruct(FieldPlan f, byte type, byte[] b, int p, int after) {
    requireDocument(type, "struct");
    return struct(f.typeIndex(), b, p, after);
  }

  private EnumPlan enumOf(FieldPlan f) {
    return f.enumIndex() < 0 ? null : plan.enums().get(f.enumIndex());
  }

  private void requireDocument(byte type, String what) {
    if (type != Bson.DOCUMENT) {
      throw Scalars.mismatch("a document (" + what + ")", type, path);
    }
  }

  private int string(byte type, byte[] b, int p, int end) {
    if (type == Bson.STRING) {
      int after = Strings.checkedString(b, p, end, path);
      return writer.string(b, p + 4, after - 1);
    }
    byte[] text = Strings.converted(type, b, p, end, path).getBytes(StandardCharsets.UTF_8);
    return writer.string(text, 0, text.length);
  }

  /** A struct's bytes as they lie in a table or vector; every field must be given. */
  private byte[] struct(int index, byte[] b, int start, int end) {
    TablePlan st = plan.tables().get(index);
    byte[] out = new byte[st.byteSize()];
    fillStruct(st, out, 0, b, start, end);
    return out;
  }

  private void fillStruct(TablePlan st, byte[] out, int base, byte[] b, int start, int end) {
    boolean[] seen = new boolean[st.fields().size()];
    int last = end - 1;
    int p = start + 4;
    while (p < last) {
      byte type = b[p];
      int name = p + 1;
      int nameEnd = Bson.cstringEnd(b, name, last, path);
      int value = nameEnd + 1;
      int fi = st.lookup().find(b, name, nameEnd - name);
      if (fi < 0) {
        unknownField(b, name, nameEnd, -1);
        p = skipUnknown(b, type, name, nameEnd, last);
        continue;
      }
      FieldPlan f = st.fields().get(fi);
      path.push(f.name());
      if (seen[fi]) {
        throw path.reject("the field appears twice in the document");
      }
      seen[fi] = true;
      if (type == Bson.NULL) {
        throw path.reject(STRUCT_MISSING); // a struct has no absent field
      }
      int after = Bson.valueEnd(b, type, value, last, path);
      if (f.kind() == FieldKind.STRUCT) {
        requireDocument(type, "struct");
        fillStruct(plan.tables().get(f.typeIndex()), out, base + f.slot(), b, value, after);
      } else {
        long bits = Scalars.convert(f.kind(), enumOf(f), type, b, value, last, path);
        TableLayout.putLittleEndian(out, base + f.slot(), bits, f.kind().inlineSize());
      }
      path.pop();
      p = after;
    }
    for (int i = 0; i < seen.length; i++) {
      if (!seen[i]) {
        throw new RejectedRecord(path.with(st.fields().get(i).name()), STRUCT_MISSING);
      }
    }
  }

  /** A vector from an array (or, for {@code [ubyte]}, from binary data or an ObjectId). */
  private int vector(FieldPlan f, byte type, byte[] b, int p, int end, int depth) {
    FieldKind element = f.element();
    if (Strings.isByteSource(element, f.enumIndex() >= 0, type)) {
      int[] range = Strings.byteRange(type, b, p, end, path);
      return writer.bytes(b, range[0], range[1]);
    }
    if (type != Bson.ARRAY) {
      throw Scalars.mismatch("an array", type, path);
    }
    Scratch s = scratch(depth);
    int last = end - 1;
    int q = p + 4;
    int n = 0;
    path.pushIndex(0);
    while (q < last) {
      byte t = b[q];
      path.index(n);
      q = Bson.elementNameEnd(b, q + 1, last, n, path) + 1; // names are "0", "1", ...
      if (t == Bson.NULL && !(element == FieldKind.TABLE && wrappers(f))) {
        throw path.reject("null in a vector");
      }
      int after = Bson.valueEnd(b, t, q, last, path);
      s.elementRoom(n);
      switch (element) {
        case STRING -> s.elementOffsets[n] = string(t, b, q, last);
        case TABLE -> s.elementOffsets[n] = subTable(f, t, b, q, after, last, depth);
        case STRUCT -> s.elementStructs[n] = subStruct(f, t, b, q, after);
        default -> s.elementBits[n] = Scalars.convert(element, enumOf(f), t, b, q, last, path);
      }
      q = after;
      n++;
    }
    path.pop();
    return writer.vector(f, s, n);
  }
}
