package dev.flatdump.encode.plan;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An enum of the schema: a value is read from its name (a BSON string) or its number (a BSON
 * integer that is one of {@link #values()}).
 *
 * @param name its fully qualified name
 * @param underlying the integer kind it is stored as
 * @param byName each value's number by its name
 * @param values the numbers it declares, in ascending order
 * @param members for a union, the index in {@link SchemaPlan#tables()} of the member table of each
 *     value (0, {@code NONE}, has -1); empty for an enum
 */
public record EnumPlan(
    String name,
    FieldKind underlying,
    Map<String, Long> byName,
    List<Long> values,
    List<Integer> members) {

  public EnumPlan {
    Objects.requireNonNull(name, "EnumPlan.name");
    Objects.requireNonNull(underlying, "EnumPlan.underlying");
    if (!underlying.isInteger()) {
      throw new IllegalArgumentException("EnumPlan " + name + ": underlying " + underlying);
    }
    byName = Map.copyOf(byName);
    values = values.stream().sorted().toList();
    members = List.copyOf(members);
  }

  /** Whether it is a union: its values name member tables. */
  public boolean union() {
    return !members.isEmpty();
  }

  /** The name of value {@code v}, or null if it declares none. */
  public String nameOf(long v) {
    for (Map.Entry<String, Long> e : byName.entrySet()) {
      if (e.getValue() == v) {
        return e.getKey();
      }
    }
    return null;
  }

  /** Whether {@code value} is one of the declared numbers. */
  public boolean declares(long value) {
    return java.util.Collections.binarySearch(values, value) >= 0;
  }
}
