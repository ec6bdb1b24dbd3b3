package dev.flatdump.artifact.check;

import dev.flatdump.encode.plan.EnumPlan;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.util.HashSet;
import java.util.Set;
import org.bson.BsonType;

/**
 * Which member of a union a BSON value goes to, for {@code verify}'s oracle, written from the words
 * of {@code docs/mapping.md}'s union row, not from the engine's code: the member whose value takes
 * the value's BSON type exactly (int32 an {@code int}, int64 a {@code long}, double a {@code
 * double}, string, ObjectId and decimal128 a {@code string}, bool a {@code bool}, date a {@code
 * long}, timestamp a {@code ulong}, document a table, struct or {@code (map)}, array a vector,
 * binary a {@code [ubyte]}), else the first declared that takes it by one of the lossless
 * conversions of the other rows; the first declared among equals. A member's value that is itself a
 * {@code (wrapper)} or a union takes what its value or its members take. Stateless; thread-safe.
 */
final class UnionMembers {

  private static final int NONE = 0;
  private static final int CONVERTS = 1;
  private static final int EXACT = 2;

  private final SchemaPlan plan;

  UnionMembers(SchemaPlan plan) {
    this.plan = plan;
  }

  /** The member (its value in the union) that a value of {@code type} goes to; 0 when none. */
  int member(EnumPlan union, BsonType type) {
    int chosen = 0;
    int best = NONE;
    for (int v = 1; v < union.members().size(); v++) {
      int table = union.members().get(v);
      if (table >= 0) {
        int how = table(table, type, new HashSet<>());
        if (how > best) {
          best = how;
          chosen = v;
        }
      }
    }
    return chosen;
  }

  /**
   * Of several fields of a table that read one BSON name (by id), the first whose type takes a
   * value of {@code type} (docs/mapping.md's "Names", for a value that is not a scalar or a
   * string); the first when none takes it (it rejects the value).
   */
  FieldPlan field(java.util.List<FieldPlan> sameName, BsonType type) {
    for (FieldPlan f : sameName) {
      if (field(f, type, new HashSet<>()) > NONE) {
        return f;
      }
    }
    return sameName.get(0);
  }

  /** Whether field {@code f} takes a value of {@code type} at all, by type. */
  boolean takes(FieldPlan f, BsonType type) {
    return field(f, type, new HashSet<>()) > NONE;
  }

  /** How the table of plan index {@code index} takes a value of {@code type}. */
  private int table(int index, BsonType type, Set<Integer> open) {
    TablePlan t = plan.tables().get(index);
    if (!t.wrapper()) {
      return type == BsonType.DOCUMENT ? EXACT : NONE;
    }
    if (!open.add(index)) {
      return NONE; // a wrapper that holds itself holds nothing else
    }
    int how = field(t.wrapped(), type, open);
    open.remove(index);
    return how;
  }

  private int field(FieldPlan f, BsonType type, Set<Integer> open) {
    FieldKind kind = f.kind();
    if (kind.isScalar() && f.enumIndex() >= 0) { // an enum: a name or a declared number
      return type == BsonType.STRING || type == BsonType.INT32 || type == BsonType.INT64
          ? CONVERTS
          : NONE;
    }
    switch (kind) {
      case BOOL:
        return type == BsonType.BOOLEAN ? EXACT : NONE;
      case FLOAT:
        return number(type) ? CONVERTS : NONE;
      case DOUBLE:
        return type == BsonType.DOUBLE ? EXACT : number(type) ? CONVERTS : NONE;
      case STRING:
        if (type == BsonType.STRING || type == BsonType.OBJECT_ID || type == BsonType.DECIMAL128) {
          return EXACT;
        }
        return type == BsonType.BINARY ? CONVERTS : NONE; // a UUID
      case STRUCT:
        return type == BsonType.DOCUMENT ? EXACT : NONE;
      case TABLE:
        return table(f.typeIndex(), type, open);
      case UNION:
        EnumPlan u = plan.enums().get(f.enumIndex());
        int best = NONE;
        for (int v = 1; v < u.members().size(); v++) {
          if (u.members().get(v) >= 0) {
            best = Math.max(best, table(u.members().get(v), type, open));
          }
        }
        return best;
      case VECTOR:
        return vector(f, type);
      default:
        return integer(kind, type);
    }
  }

  private static boolean number(BsonType type) {
    return type == BsonType.DOUBLE || type == BsonType.INT32 || type == BsonType.INT64;
  }

  private static int integer(FieldKind kind, BsonType type) {
    boolean exact =
        type == BsonType.INT32 && kind == FieldKind.INT
            || type == BsonType.INT64 && kind == FieldKind.LONG
            || type == BsonType.DATE_TIME && kind == FieldKind.LONG
            || type == BsonType.TIMESTAMP && kind == FieldKind.ULONG;
    if (exact) {
      return EXACT;
    }
    return number(type) ? CONVERTS : NONE;
  }

  private static int vector(FieldPlan f, BsonType type) {
    if (f.map()) {
      return type == BsonType.DOCUMENT ? EXACT : NONE;
    }
    boolean bytes = f.element() == FieldKind.UBYTE && f.enumIndex() < 0;
    if (type == BsonType.ARRAY || bytes && type == BsonType.BINARY) {
      return EXACT;
    }
    return bytes && type == BsonType.OBJECT_ID ? CONVERTS : NONE;
  }
}
