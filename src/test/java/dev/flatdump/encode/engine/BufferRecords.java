package dev.flatdump.encode.engine;

import dev.flatdump.encode.engine.MappingOracle.Scalar;
import dev.flatdump.encode.engine.RandomSchemas.Field;
import dev.flatdump.encode.engine.RandomSchemas.Kind;
import dev.flatdump.encode.engine.RandomSchemas.Schema;
import dev.flatdump.encode.engine.RandomSchemas.Type;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The records of a finished buffer read by the test's own schema model, bit for bit (where flatc's
 * JSON rounds floating-point values): the same shapes {@link MappingOracle} gives. Vtables, offsets
 * and struct layouts by the FlatBuffers format; no engine or plan code.
 */
final class BufferRecords {

  private final Schema s;
  private final ByteBuffer b;

  BufferRecords(Schema s, ByteBuffer buffer) {
    this.s = s;
    this.b = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
  }

  List<Map<String, Object>> records() {
    int root = b.position() + b.getInt(b.position());
    int at = field(root, s.records.id);
    List<Map<String, Object>> out = new ArrayList<>();
    if (at == 0) {
      return out;
    }
    int v = at + b.getInt(at);
    int n = b.getInt(v);
    for (int i = 0; i < n; i++) {
      int e = v + 4 + 4 * i;
      out.add(table(s.record(), e + b.getInt(e)));
    }
    return out;
  }

  /** Where field {@code id} of the table at {@code t} stands, or 0 when absent. */
  private int field(int t, int id) {
    int vt = t - b.getInt(t);
    int vtSize = b.getShort(vt) & 0xffff;
    int slot = 4 + 2 * id;
    if (slot >= vtSize) {
      return 0;
    }
    int o = b.getShort(vt + slot) & 0xffff;
    return o == 0 ? 0 : t + o;
  }

  private Map<String, Object> table(Type t, int at) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Field f : t.fields) {
      if (f.deprecated) {
        continue;
      }
      if (f.kind == Kind.UNION) {
        int tp = field(at, f.id - 1);
        int member = tp == 0 ? 0 : b.get(tp) & 0xff;
        out.put(f.name + "_type", new MappingOracle.UnionTag(f.union.nameOf(member)));
        int p = field(at, f.id);
        if (member != 0 && p != 0) {
          out.put(f.name, table(f.union.members.get(member - 1), p + b.getInt(p)));
        }
        continue;
      }
      int p = field(at, f.id);
      if (p == 0) {
        if (!f.vector && f.kind != Kind.STRING && f.kind != Kind.STRUCT && f.kind != Kind.TABLE) {
          out.put(
              f.name,
              f.optional ? MappingOracle.NULL : new Scalar(f.scalarKind(), f.en, f.absentBits()));
        }
        continue;
      }
      Object v;
      if (f.vector) {
        v = vector(f, p + b.getInt(p));
      } else {
        v =
            switch (f.kind) {
              case STRING -> string(p + b.getInt(p));
              case TABLE -> table(f.ref, p + b.getInt(p));
              case STRUCT -> struct(f.ref, p);
              default -> scalar(f, p);
            };
      }
      out.put(f.name, v);
    }
    return out;
  }

  private List<Object> vector(Field f, int v) {
    int n = b.getInt(v);
    List<Object> out = new ArrayList<>();
    int size =
        switch (f.kind) {
          case STRING, TABLE -> 4;
          case STRUCT -> f.ref.size;
          default -> f.scalarKind().size;
        };
    for (int i = 0; i < n; i++) {
      int e = v + 4 + size * i;
      out.add(
          switch (f.kind) {
            case STRING -> string(e + b.getInt(e));
            case TABLE -> table(f.ref, e + b.getInt(e));
            case STRUCT -> struct(f.ref, e);
            default -> scalar(f, e);
          });
    }
    return out;
  }

  private Map<String, Object> struct(Type st, int at) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Field f : st.fields) {
      out.put(
          f.name, f.kind == Kind.STRUCT ? struct(f.ref, at + f.offset) : scalar(f, at + f.offset));
    }
    return out;
  }

  private Scalar scalar(Field f, int p) {
    Kind k = f.scalarKind();
    long bits =
        switch (k.size) {
          case 1 -> k.signed ? b.get(p) : b.get(p) & 0xffL;
          case 2 -> k.signed ? b.getShort(p) : b.getShort(p) & 0xffffL;
          case 4 -> k.signed && k != Kind.FLOAT ? b.getInt(p) : b.getInt(p) & 0xffffffffL;
          default -> b.getLong(p);
        };
    return new Scalar(k, f.en, bits);
  }

  private String string(int at) {
    int n = b.getInt(at);
    byte[] bytes = new byte[n];
    b.get(at + 4, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
