package dev.flatdump.encode;

import dev.flatdump.Attr;
import dev.flatdump.Org;
import dev.flatdump.OrgType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/** Orgs for encoder tests: edge values, repetitive data that de-dup can shrink, and random data. */
final class OrgFixtures {

  private OrgFixtures() {}

  /** Every combination of the three de-dup switches. */
  static Stream<DedupOptions> allDedupOptions() {
    var all = Stream.<DedupOptions>builder();
    for (int bits = 0; bits < 8; bits++) {
      all.add(new DedupOptions((bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0));
    }
    return all.build();
  }

  /** Empty strings and lists, extreme scalars, special doubles, non-ASCII text. */
  static List<Org> edgeCases() {
    return List.of(
        new Org("", "", "", OrgType.FOO, List.of()),
        new Org(
            "Ñandú 日本 😀 \uD834\uDD1E",
            "cat\u0000egory",
            "🇪🇸",
            OrgType.BAR,
            List.of(
                new Attr("", (byte) 0, (byte) 0, (short) 0, 0.0, false),
                new Attr("neg-zero", (byte) 0, (byte) 0, (short) 0, -0.0, false),
                new Attr("nan", Byte.MIN_VALUE, Byte.MAX_VALUE, Short.MIN_VALUE, Double.NaN, true),
                new Attr(
                    "+inf",
                    Byte.MAX_VALUE,
                    Byte.MIN_VALUE,
                    Short.MAX_VALUE,
                    Double.POSITIVE_INFINITY,
                    true),
                new Attr("-inf", (byte) -1, (byte) 1, (short) -1, Double.NEGATIVE_INFINITY, false),
                new Attr("tiny", (byte) 1, (byte) -1, (short) 1, Double.MIN_VALUE, true),
                new Attr("huge", (byte) 2, (byte) 3, (short) 4, -Double.MAX_VALUE, false),
                new Attr("😀", (byte) 5, (byte) 6, (short) 7, 12.345678901234567, true))),
        new Org(
            "same",
            "same",
            "same",
            OrgType.BAZ,
            List.of(new Attr("same", (byte) 1, (byte) 1, (short) 1, 1.0, true))));
  }

  /**
   * Orgs built from small pools, so that strings, attributes and whole attribute lists repeat: what
   * de-dup is for.
   */
  static List<Org> repetitive(int count, long seed) {
    var random = new Random(seed);
    String[] ids = {"color", "weight", "height", "depth", "material"};
    var attrs = new ArrayList<Attr>();
    for (String id : ids) {
      for (int v = 0; v < 4; v++) {
        attrs.add(new Attr(id, (byte) v, (byte) (v * 3), (short) (v * 100), v * 0.25, v % 2 == 0));
      }
    }
    var lists = new ArrayList<List<Attr>>();
    for (int i = 0; i < 12; i++) {
      lists.add(pick(random, attrs, random.nextInt(8)));
    }
    String[] names = {"Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay"};
    String[] categories = {"tools", "food", "software", "chemicals"};
    String[] countries = {"ES", "FR", "DE", "US", "JP"};
    var orgs = new ArrayList<Org>(count);
    for (int i = 0; i < count; i++) {
      orgs.add(
          new Org(
              names[random.nextInt(names.length)],
              categories[random.nextInt(categories.length)],
              countries[random.nextInt(countries.length)],
              OrgType.values()[random.nextInt(3)],
              lists.get(random.nextInt(lists.size()))));
    }
    return orgs;
  }

  /** Orgs whose values are mostly unique. */
  static List<Org> random(int count, long seed) {
    var random = new Random(seed);
    var orgs = new ArrayList<Org>(count);
    for (int i = 0; i < count; i++) {
      var attrs = new ArrayList<Attr>();
      for (int a = random.nextInt(10); a > 0; a--) {
        attrs.add(
            new Attr(
                "id-" + random.nextInt(1000),
                (byte) random.nextInt(),
                (byte) random.nextInt(),
                (short) random.nextInt(),
                random.nextDouble() * 200 - 100,
                random.nextBoolean()));
      }
      orgs.add(
          new Org(
              "org-" + random.nextInt(),
              "category-" + random.nextInt(50),
              "country-" + random.nextInt(200),
              OrgType.values()[random.nextInt(3)],
              attrs));
    }
    return orgs;
  }

  /** Edge cases, then repetitive, then random orgs. */
  static List<Org> mixed() {
    var orgs = new ArrayList<>(edgeCases());
    orgs.addAll(repetitive(300, 1));
    orgs.addAll(random(300, 2));
    return orgs;
  }

  private static List<Attr> pick(Random random, List<Attr> pool, int size) {
    var picked = new ArrayList<Attr>(size);
    for (int i = 0; i < size; i++) {
      picked.add(pool.get(random.nextInt(pool.size())));
    }
    return picked;
  }
}
