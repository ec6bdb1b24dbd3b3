package dev.flatdump.columnar;

import dev.flatdump.reader.BinarySchema;
import java.util.List;

/**
 * A table type's fields by id, as the writer and the reader of a copy walk them: each field's
 * vtable slot, what it holds (inline, a reference, a union's value with its type field's slot), and
 * for one column, its fields' columns, found once. Not thread-safe.
 */
final class TableFields {
  static final int INLINE = 0;
  static final int REF = 1;
  static final int UNION = 2;
  final int[] slot;
  final int[] id;
  final int[] kind;

  /** For a union's value, its type field's vtable slot. */
  final int[] typeSlot;

  final BinarySchema.Field[] field;
  private final Columns.Column[] child;

  TableFields(BinarySchema schema, int object) {
    List<BinarySchema.Field> fields = schema.objects().get(object).fields();
    int n = fields.size();
    slot = new int[n];
    id = new int[n];
    kind = new int[n];
    typeSlot = new int[n];
    field = new BinarySchema.Field[n];
    child = new Columns.Column[n];
    for (int i = 0; i < n; i++) {
      BinarySchema.Field f = fields.get(i);
      field[i] = f;
      slot[i] = f.offset();
      id[i] = f.id();
      int base = f.type().base();
      if (base == BinarySchema.UNION) {
        kind[i] = UNION;
        typeSlot[i] = Columns.field(schema, object, f.id() - 1).offset();
      } else if (base == BinarySchema.STRING
          || base == BinarySchema.VECTOR
          || (base == BinarySchema.OBJ && !schema.objects().get(f.type().index()).struct())) {
        kind[i] = REF;
      } else {
        kind[i] = INLINE;
      }
    }
  }

  /** Field {@code i}'s column under {@code parent} (not a union's: those depend on the member). */
  Columns.Column child(int i, Columns columns, Columns.Column parent) {
    Columns.Column c = child[i];
    return c != null ? c : (child[i] = columns.child(parent, id[i] + 1, 0));
  }
}
