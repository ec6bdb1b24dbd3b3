package dev.flatdump.artifact;

import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Counts what a shard still holds more than once: equal strings, equal tables of each type, and
 * equal vectors, each written at distinct offsets. With de-dup on, every count is 0, except for a
 * table type whose sampling paused its index. Two tables are equal when they have the same type,
 * the same fields present, the same scalar bits and the same children (the same offsets: children
 * are shared first); two vectors when they have the same element type and the same elements.
 *
 * <p>The shard must have passed {@link SchemaVerifier}: offsets are followed as they are. Holds a
 * key per distinct object while it runs. Stateless between calls; thread-safe.
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

  private final SchemaPlan plan;
  private final ByteBuffer bb;
  private final Set<Integer> seenStrings = new HashSet<>();
  private final Map<ByteBuffer, Integer> strings = new HashMap<>();
  private final Set<Integer> seenVectors = new HashSet<>();
  private final Map<ByteBuffer, Integer> vectors = new HashMap<>();
  private final List<Set<Integer>> seenTables = new ArrayList<>();
  private final List<Map<ByteBuffer, Integer>> tables = new ArrayList<>();
  private final long[] tableDuplicates;
  private long stringDuplicates;
  private long vectorDuplicates;

  private DedupAudit(SchemaPlan plan, ByteBuffer shard) {
    this.plan = plan;
    this.bb = shard.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < plan.tables().size(); i++) {
      seenTables.add(new HashSet<>());
      tables.add(new HashMap<>());
    }
    tableDuplicates = new long[plan.tables().size()];
  }

  /** The counts for one shard: strings, vectors, then each table type that has tables. */
  public static List<Count> audit(SchemaPlan plan, ByteBuffer shard) {
    DedupAudit a = new DedupAudit(plan, shard);
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
    counts.add(new Count("strings", seenStrings.size(), stringDuplicates));
    counts.add(new Count("vectors", seenVectors.size(), vectorDuplicates));
    for (int i = 0; i < tables.size(); i++) {
      if (!seenTables.get(i).isEmpty()) {
        counts.add(
            new Count(plan.tables().get(i).name(), seenTables.get(i).size(), tableDuplicates[i]));
      }
    }
    return counts;
  }

  private int fieldPosition(int table, int slot) {
    return RecordsBuffer.fieldPosition(bb, table, slot);
  }

  /** Visits the table of plan {@code type} at {@code at} once, its children first. */
  private void table(int type, int at) {
    if (!seenTables.get(type).add(at)) {
      return;
    }
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
        case STRUCT -> bytes(key, p, plan.tables().get(f.typeIndex()).byteSize());
        default -> bytes(key, p, f.kind().inlineSize());
      }
    }
    if (tables.get(type).putIfAbsent(ByteBuffer.wrap(key.toByteArray()), at) != null) {
      tableDuplicates[type]++;
    }
  }

  /** Visits the string at {@code at} once; returns its position. */
  private int string(int at) {
    if (seenStrings.add(at)) {
      ByteBuffer content = bb.slice(at + 4, bb.getInt(at)).order(ByteOrder.LITTLE_ENDIAN);
      if (strings.putIfAbsent(content, at) != null) {
        stringDuplicates++;
      }
    }
    return at;
  }

  /** Visits the vector of field {@code f} at {@code at} once, its elements first. */
  private int vector(FieldPlan f, int at) {
    if (!seenVectors.add(at)) {
      return at;
    }
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
      case STRUCT -> bytes(key, at + 4, n * plan.tables().get(f.typeIndex()).byteSize());
      default -> bytes(key, at + 4, n * element.inlineSize());
    }
    if (vectors.putIfAbsent(ByteBuffer.wrap(key.toByteArray()), at) != null) {
      vectorDuplicates++;
    }
    return at;
  }

  private void bytes(ByteArrayOutputStream key, int at, int length) {
    for (int i = 0; i < length; i++) {
      key.write(bb.get(at + i));
    }
  }

  private static void putInt(ByteArrayOutputStream key, int v) {
    key.write(v);
    key.write(v >>> 8);
    key.write(v >>> 16);
    key.write(v >>> 24);
  }
}
