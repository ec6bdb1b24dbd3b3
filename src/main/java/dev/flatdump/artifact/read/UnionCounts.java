package dev.flatdump.artifact.read;

import dev.flatdump.encode.engine.RecordsBuffer;
import dev.flatdump.encode.plan.EnumPlan;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many values of a shard's records went to each member of each union: every union value the
 * records reach, a table shared by several records counted once per reference, as the documents
 * held them. Only the fields through which a union can be reached are walked, so a schema without
 * unions costs nothing. The shard must have passed a structural check. Stateless; thread-safe.
 */
public final class UnionCounts {

  private UnionCounts() {}

  /**
   * Per union (its full name, in the plan's order), per member (its name, in declaration order),
   * how many values the shard's records hold; empty when the schema has no union.
   */
  public static Map<String, Map<String, Long>> of(SchemaPlan plan, ByteBuffer shard) {
    boolean[] reaches = reachesUnion(plan);
    long[][] counts = new long[plan.enums().size()][];
    for (int e = 0; e < counts.length; e++) {
      EnumPlan u = plan.enums().get(e);
      counts[e] = u.union() ? new long[u.members().size()] : null;
    }
    ByteBuffer bb = shard.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int v = RecordsBuffer.recordsVector(bb, plan);
    if (v != 0 && reaches[plan.recordIndex()]) {
      for (int i = 0, n = bb.getInt(v); i < n; i++) {
        int e = v + 4 + 4 * i;
        table(plan, reaches, counts, bb, plan.recordIndex(), e + bb.getInt(e));
      }
    }
    Map<String, Map<String, Long>> out = new LinkedHashMap<>();
    for (int e = 0; e < counts.length; e++) {
      if (counts[e] != null) {
        EnumPlan u = plan.enums().get(e);
        Map<String, Long> members = new LinkedHashMap<>();
        for (int m = 1; m < counts[e].length; m++) {
          if (u.members().get(m) >= 0) {
            members.put(u.nameOf(m), counts[e][m]);
          }
        }
        out.put(u.name(), members);
      }
    }
    return out;
  }

  /** The sum of two shards' counts. */
  public static Map<String, Map<String, Long>> plus(
      Map<String, Map<String, Long>> a, Map<String, Map<String, Long>> b) {
    Map<String, Map<String, Long>> sum = new LinkedHashMap<>();
    a.forEach((u, m) -> sum.put(u, new LinkedHashMap<>(m)));
    b.forEach(
        (u, m) ->
            m.forEach(
                (k, n) ->
                    sum.computeIfAbsent(u, x -> new LinkedHashMap<>()).merge(k, n, Long::sum)));
    return sum;
  }

  private static void table(
      SchemaPlan plan, boolean[] reaches, long[][] counts, ByteBuffer bb, int type, int at) {
    TablePlan t = plan.tables().get(type);
    for (FieldPlan f : t.fields()) {
      if (f.deprecated() || !reachesThrough(plan, reaches, f)) {
        continue;
      }
      int p = RecordsBuffer.fieldPosition(bb, at, f.slot());
      if (p == 0) {
        continue;
      }
      if (f.kind() == FieldKind.UNION) {
        int typeAt = RecordsBuffer.fieldPosition(bb, at, t.fields().get(f.id() - 1).slot());
        int member = typeAt == 0 ? 0 : bb.get(typeAt) & 0xff;
        EnumPlan u = plan.enums().get(f.enumIndex());
        if (member > 0 && member < u.members().size() && u.members().get(member) >= 0) {
          counts[f.enumIndex()][member]++;
          table(plan, reaches, counts, bb, u.members().get(member), p + bb.getInt(p));
        }
      } else if (f.kind() == FieldKind.TABLE) {
        table(plan, reaches, counts, bb, f.typeIndex(), p + bb.getInt(p));
      } else { // a vector of tables
        int vec = p + bb.getInt(p);
        for (int i = 0, n = bb.getInt(vec); i < n; i++) {
          int e = vec + 4 + 4 * i;
          table(plan, reaches, counts, bb, f.typeIndex(), e + bb.getInt(e));
        }
      }
    }
  }

  /** Whether a union can be reached through field {@code f}. */
  private static boolean reachesThrough(SchemaPlan plan, boolean[] reaches, FieldPlan f) {
    if (f.kind() == FieldKind.UNION) {
      return true;
    }
    boolean tables =
        f.kind() == FieldKind.TABLE
            || f.kind() == FieldKind.VECTOR && f.element() == FieldKind.TABLE;
    return tables && reaches[f.typeIndex()];
  }

  /** Per table type, whether a union can be reached from it: a fixed point over the plan. */
  private static boolean[] reachesUnion(SchemaPlan plan) {
    boolean[] reaches = new boolean[plan.tables().size()];
    for (boolean changed = true; changed; ) {
      changed = false;
      for (int i = 0; i < reaches.length; i++) {
        if (reaches[i] || plan.tables().get(i).struct()) {
          continue;
        }
        for (FieldPlan f : plan.tables().get(i).fields()) {
          if (!f.deprecated() && reachesThrough(plan, reaches, f)) {
            reaches[i] = true;
            changed = true;
            break;
          }
        }
      }
    }
    return reaches;
  }
}
