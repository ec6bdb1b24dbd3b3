package dev.flatdump.artifact.read;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import dev.flatdump.encode.engine.RecordsBuffer;
import dev.flatdump.encode.plan.EnumPlan;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The records of a shard written as protobuf, onto a protobuf twin of the schema ({@link
 * ProtobufTwin} derives one from any schema; a user's own {@code .proto} maps too): a message named
 * as the root table, whose field named as the records field repeats the record's twin, and for each
 * table or struct a message with a field of the same name for each of its fields. The output of one
 * export is that root message, written one record at a time, byte for byte as protobuf's own
 * serializer writes it: fields in number order, proto3 defaults left out, repeated numbers packed.
 * The mapping is checked once, when built: a field with no twin, or whose values its twin cannot
 * hold, refuses the schema. A union is written as the field of its member in a {@code oneof} of its
 * name ({@link ProtobufTwin}), a {@code (wrapper)} and a {@code (map)}'s entries as the tables they
 * are. Not thread-safe: it reuses its buffers.
 */
public final class RecordProtobuf {

  private static final int VARINT = 0;
  private static final int FIXED64 = 1;
  private static final int LENGTH_DELIMITED = 2;
  private static final int FIXED32 = 5;

  private final SchemaPlan plan;
  private final int recordsNumber;
  private final Message record;
  private final List<Buf> bufs = new ArrayList<>();

  private RecordProtobuf(SchemaPlan plan, int recordsNumber, Message record) {
    this.plan = plan;
    this.recordsNumber = recordsNumber;
    this.record = record;
  }

  /**
   * The records of {@code plan} onto its twin derived from the schema ({@link ProtobufTwin}).
   *
   * @throws IllegalArgumentException when the schema has no twin; the message names the field
   */
  public static RecordProtobuf of(SchemaPlan plan) {
    return of(plan, ProtobufTwin.of(plan));
  }

  /**
   * The records of {@code plan} onto the messages of {@code proto}.
   *
   * @throws IllegalArgumentException when the schema does not map onto them; the message says where
   */
  public static RecordProtobuf of(SchemaPlan plan, FileDescriptor proto) {
    String rootName = shortName(plan.root().name());
    Descriptor root = proto.findMessageTypeByName(rootName);
    if (root == null) {
      throw new IllegalArgumentException(
          proto.getName() + " has no message " + rootName + ", the schema's root table");
    }
    FieldDescriptor records = root.findFieldByName(plan.records().name());
    if (records == null
        || !records.isRepeated()
        || records.getType() != FieldDescriptor.Type.MESSAGE) {
      throw new IllegalArgumentException(
          root.getFullName()
              + " has no repeated message field "
              + plan.records().name()
              + " for the records");
    }
    Map<String, Message> compiled = new HashMap<>();
    Message record =
        compile(
            plan,
            plan.recordIndex(),
            records.getMessageType(),
            compiled,
            rootName + "." + plan.records().name());
    return new RecordProtobuf(plan, records.getNumber(), record);
  }

  /**
   * Writes the shard's records, each as one {@code records} field of the root message; the output
   * of every shard in turn is one root message.
   */
  public void write(ByteBuffer shard, OutputStream out) throws IOException {
    ByteBuffer bb = shard.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int vector = RecordsBuffer.recordsVector(bb, plan);
    int n = vector == 0 ? 0 : bb.getInt(vector);
    for (int i = 0; i < n; i++) {
      int element = vector + 4 + 4 * i;
      Buf head = buf(0);
      Buf body = buf(1);
      body.n = 0;
      table(bb, record, element + bb.getInt(element), 1);
      head.n = 0;
      head.tag(recordsNumber, LENGTH_DELIMITED);
      head.varint(body.n);
      out.write(head.a, 0, head.n);
      out.write(body.a, 0, body.n);
    }
  }

  private Buf buf(int depth) {
    while (bufs.size() <= depth) {
      bufs.add(new Buf());
    }
    return bufs.get(depth);
  }

  /** Writes the table (or struct) at {@code at} as message {@code m} into {@code buf(depth)}. */
  private void table(ByteBuffer bb, Message m, int at, int depth) {
    Buf out = buf(depth);
    for (Field f : m.fields) {
      FieldPlan fp = f.fb;
      int p = m.struct ? at + fp.slot() : RecordsBuffer.fieldPosition(bb, at, fp.slot());
      if (f.member > 0) { // one member of a union: written when the type field names it
        int type = p == 0 ? 0 : RecordsBuffer.fieldPosition(bb, at, f.typeSlot);
        if (type != 0 && (bb.get(type) & 0xff) == f.member) {
          nested(bb, f, p + bb.getInt(p), depth);
        }
      } else if (fp.kind() == FieldKind.VECTOR) {
        if (p != 0) {
          vector(bb, f, p + bb.getInt(p), depth);
        }
      } else if (fp.kind() == FieldKind.STRING) {
        if (p != 0) {
          int s = p + bb.getInt(p);
          int length = bb.getInt(s);
          if (length > 0 || f.pb.hasPresence()) {
            out.tag(f.number, LENGTH_DELIMITED);
            out.varint(length);
            out.bytes(bb, s + 4, length);
          }
        }
      } else if (fp.kind() == FieldKind.TABLE || fp.kind() == FieldKind.STRUCT) {
        if (p != 0) {
          int child = fp.kind() == FieldKind.TABLE ? p + bb.getInt(p) : p;
          nested(bb, f, child, depth);
        }
      } else if (p != 0 || !fp.optional()) {
        scalar(bb, f, fp.kind(), p, out, p != 0 && f.pb.hasPresence(), true);
      }
    }
  }

  private void nested(ByteBuffer bb, Field f, int at, int depth) {
    Buf child = buf(depth + 1);
    child.n = 0;
    table(bb, f.message, at, depth + 1);
    Buf out = buf(depth);
    out.tag(f.number, LENGTH_DELIMITED);
    out.varint(child.n);
    out.append(child);
  }

  private void vector(ByteBuffer bb, Field f, int v, int depth) {
    int n = bb.getInt(v);
    if (n == 0) {
      return;
    }
    Buf out = buf(depth);
    FieldKind element = f.fb.element();
    int size = plan.inlineSize(f.fb, element);
    if (f.pb.getType() == FieldDescriptor.Type.BYTES) {
      out.tag(f.number, LENGTH_DELIMITED);
      out.varint(n);
      out.bytes(bb, v + 4, n);
      return;
    }
    for (int i = 0; i < n && !f.pb.isPacked(); i++) {
      int e = v + 4 + i * size;
      switch (element) {
        case STRING -> {
          int s = e + bb.getInt(e);
          int length = bb.getInt(s);
          out.tag(f.number, LENGTH_DELIMITED);
          out.varint(length);
          out.bytes(bb, s + 4, length);
        }
        case TABLE -> nested(bb, f, e + bb.getInt(e), depth);
        case STRUCT -> nested(bb, f, e, depth);
        default -> scalar(bb, f, element, e, out, true, true);
      }
    }
    if (f.pb.isPacked()) {
      Buf packed = buf(depth + 1);
      packed.n = 0;
      for (int i = 0; i < n; i++) {
        scalar(bb, f, element, v + 4 + i * size, packed, true, false);
      }
      out.tag(f.number, LENGTH_DELIMITED);
      out.varint(packed.n);
      out.append(packed);
    }
  }

  /**
   * One number: the value at {@code p}, or the field's default when {@code p} is 0. Written when
   * {@code always}, else only when it is not proto3's default (zero, with {@code -0.0} not zero);
   * with its tag when {@code tagged}.
   */
  private void scalar(
      ByteBuffer bb, Field f, FieldKind kind, int p, Buf out, boolean always, boolean tagged) {
    FieldDescriptor.Type type = f.pb.getType();
    if (type == FieldDescriptor.Type.DOUBLE || type == FieldDescriptor.Type.FLOAT) {
      double d =
          p == 0 ? f.fb.defaultReal() : kind == FieldKind.FLOAT ? bb.getFloat(p) : bb.getDouble(p);
      if (type == FieldDescriptor.Type.DOUBLE) {
        long bits = Double.doubleToRawLongBits(d);
        if (always || bits != 0) {
          out.tagIf(tagged, f.number, FIXED64);
          out.fixed64(bits);
        }
      } else {
        int bits = Float.floatToRawIntBits((float) d);
        if (always || bits != 0) {
          out.tagIf(tagged, f.number, FIXED32);
          out.fixed32(bits);
        }
      }
      return;
    }
    long v = p == 0 ? f.fb.defaultInteger() : RecordsBuffer.integer(bb, kind, p);
    if (f.enumNumbers != null) {
      v = f.enumNumbers.get(v);
    }
    if (!always && v == 0) {
      return;
    }
    switch (type) {
      case SINT32 -> {
        out.tagIf(tagged, f.number, VARINT);
        out.varint(Integer.toUnsignedLong(((int) v << 1) ^ ((int) v >> 31)));
      }
      case SINT64 -> {
        out.tagIf(tagged, f.number, VARINT);
        out.varint((v << 1) ^ (v >> 63));
      }
      case FIXED32, SFIXED32 -> {
        out.tagIf(tagged, f.number, FIXED32);
        out.fixed32((int) v);
      }
      case FIXED64, SFIXED64 -> {
        out.tagIf(tagged, f.number, FIXED64);
        out.fixed64(v);
      }
      case BOOL -> {
        out.tagIf(tagged, f.number, VARINT);
        out.varint(v != 0 ? 1 : 0);
      }
      default -> { // INT32 (sign-extended, as protobuf writes it), INT64, UINT32, UINT64, ENUM
        out.tagIf(tagged, f.number, VARINT);
        out.varint(v);
      }
    }
  }

  // ---- the mapping, checked once ----

  private static Message compile(
      SchemaPlan plan, int tableIndex, Descriptor d, Map<String, Message> compiled, String path) {
    TablePlan t = plan.tables().get(tableIndex);
    String key = tableIndex + "@" + d.getFullName();
    Message done = compiled.get(key);
    if (done != null) {
      return done;
    }
    Message m = new Message(t.struct());
    compiled.put(key, m);
    List<Field> fields = new ArrayList<>();
    for (FieldPlan f : t.fields()) {
      if (f.deprecated() || f.unionType()) {
        continue; // a union's type is its oneof's case
      }
      String where = path + "." + f.name();
      if (f.kind() == FieldKind.UNION) {
        members(plan, t, f, d, compiled, where, fields);
        continue;
      }
      FieldDescriptor pb = d.findFieldByName(f.name());
      if (pb == null) {
        throw new IllegalArgumentException(
            where + ": protobuf message " + d.getFullName() + " has no field " + f.name());
      }
      fields.add(field(plan, f, pb, compiled, where));
    }
    fields.sort(Comparator.comparingInt(x -> x.number));
    m.fields = fields.toArray(Field[]::new);
    return m;
  }

  /**
   * Union {@code f}'s members onto the fields of {@code oneof f} of {@code d}, each the field named
   * {@code f_Member} (as {@link ProtobufTwin} names it), or else the one whose name is the member's
   * in any case, with or without underscores.
   */
  private static void members(
      SchemaPlan plan,
      TablePlan t,
      FieldPlan f,
      Descriptor d,
      Map<String, Message> compiled,
      String at,
      List<Field> fields) {
    OneofDescriptor oneof =
        d.getOneofs().stream()
            .filter(o -> o.getName().equals(f.name()))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        at
                            + ": protobuf message "
                            + d.getFullName()
                            + " has no oneof "
                            + f.name()));
    EnumPlan u = plan.enums().get(f.enumIndex());
    int typeSlot = t.fields().get(f.id() - 1).slot();
    for (int v = 1; v < u.members().size(); v++) {
      if (u.members().get(v) < 0) {
        continue;
      }
      String name = u.nameOf(v);
      FieldDescriptor pb = null;
      for (FieldDescriptor c : oneof.getFields()) {
        if (c.getName().equals(f.name() + "_" + name)) {
          pb = c;
        }
      }
      for (FieldDescriptor c : oneof.getFields()) {
        if (pb == null && squashed(c.getName()).equals(squashed(name))) {
          pb = c;
        }
      }
      if (pb == null || pb.getType() != FieldDescriptor.Type.MESSAGE) {
        throw new IllegalArgumentException(
            at + ": oneof " + oneof.getFullName() + " has no message field for member " + name);
      }
      Message member =
          compile(plan, u.members().get(v), pb.getMessageType(), compiled, at + "." + name);
      fields.add(new Field(f, pb, member, null, v, typeSlot));
    }
  }

  private static String squashed(String name) {
    return name.replace("_", "").toLowerCase(java.util.Locale.ROOT);
  }

  private static Field field(
      SchemaPlan plan, FieldPlan f, FieldDescriptor pb, Map<String, Message> compiled, String at) {
    FieldDescriptor.Type type = pb.getType();
    boolean vector = f.kind() == FieldKind.VECTOR;
    FieldKind kind = vector ? f.element() : f.kind();
    if (vector
        && !pb.isRepeated()
        && type == FieldDescriptor.Type.BYTES
        && (kind == FieldKind.UBYTE || kind == FieldKind.BYTE)
        && f.enumIndex() < 0) {
      return new Field(f, pb, null, null);
    }
    if (vector != pb.isRepeated()) {
      throw mismatch(at, f, pb, vector ? "a vector needs a repeated field" : "not a vector");
    }
    return switch (kind) {
      case STRING -> {
        if (type != FieldDescriptor.Type.STRING) {
          throw mismatch(at, f, pb, "a string needs string");
        }
        yield new Field(f, pb, null, null);
      }
      case TABLE, STRUCT -> {
        if (type != FieldDescriptor.Type.MESSAGE) {
          throw mismatch(at, f, pb, "a table or struct needs a message");
        }
        yield new Field(
            f, pb, compile(plan, f.typeIndex(), pb.getMessageType(), compiled, at), null);
      }
      default -> {
        if (f.enumIndex() >= 0 && type == FieldDescriptor.Type.ENUM) {
          EnumPlan e = plan.enums().get(f.enumIndex());
          yield new Field(f, pb, null, enumNumbers(e, f, pb, at));
        }
        if (!holds(type, kind)) {
          throw mismatch(
              at,
              f,
              pb,
              f.enumIndex() >= 0
                  ? "an enum needs an enum, or an integer that holds every "
                      + kind.name().toLowerCase()
                  : "it cannot hold every " + kind.name().toLowerCase());
        }
        yield new Field(f, pb, null, null);
      }
    };
  }

  private static final Set<FieldKind> INT32 =
      Set.of(FieldKind.BYTE, FieldKind.UBYTE, FieldKind.SHORT, FieldKind.USHORT, FieldKind.INT);
  private static final Set<FieldKind> UINT32 =
      Set.of(FieldKind.UBYTE, FieldKind.USHORT, FieldKind.UINT);

  /** Whether protobuf's {@code type} holds every value of {@code kind} exactly. */
  private static boolean holds(FieldDescriptor.Type type, FieldKind kind) {
    return switch (type) {
      case BOOL -> kind == FieldKind.BOOL;
      case DOUBLE -> kind == FieldKind.DOUBLE || kind == FieldKind.FLOAT;
      case FLOAT -> kind == FieldKind.FLOAT;
      case INT32, SINT32, SFIXED32 -> INT32.contains(kind);
      case UINT32, FIXED32 -> UINT32.contains(kind);
      case INT64, SINT64, SFIXED64 ->
          INT32.contains(kind) || kind == FieldKind.UINT || kind == FieldKind.LONG;
      case UINT64, FIXED64 -> UINT32.contains(kind) || kind == FieldKind.ULONG;
      default -> false;
    };
  }

  /**
   * The protobuf number of each value of {@code e}, by name; and of field {@code f}'s default when
   * {@code e} does not declare it (a {@code bit_flags} enum's 0), by number.
   */
  private static Map<Long, Integer> enumNumbers(
      EnumPlan e, FieldPlan f, FieldDescriptor pb, String at) {
    Map<Long, Integer> numbers = new HashMap<>();
    for (var entry : e.byName().entrySet()) {
      EnumValueDescriptor v = pb.getEnumType().findValueByName(entry.getKey());
      if (v == null) {
        throw new IllegalArgumentException(
            at
                + ": protobuf enum "
                + pb.getEnumType().getFullName()
                + " has no value "
                + entry.getKey());
      }
      numbers.put(entry.getValue(), v.getNumber());
    }
    long absent = f.defaultInteger();
    if (f.kind() != FieldKind.VECTOR && !f.optional() && !numbers.containsKey(absent)) {
      EnumValueDescriptor v =
          absent == (int) absent ? pb.getEnumType().findValueByNumber((int) absent) : null;
      if (v == null) {
        throw new IllegalArgumentException(
            at
                + ": protobuf enum "
                + pb.getEnumType().getFullName()
                + " has no value numbered "
                + absent
                + ", the field's default");
      }
      numbers.put(absent, v.getNumber());
    }
    return numbers;
  }

  private static IllegalArgumentException mismatch(
      String at, FieldPlan f, FieldDescriptor pb, String why) {
    return new IllegalArgumentException(
        at
            + ": "
            + (f.kind() == FieldKind.VECTOR ? "[" + f.element() + "]" : f.kind().toString())
                .toLowerCase()
            + " cannot be written as protobuf "
            + (pb.isRepeated() ? "repeated " : "")
            + pb.getType().toString().toLowerCase()
            + " "
            + pb.getFullName()
            + " ("
            + why
            + ")");
  }

  private static String shortName(String qualified) {
    return qualified.substring(qualified.lastIndexOf('.') + 1);
  }

  /** A table's twin: its fields in protobuf number order. */
  private static final class Message {
    final boolean struct;
    Field[] fields;

    Message(boolean struct) {
      this.struct = struct;
    }
  }

  /** One field and its twin. */
  private static final class Field {
    final FieldPlan fb;
    final FieldDescriptor pb;
    final int number;
    final Message message;
    final Map<Long, Integer> enumNumbers;

    /** For a member of a union: its value in the union's type field, else 0. */
    final int member;

    /** For a member of a union: the vtable slot of the union's type field. */
    final int typeSlot;

    Field(FieldPlan fb, FieldDescriptor pb, Message message, Map<Long, Integer> enumNumbers) {
      this(fb, pb, message, enumNumbers, 0, 0);
    }

    Field(
        FieldPlan fb,
        FieldDescriptor pb,
        Message message,
        Map<Long, Integer> enumNumbers,
        int member,
        int typeSlot) {
      this.fb = fb;
      this.pb = pb;
      this.number = pb.getNumber();
      this.message = message;
      this.enumNumbers = enumNumbers;
      this.member = member;
      this.typeSlot = typeSlot;
    }
  }

  /** A growable byte buffer for one nesting depth. */
  private static final class Buf {
    byte[] a = new byte[256];
    int n;

    private void room(int more) {
      if (n + more > a.length) {
        a = Arrays.copyOf(a, Math.max(a.length * 2, n + more));
      }
    }

    void tag(int number, int wireType) {
      varint(((long) number << 3) | wireType);
    }

    void tagIf(boolean tagged, int number, int wireType) {
      if (tagged) {
        tag(number, wireType);
      }
    }

    void varint(long v) {
      room(10);
      while ((v & ~0x7FL) != 0) {
        a[n++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      a[n++] = (byte) v;
    }

    void fixed32(int v) {
      room(4);
      for (int i = 0; i < 4; i++) {
        a[n++] = (byte) (v >>> (8 * i));
      }
    }

    void fixed64(long v) {
      room(8);
      for (int i = 0; i < 8; i++) {
        a[n++] = (byte) (v >>> (8 * i));
      }
    }

    void bytes(ByteBuffer bb, int from, int length) {
      room(length);
      bb.get(from, a, n, length);
      n += length;
    }

    void append(Buf other) {
      room(other.n);
      System.arraycopy(other.a, 0, a, n, other.n);
      n += other.n;
    }
  }
}
