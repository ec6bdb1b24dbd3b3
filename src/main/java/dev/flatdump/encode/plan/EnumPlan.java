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
 */
public record EnumPlan(
    String name, FieldKind underlying, Map<String, Long> byName, List<Long> values) {

  public EnumPlan {
    Objects.requireNonNull(name, "EnumPlan.name");
    Objects.requireNonNull(underlying, "EnumPlan.underlying");
    if (!underlying.isInteger()) {
      throw new IllegalArgumentException("EnumPlan " + name + ": underlying " + underlying);
    }
    byName = Map.copyOf(byName);
    values = values.stream().sorted().toList();
  }

  /** Whether {@code value} is one of the declared numbers. */
  public boolean declares(long value) {
    return java.util.Collections.binarySearch(values, value) >= 0;
  }
}
