package dev.flatdump.artifact.check;

import dev.flatdump.encode.engine.RecordsBuffer;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts what a shard still holds more than once: equal strings, equal tables of each type, and
 * equal vectors, each written at distinct offsets. With de-dup on, every count is 0, except for a
 * table type whose sampling paused its index. Two tables are equal when they have the same type,
 * the same fields present, the same scalar bits and the same children (the same offsets: children
 * are shared first); two vectors when they have the same element type and the same elements.
 *
 * <p>Two walks over the shard keep the memory small whatever its size: the first takes a 64-bit
 * hash of each distinct object's content (8 bytes per object) and finds the hashes met more than
 * once; the second compares, byte for byte, only the objects with one of those hashes. So equal
 * objects are never counted by hash alone, and the few that share a hash by chance are told apart.
 *
 * <p>The shard must have passed {@link SchemaVerifier}: offsets are followed as they are. Stateless
 * between calls; thread-safe.
 */
public final class DedupAudit {

  /**
   * One kind of object in an artifact.
   *
   * @param kind {@code strings}, {@code vectors}, or a table type's name
   * @param objects distinct objects (offsets) of that kind
   * @param duplicates objects equal to one written before them
   */
  public record Count(String kind, long objects, long duplicates) {
    Count plus(Count other) {
      return new Count(kind, objects + other.objects, duplicates + other.duplicates);
    }
  }

  private static final int STRINGS = 0;
  private static final int VECTORS = 1;
  private static final int TABLES = 2; // then one kind per table type

  private final SchemaPlan plan;
  private final ByteBuffer bb;

  /** Objects visited in this walk, by position / 4 (every object is 4-aligned). */
  private final BitSet seenStrings = new BitSet();

  private final BitSet seenVectors = new BitSet();
  private final BitSet seenTables = new BitSet();

  /** First walk: each kind's content hashes; second walk: the hashes met more than once, sorted. */
  private final LongList[] hashes;

  private final long[][] suspects;

  /** Second walk: the suspects' contents, per kind, compared exactly. */
  private final List<Map<ByteBuffer, Integer>> contents = new ArrayList<>();

  private final long[] objects;
  private final long[] duplicates;
  private final java.util.function.ToLongFunction<ByteBuffer> hash;
  private boolean second;

  private DedupAudit(
      SchemaPlan plan, ByteBuffer shard, java.util.function.ToLongFunction<ByteBuffer> hash) {
    this.plan = plan;
    this.hash = hash;
    this.bb = shard.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int kinds = TABLES + plan.tables().size();
    hashes = new LongList[kinds];
    suspects = new long[kinds][];
    objects = new long[kinds];
    duplicates = new long[kinds];
    for (int k = 0; k < kinds; k++) {
      hashes[k] = new LongList();
      contents.add(new HashMap<>());
    }
  }

  /** The counts for one shard: strings, vectors, then each table type that has tables. */
  public static List<Count> audit(SchemaPlan plan, ByteBuffer shard) {
    return audit(plan, shard, DedupAudit::hash);
  }

  /**
   * {@link #audit(SchemaPlan, ByteBuffer)} with another content hash: a test's, to show that
   * objects sharing a hash by chance are told apart.
   */
  static List<Count> audit(
      SchemaPlan plan, ByteBuffer shard, java.util.function.ToLongFunction<ByteBuffer> hash) {
    DedupAudit a = new DedupAudit(plan, shard, hash);
    a.root();
    for (int k = 0; k < a.hashes.length; k++) {
      a.suspects[k] = a.hashes[k].repeated();
      a.hashes[k] = null;
    }
    a.second = true;
    a.seenStrings.clear();
    a.seenVectors.clear();
    a.seenTables.clear();
    a.root();
    return a.counts();
  }

  /** The sum of two shards' counts, kind by kind. */
  public static List<Count> plus(List<Count> a, List<Count> b) {
    Map<String, Count> sum = new LinkedHashMap<>();
    for (Count c : a) {
      sum.put(c.kind(), c);
    }
    for (Count c : b) {
      sum.merge(c.kind(), c, Count::plus);
    }
    return List.copyOf(sum.values());
  }

  private void root() {
    int v = RecordsBuffer.recordsVector(bb, plan);
    if (v == 0) {
      return;
    }
    int n = bb.getInt(v);
    for (int i = 0; i < n; i++) {
      int e = v + 4 + 4 * i;
      table(plan.recordIndex(), e + bb.getInt(e));
    }
  }

  private List<Count> counts() {
    List<Count> counts = new ArrayList<>();
    counts.add(new Count("strings", objects[STRINGS], duplicates[STRINGS]));
    counts.add(new Count("vectors", objects[VECTORS], duplicates[VECTORS]));
    for (int i = 0; i < plan.tables().size(); i++) {
      if (objects[TABLES + i] > 0) {
        counts.add(
            new Count(plan.tables().get(i).name(), objects[TABLES + i], duplicates[TABLES + i]));
      }
    }
    return counts;
  }

  /**
   * One object of kind {@code kind}, whose content is {@code content}: first walk, its hash is
   * noted; second walk, when that hash was met more than once, its content is compared with those
   * of the objects before it.
   */
  private void met(int kind, ByteBuffer content) {
    long h = hash.applyAsLong(content);
    if (!second) {
      objects[kind]++;
      hashes[kind].add(h);
    } else if (Arrays.binarySearch(suspects[kind], h) >= 0
        && contents.get(kind).putIfAbsent(content, 0) != null) {
      duplicates[kind]++;
    }
  }

  private static long hash(ByteBuffer content) {
    long h = 0x9E3779B97F4A7C15L ^ content.remaining();
    for (int i = content.position(); i < content.limit(); i++) {
      h = (h ^ (content.get(i) & 0xff)) * 0x100000001B3L;
      h ^= h >>> 29;
    }
    return h;
  }

  private int fieldPosition(int table, int slot) {
    return RecordsBuffer.fieldPosition(bb, table, slot);
  }

  /** Visits the table of plan {@code type} at {@code at} once, its children first. */
  private void table(int type, int at) {
    if (seenTables.get(at >>> 2)) {
      return;
    }
    seenTables.set(at >>> 2);
    TablePlan t = plan.tables().get(type);
    ByteArrayOutputStream key = new ByteArrayOutputStream(64);
    for (FieldPlan f : t.fields()) {
      int p = fieldPosition(at, f.slot());
      if (p == 0) {
        key.write(0);
        continue;
      }
      key.write(1);
      switch (f.kind()) {
        case STRING -> putInt(key, string(p + bb.getInt(p)));
        case TABLE -> {
          int child = p + bb.getInt(p);
          table(f.typeIndex(), child);
          putInt(key, child);
        }
        case VECTOR -> putInt(key, vector(f, p + bb.getInt(p)));
        case UNION -> { // the member its type field (met just before, and keyed) names
          int child = p + bb.getInt(p);
          int typeAt = fieldPosition(at, t.fields().get(f.id() - 1).slot());
          int member = typeAt == 0 ? 0 : bb.get(typeAt) & 0xff;
          table(plan.enums().get(f.enumIndex()).members().get(member), child);
          putInt(key, child);
        }
        default -> bytes(key, p, plan.inlineSize(f, f.kind()));
      }
    }
    met(TABLES + type, ByteBuffer.wrap(key.toByteArray()));
  }

  /** Visits the string at {@code at} once; returns its position. */
  private int string(int at) {
    if (!seenStrings.get(at >>> 2)) {
      seenStrings.set(at >>> 2);
      met(STRINGS, bb.slice(at + 4, bb.getInt(at)));
    }
    return at;
  }

  /** Visits the vector of field {@code f} at {@code at} once, its elements first. */
  private int vector(FieldPlan f, int at) {
    if (seenVectors.get(at >>> 2)) {
      return at;
    }
    seenVectors.set(at >>> 2);
    int n = bb.getInt(at);
    FieldKind element = f.element();
    ByteArrayOutputStream key = new ByteArrayOutputStream(16 + 4 * n);
    putInt(key, element.ordinal());
    putInt(key, f.typeIndex());
    putInt(key, f.enumIndex());
    putInt(key, n);
    switch (element) {
      case STRING -> {
        for (int i = 0; i < n; i++) {
          int e = at + 4 + 4 * i;
          putInt(key, string(e + bb.getInt(e)));
        }
      }
      case TABLE -> {
        for (int i = 0; i < n; i++) {
          int e = at + 4 + 4 * i;
          int child = e + bb.getInt(e);
          table(f.typeIndex(), child);
          putInt(key, child);
        }
      }
      default -> bytes(key, at + 4, n * plan.inlineSize(f, element));
    }
    met(VECTORS, ByteBuffer.wrap(key.toByteArray()));
    return at;
  }

  private void bytes(ByteArrayOutputStream key, int at, int length) {
    for (int i = 0; i < length; i++) {
      key.write(bb.get(at + i));
    }
  }

  /** A growing list of longs. */
  private static final class LongList {
    private long[] values = new long[1024];
    private int size;

    void add(long v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = v;
    }

    /** The values met more than once, sorted, each once. */
    long[] repeated() {
      long[] sorted = Arrays.copyOf(values, size);
      Arrays.sort(sorted);
      LongList out = new LongList();
      for (int i = 1; i < sorted.length; i++) {
        if (sorted[i] == sorted[i - 1]
            && (out.size == 0 || out.values[out.size - 1] != sorted[i])) {
          out.add(sorted[i]);
        }
      }
      return Arrays.copyOf(out.values, out.size);
    }
  }

  private static void putInt(ByteArrayOutputStream key, int v) {
    key.write(v);
    key.write(v >>> 8);
    key.write(v >>> 16);
    key.write(v >>> 24);
  }
}
