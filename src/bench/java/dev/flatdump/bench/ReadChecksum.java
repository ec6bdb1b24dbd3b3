package dev.flatdump.bench;

import dev.flatdump.bench.samples.Attr;
import dev.flatdump.bench.samples.Org;
import java.util.List;

/**
 * An order-sensitive checksum over the values a benchmark reads. Strings count by their length:
 * reading it forces the string to be decoded, and hashing every character would add a cost that the
 * articles' reads did not have. Every codec feeds the same values in the same order, so equal data
 * gives equal checksums. Not thread-safe.
 */
final class ReadChecksum {

  private long value = 17;

  void string(String s) {
    value = value * 31 + s.length();
  }

  void number(long n) {
    value = value * 31 + n;
  }

  void real(double d) {
    value = value * 31 + Double.doubleToLongBits(d);
  }

  long value() {
    return value;
  }

  /** What a "some" read of the records sees: the name and the attribute ids. */
  static long some(List<Org> orgs) {
    var sum = new ReadChecksum();
    for (Org org : orgs) {
      sum.string(org.name());
      for (Attr attr : org.attributes()) {
        sum.string(attr.id());
      }
    }
    return sum.value();
  }

  /** What an "all" read of the records sees: every field, in schema order. */
  static long all(List<Org> orgs) {
    var sum = new ReadChecksum();
    for (Org org : orgs) {
      sum.string(org.name());
      sum.string(org.category());
      sum.number(org.type().ordinal());
      sum.string(org.country());
      for (Attr attr : org.attributes()) {
        sum.attribute(
            attr.id(), attr.quantity(), attr.amount(), attr.size(), attr.percent(), attr.active());
      }
    }
    return sum.value();
  }

  void attribute(String id, int quantity, int amount, int size, double percent, boolean active) {
    string(id);
    number(quantity);
    number(amount);
    number(size);
    real(percent);
    number(active ? 1 : 0);
  }
}
