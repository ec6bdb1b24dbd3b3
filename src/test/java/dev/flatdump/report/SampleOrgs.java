package dev.flatdump.report;

import dev.flatdump.bench.samples.Attr;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Generated orgs as repetitive as real data: few categories, countries and attribute values. */
final class SampleOrgs {

  private static final String[] CATEGORIES = {"retail", "banking", "logistics", "health", "energy"};
  private static final String[] COUNTRIES = {"Spain", "France", "Germany", "Italy"};

  private SampleOrgs() {}

  /** {@code count} orgs from a fixed seed: the same list on every call. */
  static List<Org> repetitive(int count) {
    var random = new Random(42);
    List<Org> orgs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      List<Attr> attributes = new ArrayList<>();
      int attrs = random.nextInt(8);
      for (int a = 0; a < attrs; a++) {
        int v = random.nextInt(20);
        attributes.add(
            new Attr(
                "attr-" + v, (byte) v, (byte) (v % 3), (short) (v * 100), v / 4.0, v % 2 == 0));
      }
      orgs.add(
          new Org(
              "Organization " + i,
              CATEGORIES[random.nextInt(CATEGORIES.length)],
              COUNTRIES[random.nextInt(COUNTRIES.length)],
              OrgType.values()[random.nextInt(OrgType.values().length)],
              attributes));
    }
    return orgs;
  }
}
