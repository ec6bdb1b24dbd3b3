package dev.flatdump.encode.engine;

import dev.flatdump.encode.plan.EnumPlan;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which member of a union a BSON value goes to, by its BSON type alone: the member whose value
 * takes that type exactly (an int32 into an {@code int}, a date into a {@code long}, an ObjectId
 * into a {@code string}...), else the first that takes it by a lossless conversion (an int32 into a
 * {@code double}); the first declared among equals. The value is then mapped by the member's rules,
 * and a value that does not fit it rejects the document: the choice never depends on the value.
 * Immutable and thread-safe once built.
 */
final class UnionChoice {

  private static final int EXACT = 2;
  private static final int CONVERTS = 1;

  private final SchemaPlan plan;

  /** Per enum, by BSON type byte: the member chosen, 0 for none; null for an enum. */
  private final byte[][] members;

  /** Per enum, what its members take, for a reject's reason; null for an enum. */
  private final String[] expected;

  UnionChoice(SchemaPlan plan) {
    this.plan = plan;
    int n = plan.enums().size();
    members = new byte[n][];
    expected = new String[n];
    for (int e = 0; e < n; e++) {
      EnumPlan u = plan.enums().get(e);
      if (!u.union()) {
        continue;
      }
      members[e] = new byte[256];
      for (int type = 0; type < 256; type++) {
        int best = 0;
        int bestRank = 0;
        for (int v = 1; v < u.members().size(); v++) {
          if (u.members().get(v) < 0) {
            continue;
          }
          int r = rankOfTable(u.members().get(v), (byte) type, new HashSet<>());
          if (r > bestRank) {
            best = v;
            bestRank = r;
          }
        }
        members[e][type] = (byte) best;
      }
      List<String> names = new ArrayList<>();
      for (int v = 1; v < u.members().size(); v++) {
        if (u.members().get(v) >= 0) {
          names.add(u.nameOf(v));
        }
      }
      expected[e] =
          "a value one of " + String.join(", ", names) + " takes (union " + simple(u) + ")";
    }
  }

  /**
   * The member of union {@code enumIndex} that a value of BSON type {@code type} goes to; 0: none.
   */
  int member(int enumIndex, byte type) {
    return members[enumIndex][type & 0xff];
  }

  /** What the members of union {@code enumIndex} take, as a reject's reason says it. */
  String expected(int enumIndex) {
    return expected[enumIndex];
  }

  /**
   * How well field {@code f} takes a value of BSON type {@code type}: 2 exactly, 1 by a lossless
   * conversion, 0 not at all.
   */
  int rank(FieldPlan f, byte type) {
    return rank(f, type, new HashSet<>());
  }

  /** How well the wrapper table {@code index} takes a value of BSON type {@code type}. */
  private int rankOfTable(int index, byte type, Set<Integer> seen) {
    TablePlan t = plan.tables().get(index);
    if (!seen.add(index)) {
      return 0; // a wrapper of itself takes nothing more
    }
    int r = t.wrapper() ? rank(t.wrapped(), type, seen) : type == Bson.DOCUMENT ? EXACT : 0;
    seen.remove(index);
    return r;
  }

  /** How well field {@code f} takes a value of BSON type {@code type}, by the mapping rules. */
  private int rank(FieldPlan f, byte type, Set<Integer> seen) {
    FieldKind kind = f.kind();
    if (kind.isScalar() && f.enumIndex() >= 0) { // an enum: a name or a declared number
      return type == Bson.STRING || type == Bson.INT32 || type == Bson.INT64 ? CONVERTS : 0;
    }
    return switch (kind) {
      case BOOL -> type == Bson.BOOLEAN ? EXACT : 0;
      case BYTE, UBYTE, SHORT, USHORT, INT, UINT, LONG, ULONG -> integer(kind, type);
      case FLOAT -> type == Bson.DOUBLE || type == Bson.INT32 || type == Bson.INT64 ? CONVERTS : 0;
      case DOUBLE ->
          type == Bson.DOUBLE ? EXACT : type == Bson.INT32 || type == Bson.INT64 ? CONVERTS : 0;
      case STRING ->
          type == Bson.STRING || type == Bson.OBJECT_ID || type == Bson.DECIMAL128
              ? EXACT
              : type == Bson.BINARY ? CONVERTS : 0;
      case STRUCT -> type == Bson.DOCUMENT ? EXACT : 0;
      case TABLE -> rankOfTable(f.typeIndex(), type, seen);
      case VECTOR -> vector(f, type);
      case UNION -> {
        EnumPlan u = plan.enums().get(f.enumIndex());
        int best = 0;
        for (int v = 1; v < u.members().size(); v++) {
          if (u.members().get(v) >= 0) {
            best = Math.max(best, rankOfTable(u.members().get(v), type, seen));
          }
        }
        yield best;
      }
    };
  }

  private static int integer(FieldKind kind, byte type) {
    return switch (type) {
      case Bson.INT32 -> kind == FieldKind.INT ? EXACT : CONVERTS;
      case Bson.INT64 -> kind == FieldKind.LONG ? EXACT : CONVERTS;
      case Bson.DOUBLE -> CONVERTS;
      case Bson.DATE_TIME -> kind == FieldKind.LONG ? EXACT : 0;
      case Bson.TIMESTAMP -> kind == FieldKind.ULONG ? EXACT : 0;
      default -> 0;
    };
  }

  private static int vector(FieldPlan f, byte type) {
    if (f.map()) {
      return type == Bson.DOCUMENT ? EXACT : 0;
    }
    boolean bytes = f.element() == FieldKind.UBYTE && f.enumIndex() < 0;
    return switch (type) {
      case Bson.ARRAY -> EXACT;
      case Bson.BINARY -> bytes ? EXACT : 0;
      case Bson.OBJECT_ID -> bytes ? CONVERTS : 0;
      default -> 0;
    };
  }

  private static String simple(EnumPlan u) {
    return u.name().substring(u.name().lastIndexOf('.') + 1);
  }
}
