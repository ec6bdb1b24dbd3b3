package dev.flatdump.encode.engine;

import dev.flatdump.encode.plan.SchemaPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What one shard's builder shares: equal strings, equal tables of any type and equal vectors are
 * written once and referenced again ({@code --dedup strings,tables,vectors}: each kind can be off,
 * {@link Kinds}). Objects are keyed on their full content, compared exactly, never by hash alone: a
 * table on its type, the fields it writes and their scalar bits, struct bytes and children's
 * offsets (so {@code 0.0} and {@code -0.0}, or two NaN payloads, stay distinct); a vector on its
 * element kind (a struct's alignment too: equal bytes of structs aligned differently are not one
 * vector) and elements. A table type whose values do not repeat stops paying for its index, by
 * sampling ({@link RepeatSampler#forTables()}). Counts of total, unique and bytes saved are kept
 * per kind and per table type ({@link #counts}).
 *
 * <p>A table sub-document whose BSON bytes equal one already decoded in the shard is not decoded
 * again ({@link #findTableByBson}): equal bytes decode to equal content, so its table is the one
 * de-dup would find. Each table type has a {@link BsonMemo} of {@value #MEMO_SLOTS} keys of up to
 * {@value #MEMO_KEY_BYTES} bytes, checked byte for byte; a miss only costs a decoding. A hit counts
 * as a table shared; the strings inside it are not looked up again, so with tables shared the
 * strings' total counts only the strings of the tables decoded. A sub-document with a field the
 * schema does not name is decoded every time, so that such fields are counted per document. The
 * memo samples on its own ({@link #memoSamplers}): where bytes never repeat it soon stops hashing
 * and copying them (the table index goes on by its own sampling); where they do, it never pauses.
 * {@code SharingTest} checks on 2,000 realistic organizations that the bytes are the same with and
 * without it.
 *
 * <p>A rejected document shares nothing: {@link #mark()} before each document, {@link #rollback()}
 * when it is rejected, and what it kept, found and counted is taken back, its samplers' windows
 * too, so that what is shared later, and the counts, follow from the accepted documents alone. A
 * mark costs a few fields; the state of a table type is kept the first time a document touches it.
 *
 * <p>Offsets mean nothing outside their builder: {@link #clear()} at every new shard. Not
 * thread-safe.
 */
public final class Sharing {

  /** Which kinds of object are shared. */
  public record Kinds(boolean strings, boolean tables, boolean vectors) {

    public static final Kinds ALL = new Kinds(true, true, true);
    public static final Kinds NONE = new Kinds(false, false, false);

    /**
     * Parses {@code strings,tables,vectors} (any of them) or {@code none}.
     *
     * @throws IllegalArgumentException naming an unknown kind
     */
    public static Kinds parse(String text) {
      String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
      if (t.isEmpty() || t.equals("none")) {
        return NONE;
      }
      boolean s = false;
      boolean tb = false;
      boolean v = false;
      for (String part : t.split(",")) {
        switch (part.trim()) {
          case "strings" -> s = true;
          case "tables" -> tb = true;
          case "vectors" -> v = true;
          default ->
              throw new IllegalArgumentException(
                  "unknown de-dup kind '"
                      + part.trim()
                      + "' (expected strings, tables, vectors or none)");
        }
      }
      return new Kinds(s, tb, v);
    }
  }

  /**
   * How many objects of one kind were made, how many were written, and the bytes the others saved.
   */
  public record Count(String kind, long total, long unique, long bytesSaved) {}

  /** Sub-documents remembered per table type, and the largest remembered: 2 MiB of keys a type. */
  private static final int MEMO_SLOTS = 1 << 14;

  static final int MEMO_KEY_BYTES = 128;

  private final Kinds kinds;
  private final boolean memo;
  private final SchemaPlan plan;
  private final Index strings = new Index();
  private final Index vectors = new Index();
  private final Index[] tables;
  private final BsonMemo[] memos;
  private final RepeatSampler[] samplers;

  /**
   * Per table type, whether to look sub-documents up by their bytes: windows of {@value
   * #MEMO_WINDOW}, so that where bytes do not repeat, hashing and copying them soon stops; where
   * they do, lookups never pause. It decides only for the memo; {@link #samplers} still decide
   * whether tables are shared at all.
   */
  private final RepeatSampler[] memoSamplers;

  private static final int MEMO_WINDOW = 1 << 12;
  private final ContentKey key = new ContentKey();

  /** Whether a document is marked ({@link #mark}): only then is state kept to roll back. */
  private boolean marking;

  /** Counts the marks; a table type touched in this one has it in {@link #touchedAt}. */
  private long epoch;

  private final long[] touchedAt;

  /** The table types touched since the mark, {@link #touchedCount} of them. */
  private final int[] touched;

  private int touchedCount;

  public Sharing(SchemaPlan plan, Kinds kinds) {
    this(plan, kinds, true);
  }

  /**
   * @param memo whether sub-documents are found by their BSON bytes ({@link #findTableByBson}); off
   *     only to test that it changes nothing in the bytes
   */
  Sharing(SchemaPlan plan, Kinds kinds, boolean memo) {
    this.plan = plan;
    this.kinds = kinds;
    this.memo = memo;
    int n = plan.tables().size();
    tables = new Index[n];
    memos = new BsonMemo[n];
    samplers = new RepeatSampler[n];
    memoSamplers = new RepeatSampler[n];
    touchedAt = new long[n];
    touched = new int[n];
    for (int i = 0; i < n; i++) {
      tables[i] = new Index();
      samplers[i] = RepeatSampler.forTables();
      memoSamplers[i] = RepeatSampler.forMemo(MEMO_WINDOW);
    }
  }

  public Kinds kinds() {
    return kinds;
  }

  /**
   * Marks the start of a document: {@link #rollback} takes everything back to here. Keeps the
   * strings' and vectors' indexes' sizes and counts; a table type's state is kept when the document
   * first touches it ({@link #touch}).
   */
  void mark() {
    marking = true;
    epoch++;
    touchedCount = 0;
    strings.save();
    vectors.save();
  }

  /**
   * Takes back all the document marked last did ({@link #mark}): the objects it kept are no longer
   * found (their offsets lie in space its builder gives back), those it found are no longer
   * counted, its sub-documents leave the memos, and the samplers are where they were.
   */
  void rollback() {
    if (!marking) {
      throw new IllegalStateException("rollback without a mark");
    }
    strings.restore();
    vectors.restore();
    for (int k = 0; k < touchedCount; k++) {
      int i = touched[k];
      tables[i].restore();
      samplers[i].restore();
      memoSamplers[i].restore();
      if (memos[i] != null) {
        memos[i].restore();
      }
    }
    touchedCount = 0;
    epoch++; // a second rollback finds nothing touched
  }

  /** Keeps table type {@code i}'s state, the first time it changes since the mark. */
  private void touch(int i) {
    if (marking && touchedAt[i] != epoch) {
      touchedAt[i] = epoch;
      touched[touchedCount++] = i;
      tables[i].save();
      samplers[i].save();
      memoSamplers[i].save();
      if (memos[i] != null) {
        memos[i].save();
      }
    }
  }

  /** Forgets every object: the builder starts a new shard. The counts go on. */
  public void clear() {
    strings.clear();
    vectors.clear();
    for (Index t : tables) {
      t.clear();
    }
    for (BsonMemo m : memos) {
      if (m != null) {
        m.clear();
      }
    }
  }

  /**
   * The offset of the table that a sub-document with exactly these BSON bytes, {@code b[from, to)},
   * became earlier in this shard, or 0. Equal bytes decode to equal content, so that table is the
   * one sharing would find after decoding them again: a hit counts as a table shared (and is
   * reported to the type's sampler), and saves the decoding. Call only when {@link #memoizes} says
   * so.
   */
  int findTableByBson(int typeIndex, byte[] b, int from, int to, int hash) {
    touch(typeIndex);
    BsonMemo memo = memos[typeIndex];
    if (memo == null) {
      memo = memos[typeIndex] = new BsonMemo(MEMO_SLOTS, MEMO_KEY_BYTES);
      if (marking) {
        memo.save(); // a rollback empties it again
      }
    }
    int found = memo.find(b, from, to, hash);
    memoSamplers[typeIndex].found(found != 0);
    if (found != 0) {
      samplers[typeIndex].found(true);
      Index t = tables[typeIndex];
      t.total++;
      t.saved += memo.lastSize();
    }
    return found;
  }

  /**
   * Remembers that the sub-document {@code b[from, to)} became the table at {@code offset}, of
   * {@code bytes} bytes. Only for a table decoded without a reject and without a field the schema
   * does not name (those are counted per document, so such documents must be walked each time).
   */
  void keepTableByBson(int typeIndex, byte[] b, int from, int to, int hash, int offset, int bytes) {
    touch(typeIndex);
    memos[typeIndex].keep(b, from, to, hash, offset, bytes);
  }

  /**
   * Whether to look the next sub-document of this type up by its bytes ({@link #findTableByBson},
   * then {@link #keepTableByBson} on a miss): the memo is on and its sampler says so. Call only
   * when {@link #tables} says so; each call counts as one sub-document for the sampler.
   */
  boolean memoizes(int typeIndex) {
    if (!memo) {
      return false;
    }
    RepeatSampler sampler = memoSamplers[typeIndex];
    if (sampler.active()) {
      return true;
    }
    touch(typeIndex);
    sampler.skipped();
    return false;
  }

  /** The size of the table that the last {@link #findTable} hit found. */
  int lastTableSize(int typeIndex) {
    return tables[typeIndex].lastSize;
  }

  /** The key that {@link #find} and {@link #keep} take; filled by the caller, reset here. */
  ContentKey key() {
    key.reset();
    return key;
  }

  boolean strings() {
    return kinds.strings;
  }

  boolean vectors() {
    return kinds.vectors;
  }

  /** Whether to look tables of this type up now: on, and its sampler not paused. */
  boolean tables(int typeIndex) {
    return kinds.tables && samplers[typeIndex].active();
  }

  /** The offset of a string with the key's content already written, or 0. */
  int findString() {
    return strings.find(key);
  }

  /**
   * The offset of a string of the bytes {@code b[from, to)} already written, or 0; not counted:
   * {@link #stringFound} counts it once it is used.
   */
  int peekString(byte[] b, int from, int to) {
    return strings.find(b, from, to);
  }

  /** The size of the string {@link #peekString} found last. */
  int lastStringSize() {
    return strings.lastSize;
  }

  /** Counts a string of {@code size} bytes that {@link #peekString} found and the caller used. */
  void stringFound(int size) {
    strings.found(size);
  }

  void keepString(int offset, int bytes) {
    strings.keep(key, offset, bytes);
  }

  /**
   * Keeps the string of the bytes {@code b[from, to)}, written at {@code offset}, that the last
   * {@link #peekString} did not find, with no string kept since: where that lookup stopped, without
   * looking it up again.
   */
  void keepPeekedString(byte[] b, int from, int to, int offset, int bytes) {
    strings.total++;
    strings.keep(b, from, to, offset, bytes);
  }

  int findVector() {
    return vectors.find(key);
  }

  void keepVector(int offset, int bytes) {
    vectors.keep(key, offset, bytes);
  }

  /** The offset of an equal table of this type, or 0; reports the lookup to its sampler. */
  int findTable(int typeIndex) {
    touch(typeIndex);
    int found = tables[typeIndex].find(key);
    samplers[typeIndex].found(found != 0);
    return found;
  }

  void keepTable(int typeIndex, int offset, int bytes) {
    touch(typeIndex);
    tables[typeIndex].keep(key, offset, bytes);
  }

  /** A table written without looking it up (its type's sampler paused it). */
  void skippedTable(int typeIndex) {
    touch(typeIndex);
    samplers[typeIndex].skipped();
    tables[typeIndex].total++;
    tables[typeIndex].unique++;
  }

  /** Counts for strings, vectors, and each table type that was built, in the plan's order. */
  public List<Count> counts() {
    List<Count> counts = new ArrayList<>();
    counts.add(strings.count("strings"));
    counts.add(vectors.count("vectors"));
    for (int i = 0; i < tables.length; i++) {
      if (tables[i].total > 0) {
        counts.add(tables[i].count(plan.tables().get(i).name()));
      }
    }
    return counts;
  }

  /**
   * One kind's objects by content, with what they were worth: an open-addressing table over the
   * keys' bytes, kept in one growing array and compared in place, so that a lookup allocates
   * nothing.
   */
  private static final class Index {
    /**
     * Per entry, one record: its key's length, its offset, its size (three ints), then the key's
     * bytes. A lookup finds all it needs in one place, most often one cache line.
     */
    private byte[] arena = new byte[1 << 14];

    private int arenaLength;

    private static final int RECORD = 12;

    private int count;

    /**
     * Per slot, the key's hash in the high half and its record's start + 1 in the low; 0 for empty.
     */
    private long[] slots = new long[1 << 11];

    private int lastHash;
    private int lastSlot;
    int lastSize;
    long total;
    long unique;
    long saved;

    /** What {@link #save} kept: the arena's length, the entries and the counts. */
    private int savedArenaLength;

    private int savedCount;
    private long savedTotal;
    private long savedUnique;
    private long savedSaved;

    /** The offset of the object whose content is the key's, or 0; remembers where to keep it. */
    int find(ContentKey key) {
      return find(key.bytes, 0, key.length, true);
    }

    /**
     * The offset of the object whose content is {@code b[from, to)}, or 0; not counted. Its size is
     * {@link #lastSize}.
     */
    int find(byte[] b, int from, int to) {
      return find(b, from, to, false);
    }

    /** Counts an object that {@link #find(byte[], int, int)} found, of {@code size} bytes. */
    void found(int size) {
      total++;
      saved += size;
    }

    private int find(byte[] b, int from, int to, boolean count) {
      int h = ContentKey.hash(b, from, to);
      int length = to - from;
      int mask = slots.length - 1;
      int slot = mix(h) & mask;
      long s;
      while ((s = slots[slot]) != 0) {
        if ((int) (s >>> 32) == h) {
          int r = (int) s - 1;
          int start = r + RECORD;
          if ((int) ContentKey.INT_LE.get(arena, r) == length
              && Arrays.equals(arena, start, start + length, b, from, to)) {
            lastSize = (int) ContentKey.INT_LE.get(arena, r + 8);
            if (count) {
              found(lastSize);
            }
            return (int) ContentKey.INT_LE.get(arena, r + 4);
          }
        }
        slot = (slot + 1) & mask;
      }
      if (count) {
        total++;
      }
      lastHash = h;
      lastSlot = slot;
      return 0;
    }

    /** Keeps the key just looked up and not found. */
    void keep(ContentKey key, int offset, int bytes) {
      keep(key.bytes, 0, key.length, offset, bytes);
    }

    /** Keeps {@code b[from, to)}, the content just looked up and not found. */
    void keep(byte[] b, int from, int to, int offset, int bytes) {
      if (slots[lastSlot] != 0) {
        throw new IllegalStateException("kept where the last lookup did not leave a free slot");
      }
      unique++;
      int length = to - from;
      int need = RECORD + length;
      if (arenaLength + need > arena.length) {
        arena = Arrays.copyOf(arena, Math.max(arenaLength + need, arena.length * 2));
      }
      int r = arenaLength;
      ContentKey.INT_LE.set(arena, r, length);
      ContentKey.INT_LE.set(arena, r + 4, offset);
      ContentKey.INT_LE.set(arena, r + 8, bytes);
      System.arraycopy(b, from, arena, r + RECORD, length);
      arenaLength += need;
      count++;
      slots[lastSlot] = (long) lastHash << 32 | (r + 1);
      if (count * 2 > slots.length) {
        rehash(slots.length * 2);
      }
    }

    private void rehash(int capacity) {
      long[] old = slots;
      slots = new long[capacity];
      int mask = capacity - 1;
      for (long s : old) {
        if (s != 0) {
          int slot = mix((int) (s >>> 32)) & mask;
          while (slots[slot] != 0) {
            slot = (slot + 1) & mask;
          }
          slots[slot] = s;
        }
      }
    }

    void clear() {
      Arrays.fill(slots, 0);
      count = 0;
      arenaLength = 0;
      savedArenaLength = 0;
      savedCount = 0;
    }

    /** Keeps the entries' and counts' state, for {@link #restore}. */
    void save() {
      savedArenaLength = arenaLength;
      savedCount = count;
      savedTotal = total;
      savedUnique = unique;
      savedSaved = saved;
    }

    /**
     * Takes the index back to its state at the last {@link #save}: the entries kept since, last in
     * the arena, leave the slots (they are never found again) and the arena; the counts are those
     * saved.
     */
    void restore() {
      for (int r = savedArenaLength; r < arenaLength; ) {
        int length = (int) ContentKey.INT_LE.get(arena, r);
        remove(r, ContentKey.hash(arena, r + RECORD, r + RECORD + length));
        r += RECORD + length;
      }
      arenaLength = savedArenaLength;
      count = savedCount;
      total = savedTotal;
      unique = savedUnique;
      saved = savedSaved;
    }

    /**
     * Empties the slot of the entry whose record starts at {@code r}, of hash {@code h}, and moves
     * back the entries after it that could no longer be reached past the hole (a deletion from
     * linear probing that needs no tombstones).
     */
    private void remove(int r, int h) {
      int mask = slots.length - 1;
      int hole = mix(h) & mask;
      while ((int) slots[hole] != r + 1) {
        if (slots[hole] == 0) {
          throw new IllegalStateException("an entry kept since the mark is not in the index");
        }
        hole = (hole + 1) & mask;
      }
      for (int j = (hole + 1) & mask; slots[j] != 0; j = (j + 1) & mask) {
        int home = mix((int) (slots[j] >>> 32)) & mask;
        boolean reachable = hole <= j ? home > hole && home <= j : home > hole || home <= j;
        if (!reachable) {
          slots[hole] = slots[j];
          hole = j;
        }
      }
      slots[hole] = 0;
    }

    Count count(String kind) {
      return new Count(kind, total, unique, saved);
    }

    private static int mix(int h) {
      return h ^ (h >>> 16);
    }
  }

  /**
   * Bytes that identify an object's content; grown as needed, reused. A caller that knows how many
   * bytes it puts makes {@link #room} for them once; each put then writes without a check of its
   * own beyond the array's.
   */
  static final class ContentKey {
    private byte[] bytes = new byte[64];
    private int length;

    void reset() {
      length = 0;
    }

    /** Makes room for {@code n} more bytes. */
    void room(int n) {
      if (length + n > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(length + n, bytes.length * 2));
      }
    }

    void putByte(int v) {
      bytes[length++] = (byte) v;
    }

    void putInt(int v) {
      INT_LE.set(bytes, length, v);
      length += 4;
    }

    void putLong(long v) {
      LONG_LE.set(bytes, length, v);
      length += 8;
    }

    void put(byte[] b, int from, int to) {
      System.arraycopy(b, from, bytes, length, to - from);
      length += to - from;
    }

    /**
     * Puts the low {@code size} bytes of {@code bits}: a scalar as wide as its kind. Writes eight
     * bytes, so the room made must count eight.
     */
    void putBits(long bits, int size) {
      LONG_LE.set(bytes, length, bits);
      length += size;
    }

    /** A hash of the key's bytes, eight at a time. */
    int hash() {
      return hash(bytes, 0, length);
    }

    /** The hash of a key of the bytes {@code b[from, to)}. */
    static int hash(byte[] b, int from, int to) {
      long h = 0x9E3779B97F4A7C15L ^ (to - from);
      int i = from;
      for (; i + 8 <= to; i += 8) {
        h = (h ^ (long) LONG_LE.get(b, i)) * 0xBF58476D1CE4E5B9L;
        h ^= h >>> 31;
      }
      for (; i < to; i++) {
        h = (h ^ (b[i] & 0xff)) * 0x94D049BB133111EBL;
      }
      h ^= h >>> 29;
      return (int) (h ^ (h >>> 32));
    }

    private static final java.lang.invoke.VarHandle LONG_LE =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final java.lang.invoke.VarHandle INT_LE =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
  }
}
