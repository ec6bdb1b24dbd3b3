package dev.flatdump.artifact.read;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.OneofDescriptorProto;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import dev.flatdump.encode.plan.EnumPlan;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The protobuf twin of a schema, derived from its plan: a proto3 file, package {@value #PACKAGE},
 * that {@link RecordProtobuf} writes the records onto. Each table and struct is a message of its
 * short name (made unique when two share one; the root table keeps its own), whose fields have the
 * FlatBuffers names and are numbered by their id + 1 (a struct's by declaration order + 1), so that
 * {@code organizations.fbs} gets the numbers of {@code schemas/organizations.proto}. Deprecated
 * fields are left out; the others keep their numbers. A vector is {@code repeated} (numbers
 * packed), a {@code [ubyte]} or {@code [byte]} that is not an enum is {@code bytes}, an optional
 * scalar ({@code = null}) is proto3 {@code optional}. bool, string, float and double are
 * themselves; byte, short and int are int32; ubyte, ushort and uint uint32; long int64; ulong
 * uint64. An enum is a protobuf enum with the same numbers, nested in a message of its name (so
 * that value names of two enums never collide), with a synthetic {@code NAME_UNSPECIFIED = 0} first
 * when it declares no 0; an enum with a value outside int32 is its integer instead.
 *
 * <p>The shapes of {@code docs/mapping.md}: a {@code (wrapper)} is a message of its one field, as
 * any table. A union {@code x} is a {@code oneof x} of one message field per member, named {@code
 * x_Member}; the oneof's case says the member, so the type field {@code x_type} has no twin. The
 * first member takes {@code x_type}'s number, the second {@code x}'s, the others numbers after the
 * table's last, so that a union of two members costs no more numbers than FlatBuffers' two ids. A
 * {@code (map)} stays the {@code repeated} message of its entry table, not a protobuf {@code
 * map<string, V>}: on the wire a map is exactly a repeated message of key 1 and value 2, which the
 * entry table {@code { key: string (key); value: T; }} already is, and the entry keeps what a
 * protobuf map cannot: a value that is a vector or a union, entries in the export's key order
 * (protobuf's serializers may write a map in any order) and any ids the schema gives. Static.
 */
public final class ProtobufTwin {

  /** The package of every message of a twin. */
  public static final String PACKAGE = "flatdump";

  private ProtobufTwin() {}

  /**
   * The twin of {@code plan}.
   *
   * @throws IllegalArgumentException when a field's number would be one protobuf reserves (a table
   *     of over 18,999 fields), naming the field
   */
  public static FileDescriptor of(SchemaPlan plan) {
    List<TablePlan> tables = plan.tables();
    Set<String> taken = new HashSet<>();
    String[] messages = new String[tables.size()];
    messages[plan.rootIndex()] = unique(taken, shortName(plan.root().name()));
    for (int i = 0; i < tables.size(); i++) {
      if (messages[i] == null) {
        messages[i] = unique(taken, shortName(tables.get(i).name()));
      }
    }
    String[] enums = new String[plan.enums().size()];
    FileDescriptorProto.Builder file =
        FileDescriptorProto.newBuilder()
            .setName(fileName(plan.source()))
            .setPackage(PACKAGE)
            .setSyntax("proto3");
    for (int i = 0; i < enums.length; i++) {
      EnumPlan e = plan.enums().get(i);
      if (fitsInt32(e)) {
        String wrapper = unique(taken, shortName(e.name()));
        EnumDescriptorProto twin = enumTwin(e);
        enums[i] = "." + PACKAGE + "." + wrapper + "." + twin.getName();
        file.addMessageType(DescriptorProto.newBuilder().setName(wrapper).addEnumType(twin));
      }
    }
    for (int i = 0; i < tables.size(); i++) {
      file.addMessageType(message(plan, tables.get(i), messages[i], messages, enums));
    }
    try {
      return FileDescriptor.buildFrom(file.build(), new FileDescriptor[0]);
    } catch (DescriptorValidationException e) {
      throw new IllegalArgumentException(
          "the protobuf twin of " + plan.source() + " is not valid: " + e.getMessage(), e);
    }
  }

  private static DescriptorProto message(
      SchemaPlan plan, TablePlan t, String name, String[] messages, String[] enums) {
    DescriptorProto.Builder m = DescriptorProto.newBuilder().setName(name);
    Set<String> names = new HashSet<>();
    for (FieldPlan f : t.fields()) {
      names.add(f.name());
    }
    int after = t.fields().size() + 1; // the next number no field of the table has
    for (FieldPlan f : t.fields()) { // real oneofs first: proto3's synthetic ones come after
      if (!f.deprecated() && f.kind() == FieldKind.UNION) {
        after = union(plan, t, f, m, names, messages, after);
      }
    }
    for (FieldPlan f : t.fields()) {
      if (f.deprecated() || f.unionType() || f.kind() == FieldKind.UNION) {
        continue;
      }
      int number = f.id() + 1;
      if (number >= 19_000 && number <= 19_999) {
        throw new IllegalArgumentException(
            t.path(f)
                + ": its id "
                + f.id()
                + " would be protobuf field number "
                + number
                + ", which protobuf reserves (19000 to 19999)");
      }
      FieldDescriptorProto.Builder p =
          FieldDescriptorProto.newBuilder()
              .setName(f.name())
              .setNumber(number)
              .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL);
      boolean vector = f.kind() == FieldKind.VECTOR;
      FieldKind kind = vector ? f.element() : f.kind();
      if (vector && (kind == FieldKind.UBYTE || kind == FieldKind.BYTE) && f.enumIndex() < 0) {
        p.setType(FieldDescriptorProto.Type.TYPE_BYTES);
      } else {
        if (vector) {
          p.setLabel(FieldDescriptorProto.Label.LABEL_REPEATED);
        }
        if (kind == FieldKind.TABLE || kind == FieldKind.STRUCT) {
          p.setType(FieldDescriptorProto.Type.TYPE_MESSAGE)
              .setTypeName("." + PACKAGE + "." + messages[f.typeIndex()]);
        } else if (f.enumIndex() >= 0 && enums[f.enumIndex()] != null) {
          p.setType(FieldDescriptorProto.Type.TYPE_ENUM).setTypeName(enums[f.enumIndex()]);
        } else {
          p.setType(scalar(kind));
        }
      }
      if (f.optional() && f.kind().isScalar()) { // flatc marks strings and tables optional too
        String oneof = "_" + f.name(); // as protoc names it
        while (!names.add(oneof)) {
          oneof = "X" + oneof;
        }
        p.setProto3Optional(true).setOneofIndex(m.getOneofDeclCount());
        m.addOneofDecl(OneofDescriptorProto.newBuilder().setName(oneof));
      }
      m.addField(p);
    }
    return m.build();
  }

  private static FieldDescriptorProto.Type scalar(FieldKind kind) {
    return switch (kind) {
      case BOOL -> FieldDescriptorProto.Type.TYPE_BOOL;
      case BYTE, SHORT, INT -> FieldDescriptorProto.Type.TYPE_INT32;
      case UBYTE, USHORT, UINT -> FieldDescriptorProto.Type.TYPE_UINT32;
      case LONG -> FieldDescriptorProto.Type.TYPE_INT64;
      case ULONG -> FieldDescriptorProto.Type.TYPE_UINT64;
      case FLOAT -> FieldDescriptorProto.Type.TYPE_FLOAT;
      case DOUBLE -> FieldDescriptorProto.Type.TYPE_DOUBLE;
      case STRING -> FieldDescriptorProto.Type.TYPE_STRING;
      default -> throw new IllegalStateException("not a scalar or a string: " + kind);
    };
  }

  /**
   * Union {@code f} of table {@code t} as {@code oneof f} in {@code m}: one field per member, the
   * first numbered as the type field, the second as the union, the others from {@code after}.
   *
   * @return the next number free after them
   */
  private static int union(
      SchemaPlan plan,
      TablePlan t,
      FieldPlan f,
      DescriptorProto.Builder m,
      Set<String> names,
      String[] messages,
      int after) {
    EnumPlan u = plan.enums().get(f.enumIndex());
    int oneof = m.getOneofDeclCount();
    m.addOneofDecl(OneofDescriptorProto.newBuilder().setName(f.name()));
    int placed = 0;
    for (int v = 1; v < u.members().size(); v++) {
      int table = u.members().get(v);
      if (table < 0) {
        continue;
      }
      int number = placed == 0 ? f.id() : placed == 1 ? f.id() + 1 : after++;
      placed++;
      if (number >= 19_000 && number <= 19_999) {
        throw new IllegalArgumentException(
            t.path(f)
                + ": member "
                + u.nameOf(v)
                + " would be protobuf field number "
                + number
                + ", which protobuf reserves (19000 to 19999)");
      }
      String member = f.name() + "_" + u.nameOf(v);
      while (!names.add(member)) {
        member = member + "_";
      }
      m.addField(
          FieldDescriptorProto.newBuilder()
              .setName(member)
              .setNumber(number)
              .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL)
              .setType(FieldDescriptorProto.Type.TYPE_MESSAGE)
              .setTypeName("." + PACKAGE + "." + messages[table])
              .setOneofIndex(oneof));
    }
    return after;
  }

  /** Whether every value of {@code e} is an int32, as a protobuf enum's numbers are. */
  private static boolean fitsInt32(EnumPlan e) {
    for (long v : e.values()) {
      boolean unsignedHigh = e.underlying() == FieldKind.ULONG && v < 0;
      if (unsignedHigh || v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
        return false;
      }
    }
    return true;
  }

  /** The enum of {@code e}'s values, the one numbered 0 (declared or synthetic) first. */
  private static EnumDescriptorProto enumTwin(EnumPlan e) {
    String name = shortName(e.name());
    Map<Long, String> byValue = new TreeMap<>();
    e.byName().forEach((n, v) -> byValue.put(v, n));
    while (e.byName().containsKey(name)) {
      name = name + "_"; // the enum's name and its values share the wrapper's scope
    }
    EnumDescriptorProto.Builder twin = EnumDescriptorProto.newBuilder().setName(name);
    String zero = byValue.remove(0L);
    if (zero == null) {
      zero = shortName(e.name()).toUpperCase(Locale.ROOT) + "_UNSPECIFIED";
      while (e.byName().containsKey(zero) || zero.equals(name)) {
        zero = zero + "_";
      }
    }
    twin.addValue(EnumValueDescriptorProto.newBuilder().setName(zero).setNumber(0));
    byValue.forEach(
        (v, n) ->
            twin.addValue(
                EnumValueDescriptorProto.newBuilder().setName(n).setNumber(Math.toIntExact(v))));
    return twin.build();
  }

  private static String unique(Set<String> taken, String wanted) {
    String name = wanted;
    for (int i = 2; !taken.add(name); i++) {
      name = wanted + "_" + i;
    }
    return name;
  }

  private static String shortName(String qualified) {
    return qualified.substring(qualified.lastIndexOf('.') + 1);
  }

  /** {@code organizations.proto} for {@code schemas/organizations.fbs}. */
  private static String fileName(String source) {
    String name = source.substring(Math.max(source.lastIndexOf('/'), source.lastIndexOf('\\')) + 1);
    int dot = name.lastIndexOf('.');
    return (dot > 0 ? name.substring(0, dot) : name) + ".proto";
  }
}
