package dev.flatdump.report;

import java.util.List;
import java.util.Objects;

/** Validation for the report's records: every message names the field and the bad value. */
final class Checks {

  private Checks() {}

  static long nonNegative(String field, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(field + " must be >= 0, was " + value);
    }
    return value;
  }

  static String notBlank(String field, String value) {
    Objects.requireNonNull(value, field + " must not be null");
    if (value.isBlank()) {
      throw new IllegalArgumentException(field + " must not be blank, was '" + value + "'");
    }
    return value;
  }

  static <T> T notNull(String field, T value) {
    return Objects.requireNonNull(value, field + " must not be null");
  }

  /** An unmodifiable copy; rejects a null list and null elements, naming the index. */
  static <T> List<T> copyOf(String field, List<T> values) {
    Objects.requireNonNull(values, field + " must not be null");
    for (int i = 0; i < values.size(); i++) {
      Objects.requireNonNull(values.get(i), field + "[" + i + "] must not be null");
    }
    return List.copyOf(values);
  }
}
