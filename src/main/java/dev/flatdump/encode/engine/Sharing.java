package dev.flatdump.encode.engine;

import dev.flatdump.RepeatSampler;
import dev.flatdump.encode.plan.SchemaPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one shard's builder shares: equal strings, equal tables of any type and equal vectors are
 * written once and referenced again. Objects are keyed on their full content, compared exactly,
 * never by hash alone: a table on its type, the fields it writes and their scalar bits, struct
 * bytes and children's offsets (so {@code 0.0} and {@code -0.0}, or two NaN payloads, stay
 * distinct); a vector on its element kind and elements. A table type whose values do not repeat
 * stops paying for its index, by sampling ({@link RepeatSampler#forAttributes()}).
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

  private final Kinds kinds;
  private final SchemaPlan plan;
  private final Index strings = new Index();
  private final Index vectors = new Index();
  private final Index[] tables;
  private final RepeatSampler[] samplers;
  private final ContentKey key = new ContentKey();

  public Sharing(SchemaPlan plan, Kinds kinds) {
    this.plan = plan;
    this.kinds = kinds;
    int n = plan.tables().size();
    tables = new Index[n];
    samplers = new RepeatSampler[n];
    for (int i = 0; i < n; i++) {
      tables[i] = new Index();
      samplers[i] = RepeatSampler.forAttributes();
    }
  }

  public Kinds kinds() {
    return kinds;
  }

  /** Forgets every object: the builder starts a new shard. The counts go on. */
  public void clear() {
    strings.map.clear();
    vectors.map.clear();
    for (Index t : tables) {
      t.map.clear();
    }
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

  void keepString(int offset, int bytes) {
    strings.keep(key, offset, bytes);
  }

  int findVector() {
    return vectors.find(key);
  }

  void keepVector(int offset, int bytes) {
    vectors.keep(key, offset, bytes);
  }

  /** The offset of an equal table of this type, or 0; reports the lookup to its sampler. */
  int findTable(int typeIndex) {
    int found = tables[typeIndex].find(key);
    samplers[typeIndex].found(found != 0);
    return found;
  }

  void keepTable(int typeIndex, int offset, int bytes) {
    tables[typeIndex].keep(key, offset, bytes);
  }

  /** A table written without looking it up (its type's sampler paused it). */
  void skippedTable(int typeIndex) {
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

  /** One kind's objects by content, with what they were worth. */
  private static final class Index {
    final Map<ContentKey.Frozen, long[]> map = new HashMap<>(1 << 12);
    long total;
    long unique;
    long saved;

    int find(ContentKey key) {
      long[] hit = map.get(key.probe());
      total++;
      if (hit == null) {
        return 0;
      }
      saved += hit[1];
      return (int) hit[0];
    }

    void keep(ContentKey key, int offset, int bytes) {
      unique++;
      map.put(key.freeze(), new long[] {offset, bytes});
    }

    Count count(String kind) {
      return new Count(kind, total, unique, saved);
    }
  }

  /** Bytes that identify an object's content; grown as needed, reused. */
  static final class ContentKey {
    private byte[] bytes = new byte[64];
    private int length;
    private final Frozen probe = new Frozen(null, 0, 0);

    void reset() {
      length = 0;
    }

    void putByte(int v) {
      room(1);
      bytes[length++] = (byte) v;
    }

    void putInt(int v) {
      room(4);
      for (int i = 0; i < 4; i++) {
        bytes[length++] = (byte) (v >>> (8 * i));
      }
    }

    void putLong(long v) {
      room(8);
      for (int i = 0; i < 8; i++) {
        bytes[length++] = (byte) (v >>> (8 * i));
      }
    }

    void put(byte[] b, int from, int to) {
      room(to - from);
      System.arraycopy(b, from, bytes, length, to - from);
      length += to - from;
    }

    private void room(int n) {
      if (length + n > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(length + n, bytes.length * 2));
      }
    }

    Frozen probe() {
      probe.set(bytes, length);
      return probe;
    }

    Frozen freeze() {
      byte[] copy = Arrays.copyOf(bytes, length);
      return new Frozen(copy, length, Arrays.hashCode(copy));
    }

    /** A key as a map key: equal when the bytes are. */
    static final class Frozen {
      private byte[] bytes;
      private int length;
      private int hash;

      Frozen(byte[] bytes, int length, int hash) {
        this.bytes = bytes;
        this.length = length;
        this.hash = hash;
      }

      void set(byte[] b, int n) {
        bytes = b;
        length = n;
        int h = 1;
        for (int i = 0; i < n; i++) {
          h = 31 * h + b[i];
        }
        hash = h;
      }

      @Override
      public boolean equals(Object o) {
        return o instanceof Frozen f
            && f.length == length
            && Arrays.equals(bytes, 0, length, f.bytes, 0, f.length);
      }

      @Override
      public int hashCode() {
        return hash;
      }
    }
  }
}
