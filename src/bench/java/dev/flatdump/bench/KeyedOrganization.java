package dev.flatdump.bench;

import com.google.flatbuffers.Table;
import java.nio.ByteBuffer;

/**
 * An {@code Organization} of the keyed schema ({@link KeyedOrgExport#keyedSchema}), read as flatc's
 * generated Java reads a table: {@code id} is field 0 (vtable offset 4), so {@code name}, the
 * bundled schema's field 0, is field 1 (vtable offset 6). The jar's generated {@code Organization}
 * is for the schema without {@code id}, whose offsets would be off by one field. Not thread-safe:
 * one per thread, reassigned by each lookup ({@code o::__assign}).
 */
final class KeyedOrganization extends Table {

  static final int ID_VOFFSET = 4;
  static final int NAME_VOFFSET = 6;

  KeyedOrganization __assign(int table, ByteBuffer shard) {
    __reset(table, shard);
    return this;
  }

  String id() {
    int o = __offset(ID_VOFFSET);
    return o != 0 ? __string(o + bb_pos) : null;
  }

  String name() {
    int o = __offset(NAME_VOFFSET);
    return o != 0 ? __string(o + bb_pos) : null;
  }
}
