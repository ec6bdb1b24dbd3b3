package dev.flatdump.testing;

import com.google.flatbuffers.Table;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the records of a shard through the classes flatc generated for its schema, and nothing
 * else: the root's {@code getRootAsX}, a field's getter {@code x()}, {@code hasX()} for an optional
 * scalar, {@code xVector()} (null when a vector is absent), {@code xLength()} and {@code x(j)}, the
 * union's {@code xType()} and {@code x(Table)} given an instance of the member's class, and {@code
 * xAsByteBuffer()} for a vector of bytes. The plan of the schema only says which of them to call.
 *
 * <p>A table or struct is read into a map from each field's name (deprecated ones have no accessor)
 * to its value: a {@link Long} for an integer or an enum (unsigned kinds as their value, a {@code
 * ulong} as its 64 bits), a {@link Double} (a float widened), a {@link Boolean}, a {@link String},
 * a {@code byte[]}, a {@link List} for a vector, a map for a table or struct, and null for what the
 * record lacks (what generated code returns null for; an optional scalar without {@code hasX()}). A
 * union's type field holds its number and the union's field the member read, or {@link
 * #UNKNOWN_MEMBER} when the type names no member. Not thread-safe.
 */
final class GeneratedRecords {

  /** A union's value whose type names no member of the union. */
  static final String UNKNOWN_MEMBER = "a value of no member";

  private final SchemaPlan plan;
  private final GeneratedJava java;
  private final Map<String, Method> methods = new HashMap<>();

  GeneratedRecords(SchemaPlan plan, GeneratedJava java) {
    this.plan = plan;
    this.java = java;
  }

  /** The root table of a shard, by the generated {@code getRootAsX(ByteBuffer)}. */
  Object root(ByteBuffer shard) {
    String name = plan.root().name();
    Class<?> root = java.type(name);
    return call(null, root, "getRootAs" + name.substring(name.lastIndexOf('.') + 1), shard);
  }

  /** How many records the shard holds: the records vector's {@code xLength()}. */
  int recordCount(Object root) {
    return (Integer) call(root, GeneratedJava.getter(plan.records().name()) + "Length");
  }

  /** Record {@code i} of the shard, read through its class's accessors. */
  Map<String, Object> record(Object root, int i) {
    Object record = call(root, GeneratedJava.getter(plan.records().name()), i);
    return table(record, plan.record());
  }

  private Map<String, Object> table(Object obj, TablePlan t) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (FieldPlan f : t.fields()) {
      if (!f.deprecated()) {
        values.put(f.name(), field(obj, t, f));
      }
    }
    return values;
  }

  private Object field(Object obj, TablePlan t, FieldPlan f) {
    String getter = GeneratedJava.getter(f.name());
    FieldKind kind = f.kind();
    if (kind.isScalar()) {
      if (!t.struct() && f.optional() && !(Boolean) call(obj, GeneratedJava.has(f.name()))) {
        return null;
      }
      return scalar(call(obj, getter), kind);
    }
    return switch (kind) {
      case STRING -> call(obj, getter);
      case STRUCT, TABLE -> {
        Object o = call(obj, getter);
        yield o == null ? null : table(o, plan.tables().get(f.typeIndex()));
      }
      case UNION -> union(obj, t, f);
      case VECTOR -> vector(obj, f);
      default -> throw new IllegalStateException("no accessor for a " + kind + ": " + f.name());
    };
  }

  /** The member its type ({@code xType()}) names, read by {@code x(Table)}. */
  private Object union(Object obj, TablePlan t, FieldPlan f) {
    FieldPlan typeField = t.fields().get(f.id() - 1);
    Object typeValue = call(obj, GeneratedJava.getter(typeField.name()));
    int type = ((Long) scalar(typeValue, typeField.kind())).intValue();
    List<Integer> members = plan.enums().get(f.enumIndex()).members();
    int member = type < members.size() ? members.get(type) : -1;
    if (member < 0) {
      Object any = call(obj, GeneratedJava.getter(f.name()), new Table());
      return any == null ? null : UNKNOWN_MEMBER;
    }
    TablePlan memberPlan = plan.tables().get(member);
    Object value = call(obj, GeneratedJava.getter(f.name()), newInstance(memberPlan.name()));
    return value == null ? null : table(value, memberPlan);
  }

  private Object vector(Object obj, FieldPlan f) {
    if (call(obj, GeneratedJava.vector(f.name())) == null) {
      return null; // absent, where xLength() would say 0
    }
    String getter = GeneratedJava.getter(f.name());
    FieldKind element = f.element();
    if ((element == FieldKind.UBYTE || element == FieldKind.BYTE) && f.enumIndex() < 0) {
      ByteBuffer bytes = (ByteBuffer) call(obj, getter + "AsByteBuffer");
      byte[] copy = new byte[bytes.remaining()];
      bytes.get(copy);
      return copy;
    }
    int n = (Integer) call(obj, getter + "Length");
    List<Object> values = new ArrayList<>(n);
    for (int j = 0; j < n; j++) {
      Object e = call(obj, getter, j);
      if (element.isScalar()) {
        values.add(scalar(e, element));
      } else if (element == FieldKind.TABLE || element == FieldKind.STRUCT) {
        values.add(e == null ? null : table(e, plan.tables().get(f.typeIndex())));
      } else {
        values.add(e);
      }
    }
    return values;
  }

  /** A scalar as generated code returns it, as a Long, Double or Boolean. */
  private static Object scalar(Object v, FieldKind kind) {
    return switch (kind) {
      case BOOL -> (Boolean) v;
      case FLOAT, DOUBLE -> ((Number) v).doubleValue();
      case UBYTE -> ((Number) v).longValue() & 0xFF;
      case USHORT -> ((Number) v).longValue() & 0xFFFF;
      case UINT -> ((Number) v).longValue() & 0xFFFF_FFFFL;
      default -> ((Number) v).longValue();
    };
  }

  private Object newInstance(String type) {
    try {
      return java.type(type).getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make a " + type, e);
    }
  }

  private Object call(Object target, String name, Object... args) {
    return call(target, target.getClass(), name, args);
  }

  private Object call(Object target, Class<?> type, String name, Object... args) {
    Method m =
        methods.computeIfAbsent(
            type.getName() + "#" + name + "/" + args.length, k -> find(type, name, args));
    try {
      return m.invoke(target, args);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(type.getName() + "." + name + " failed", e.getCause());
    }
  }

  private static Method find(Class<?> type, String name, Object... args) {
    Class<?>[] params = new Class<?>[args.length];
    for (int i = 0; i < args.length; i++) {
      params[i] =
          args[i] instanceof Integer
              ? int.class
              : args[i] instanceof Table ? Table.class : ByteBuffer.class;
    }
    try {
      return type.getMethod(name, params);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(
          "flatc generated no "
              + type.getName()
              + "."
              + name
              + Arrays.toString(params)
              + "; it has "
              + Arrays.stream(type.getMethods()).map(Method::getName).distinct().sorted().toList(),
          e);
    }
  }
}
