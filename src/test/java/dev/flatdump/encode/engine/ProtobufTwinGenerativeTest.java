package dev.flatdump.encode.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import dev.flatdump.artifact.read.ProtobufTwin;
import dev.flatdump.artifact.read.RecordProtobuf;
import dev.flatdump.encode.engine.MappingOracle.Scalar;
import dev.flatdump.encode.engine.RandomSchemas.Field;
import dev.flatdump.encode.engine.RandomSchemas.Kind;
import dev.flatdump.encode.engine.RandomSchemas.Schema;
import dev.flatdump.encode.engine.RandomSchemas.Type;
import dev.flatdump.encode.plan.SchemaPlan;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The protobuf baseline on random schemas ({@link RandomSchemas}) and documents ({@link
 * RandomDocuments}): each schema's twin is derived ({@link ProtobufTwin}), the engine's shard of
 * the documents is written onto it ({@link RecordProtobuf}), and protobuf itself parses the output
 * ({@link DynamicMessage}), writes it back byte for byte, and holds each record as {@link
 * BufferRecords} reads it from the shard: every field under its name, number (its id + 1) and type,
 * of the same value (strings, scalars bit for bit, enums by name and number), vectors of the same
 * length, absent and optional fields absent, and presence only where the schema has it (optional
 * scalars, tables, structs); a union as its {@code oneof}, the member its type names set and
 * holding the member table (maps and wrappers are tables and vectors of them). Replay one schema:
 * {@code -Dgenerative.seed=N}.
 */
class ProtobufTwinGenerativeTest {

  private static final long FIRST_SEED = 1_000;
  private static final int SCHEMAS = 100;
  private static final int DOCS = 40;

  @TempDir Path dir;

  @Test
  void protobufHoldsTheRecordsOfRandomSchemasOnTheirDerivedTwins() throws Exception {
    Long one = Long.getLong("generative.seed");
    List<String> failures = new ArrayList<>();
    int records = 0;
    long first = one != null ? one : FIRST_SEED;
    int schemas = one != null ? 1 : SCHEMAS;
    for (long seed = first; seed < first + schemas; seed++) {
      Schema s = RandomSchemas.generate(seed);
      try {
        records += runSchema(s, seed);
      } catch (Exception | AssertionError e) {
        failures.add("seed=" + seed + ": " + e + "\n" + s.text);
      }
    }
    System.out.println(
        schemas + " schemas, " + records + " records: " + failures.size() + " failed");
    assertThat(failures).isEmpty();
    assertThat(records).as("records written").isGreaterThan(schemas * DOCS / 4);
  }

  /** Runs one schema; returns how many records the shard holds. */
  private int runSchema(Schema s, long seed) throws Exception {
    Path fbs = Files.writeString(dir.resolve("s" + seed + ".fbs"), s.text);
    SchemaPlan plan = SchemaPlan.load(fbs);
    FileDescriptor twin = ProtobufTwin.of(plan);
    RandomDocuments generator = new RandomDocuments(s, seed * 7919);
    ShardBuilder builder = new ShardBuilder(plan, Sharing.Kinds.ALL, false, 1024);
    int accepted = 0;
    for (int i = 0; i < DOCS; i++) {
      byte[] doc = generator.next(i);
      try {
        builder.add(doc, 0, doc.length);
        accepted++;
      } catch (RejectedRecord rejected) {
        // not a record
      }
    }
    ByteBuffer shard = builder.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RecordProtobuf.of(plan, twin).write(shard, out);
    byte[] bytes = out.toByteArray();

    Descriptor root = twin.findMessageTypeByName(s.root.name);
    DynamicMessage parsed = DynamicMessage.parseFrom(root, bytes);
    assertThat(parsed.toByteArray()).as("protobuf writes it back the same").isEqualTo(bytes);
    assertThat(parsed.getUnknownFields().asMap()).as("fields of no number").isEmpty();
    FieldDescriptor recs = root.findFieldByName(s.records.name);
    assertThat(recs.getNumber()).isEqualTo(s.records.id + 1);
    List<Map<String, Object>> expected = new BufferRecords(s, shard).records();
    assertThat(expected).hasSize(accepted);
    assertThat(parsed.getRepeatedFieldCount(recs)).as("records").isEqualTo(accepted);
    for (int i = 0; i < accepted; i++) {
      DynamicMessage record = (DynamicMessage) parsed.getRepeatedField(recs, i);
      String diff = diff(s.record(), expected.get(i), record, "recs[" + i + "]");
      assertThat(diff).as("record %d", i).isNull();
    }
    return accepted;
  }

  /** The first difference between a table or struct as read from the shard and its message. */
  private static String diff(Type t, Map<String, Object> fb, DynamicMessage pb, String path) {
    Descriptor d = pb.getDescriptorForType();
    if (!pb.getUnknownFields().asMap().isEmpty()) {
      return path + ": fields of no number " + pb.getUnknownFields();
    }
    int written = 0;
    for (Field f : t.fields) {
      String at = path + "." + f.name;
      FieldDescriptor pf = d.findFieldByName(f.name);
      if (f.deprecated) {
        if (pf != null) {
          return at + ": deprecated, yet in the twin";
        }
        continue;
      }
      if (f.kind == Kind.UNION) { // a oneof of one message field per member
        var oneof =
            d.getOneofs().stream().filter(o -> o.getName().equals(f.name)).findFirst().orElse(null);
        if (oneof == null) {
          return at + ": no oneof in the twin";
        }
        written += oneof.getFieldCount();
        String d1 = union(f, fb, pb, oneof, at);
        if (d1 != null) {
          return d1;
        }
        continue;
      }
      written++;
      if (pf == null) {
        return at + ": not in the twin";
      }
      if (pf.getNumber() != f.id + 1) {
        return at + ": number " + pf.getNumber() + ", expected " + (f.id + 1);
      }
      if (pf.getType() != type(f)) {
        return at + ": " + pf.getType() + " in the twin, expected " + type(f);
      }
      boolean presence = !f.vector && (f.optional || f.kind == Kind.TABLE || f.kind == Kind.STRUCT);
      if (pf.hasPresence() != presence) {
        return at + ": " + (presence ? "no presence" : "presence") + " in the twin";
      }
      Object want = fb.get(f.name);
      String d1;
      if (f.vector) {
        d1 = vector(f, pf, want == null ? List.of() : (List<?>) want, pb, at);
      } else if (want == null || want == MappingOracle.NULL) {
        // an absent string, table or struct; an optional scalar left out
        boolean set = pf.hasPresence() ? pb.hasField(pf) : !pb.getField(pf).equals("");
        d1 = set ? at + ": absent, protobuf has " + pb.getField(pf) : null;
      } else if (pf.hasPresence() && !pb.hasField(pf)) {
        d1 = at + ": protobuf has nothing, expected " + want;
      } else {
        d1 = value(f, pf, want, pb.getField(pf), at);
      }
      if (d1 != null) {
        return d1;
      }
    }
    return d.getFields().size() == written
        ? null
        : path + ": the twin has " + d.getFields().size() + " fields, expected " + written;
  }

  /**
   * A union as its {@code oneof}: the member the shard's type names is the field set, {@code
   * x_Member}, and holds the member table; none set for {@code NONE}.
   */
  private static String union(
      Field f,
      Map<String, Object> fb,
      DynamicMessage pb,
      com.google.protobuf.Descriptors.OneofDescriptor oneof,
      String at) {
    String tag = ((MappingOracle.UnionTag) fb.get(f.name + "_type")).name();
    FieldDescriptor set = pb.getOneofFieldDescriptor(oneof);
    if (tag.equals("NONE")) {
      return set == null ? null : at + ": NONE, protobuf has " + set.getName();
    }
    if (set == null || !set.getName().equals(f.name + "_" + tag)) {
      return at + ": member " + tag + ", protobuf has " + (set == null ? "none" : set.getName());
    }
    Type member =
        f.union.members.stream().filter(m -> m.name.equals(tag)).findFirst().orElseThrow();
    @SuppressWarnings("unchecked")
    Map<String, Object> table = (Map<String, Object>) fb.get(f.name);
    return diff(member, table, (DynamicMessage) pb.getField(set), at);
  }

  /** The protobuf type of field {@code f}, by the schema model. */
  private static FieldDescriptor.Type type(Field f) {
    if (f.vector && (f.kind == Kind.UBYTE || f.kind == Kind.BYTE)) {
      return FieldDescriptor.Type.BYTES;
    }
    if (f.kind == Kind.ENUM) {
      boolean fits =
          f.en.values.stream()
              .allMatch(
                  v ->
                      (f.en.base != Kind.ULONG || v >= 0)
                          && v >= Integer.MIN_VALUE
                          && v <= Integer.MAX_VALUE);
      if (fits) {
        return FieldDescriptor.Type.ENUM;
      }
    }
    return switch (f.scalarKind()) {
      case BOOL -> FieldDescriptor.Type.BOOL;
      case BYTE, SHORT, INT -> FieldDescriptor.Type.INT32;
      case UBYTE, USHORT, UINT -> FieldDescriptor.Type.UINT32;
      case LONG -> FieldDescriptor.Type.INT64;
      case ULONG -> FieldDescriptor.Type.UINT64;
      case FLOAT -> FieldDescriptor.Type.FLOAT;
      case DOUBLE -> FieldDescriptor.Type.DOUBLE;
      case STRING -> FieldDescriptor.Type.STRING;
      default -> FieldDescriptor.Type.MESSAGE; // a table or struct
    };
  }

  private static String vector(
      Field f, FieldDescriptor pf, List<?> want, DynamicMessage pb, String at) {
    if (pf.getType() == FieldDescriptor.Type.BYTES) {
      if (f.kind != Kind.UBYTE && f.kind != Kind.BYTE) {
        return at + ": bytes for a vector of " + f.kind;
      }
      ByteString b = (ByteString) pb.getField(pf);
      if (b.size() != want.size()) {
        return at + ": " + b.size() + " bytes, expected " + want.size();
      }
      for (int i = 0; i < want.size(); i++) {
        if (b.byteAt(i) != (byte) ((Scalar) want.get(i)).bits()) {
          return at + "[" + i + "]: " + b.byteAt(i) + ", expected " + want.get(i);
        }
      }
      return null;
    }
    if (!pf.isRepeated()) {
      return at + ": not repeated";
    }
    int n = pb.getRepeatedFieldCount(pf);
    if (n != want.size()) {
      return at + ": " + n + " elements, expected " + want.size();
    }
    for (int i = 0; i < n; i++) {
      String d = value(f, pf, want.get(i), pb.getRepeatedField(pf, i), at + "[" + i + "]");
      if (d != null) {
        return d;
      }
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static String value(Field f, FieldDescriptor pf, Object want, Object got, String at) {
    if (want instanceof String w) {
      return w.equals(got) ? null : at + ": " + got + ", expected " + w;
    }
    if (want instanceof Map<?, ?> m) {
      return got instanceof DynamicMessage g
          ? diff(f.ref, (Map<String, Object>) m, g, at)
          : at + ": " + got + ", expected a message";
    }
    Scalar x = (Scalar) want;
    Kind k = x.kind();
    if (got instanceof EnumValueDescriptor e) {
      String name = x.en() == null ? null : x.en().nameOf(x.bits());
      return e.getNumber() == x.bits() && e.getName().equals(name)
          ? null
          : at
              + ": "
              + e.getName()
              + " = "
              + e.getNumber()
              + ", expected "
              + name
              + " = "
              + x.bits();
    }
    boolean same =
        switch (k) {
          case BOOL -> got.equals(x.bits() != 0);
          case FLOAT ->
              got instanceof Float g
                  && ((Float.floatToRawIntBits(g) & 0xffffffffL) == x.bits()
                      || g.isNaN() && Float.isNaN(Float.intBitsToFloat((int) x.bits())));
          case DOUBLE ->
              got instanceof Double g
                  && (Double.doubleToRawLongBits(g) == x.bits()
                      || g.isNaN() && Double.isNaN(Double.longBitsToDouble(x.bits())));
          default ->
              switch (pf.getType()) {
                case INT32 -> got instanceof Integer g && k.signed && (long) g == x.bits();
                case UINT32 ->
                    got instanceof Integer g && !k.signed && Integer.toUnsignedLong(g) == x.bits();
                case INT64 -> got instanceof Long g && k == Kind.LONG && g == x.bits();
                case UINT64 -> got instanceof Long g && k == Kind.ULONG && g == x.bits();
                default -> false;
              };
        };
    return same ? null : at + ": " + pf.getType() + " " + got + ", expected " + x;
  }
}
