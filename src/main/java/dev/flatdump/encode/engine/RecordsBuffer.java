package dev.flatdump.encode.engine;

import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.SchemaPlan;
import java.nio.ByteBuffer;

/**
 * Where things are in a FlatBuffer: the one place that follows a table's vtable to a field, reads a
 * string or an integer of a kind, and finds a shard's records vector. For the engine's key order
 * and for the readers of an export (its JSON, its de-dup audit, its protobuf baseline, the
 * verifier's records). The buffer is little-endian and its offsets are trusted: a shard read from a
 * file has passed the structural check first. Static.
 */
public final class RecordsBuffer {

  private RecordsBuffer() {}

  /** The records vector's position in {@code bb}, or 0 when the root does not have it. */
  public static int recordsVector(ByteBuffer bb, SchemaPlan plan) {
    int start = bb.position();
    int root = start + bb.getInt(start);
    int field = fieldPosition(bb, root, plan.records().slot());
    return field == 0 ? 0 : field + bb.getInt(field);
  }

  /** The string whose offset lies at {@code p}. */
  public static String string(ByteBuffer bb, int p) {
    int s = p + bb.getInt(p);
    byte[] bytes = new byte[bb.getInt(s)];
    bb.get(s + 4, bytes);
    return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
  }

  /** Where the field of vtable offset {@code slot} lies in the table at {@code table}, or 0. */
  public static int fieldPosition(ByteBuffer bb, int table, int slot) {
    int vtable = table - bb.getInt(table);
    int vtableSize = bb.getShort(vtable) & 0xffff;
    if (slot >= vtableSize) {
      return 0;
    }
    int offset = bb.getShort(vtable + slot) & 0xffff;
    return offset == 0 ? 0 : table + offset;
  }

  /** The integer (or bool) of kind {@code kind} at {@code p}: signed kinds sign-extended. */
  public static long integer(ByteBuffer bb, FieldKind kind, int p) {
    return switch (kind) {
      case BOOL, UBYTE -> bb.get(p) & 0xffL;
      case BYTE -> bb.get(p);
      case SHORT -> bb.getShort(p);
      case USHORT -> bb.getShort(p) & 0xffffL;
      case INT -> bb.getInt(p);
      case UINT -> bb.getInt(p) & 0xffff_ffffL;
      case LONG, ULONG -> bb.getLong(p);
      default -> throw new IllegalStateException("not an integer: " + kind);
    };
  }
}
