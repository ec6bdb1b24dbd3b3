package dev.flatdump.bench.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class OrgGeneratorTest {

  private static List<Org> generate(Profile profile, long seed, int count) {
    return new OrgGenerator(profile, seed).stream().limit(count).toList();
  }

  private static List<Attr> attributes(List<Org> orgs) {
    return orgs.stream().flatMap(o -> o.attributes().stream()).toList();
  }

  @Nested
  class Determinism {

    @ParameterizedTest
    @EnumSource(Profile.class)
    void sameSeedGivesSameOrganizations(Profile profile) {
      assertThat(generate(profile, 42, 200)).isEqualTo(generate(profile, 42, 200));
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void differentSeedsGiveDifferentOrganizations(Profile profile) {
      List<Org> a = generate(profile, 42, 50);
      List<Org> b = generate(profile, 43, 50);

      for (int i = 0; i < a.size(); i++) {
        assertThat(a.get(i)).isNotEqualTo(b.get(i));
      }
    }

    @Test
    void iteratorAndStreamAgree() {
      var generator = new OrgGenerator(Profile.ARTICLE, 7);
      var first = List.of(generator.next(), generator.next());

      assertThat(generator.hasNext()).isTrue();
      assertThat(first).isEqualTo(generate(Profile.ARTICLE, 7, 2));
    }

    @Test
    void idsDependOnSeedAndIndexOnly() {
      var generator = new OrgGenerator(Profile.REALISTIC, 42);

      assertThat(generator.idOf(5)).isEqualTo(OrgGenerator.objectId(42, 5));
      assertThat(generator.idOf(5)).isEqualTo(new OrgGenerator(Profile.ARTICLE, 42).idOf(5));
      assertThat(generator.idOf(5)).isNotEqualTo(OrgGenerator.objectId(43, 5));
      assertThat(generator.idOf(0).getTimestamp()).isEqualTo(1_704_067_200);
    }

    @Test
    void idsAreDistinctAndAscendWithTheIndex() {
      List<ObjectId> ids =
          LongStream.of(0, 1, 2, 255, 256, 65_536, 1L << 32, (1L << 40) - 1)
              .mapToObj(i -> OrgGenerator.objectId(42, i))
              .toList();

      assertThat(ids).doesNotHaveDuplicates().isSorted();
      assertThatThrownBy(() -> OrgGenerator.objectId(42, 1L << 40))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> OrgGenerator.objectId(42, -1))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Nested
  class BothProfiles {

    @ParameterizedTest
    @EnumSource(Profile.class)
    void drawsDistinctIdsFromAPoolOf400(Profile profile) {
      Set<Integer> counts = new HashSet<>();
      Set<String> used = new HashSet<>();

      for (Org org : generate(profile, 1, 2_000)) {
        List<String> ids = org.attributes().stream().map(Attr::id).toList();
        assertThat(new HashSet<>(ids)).as("distinct ids").hasSize(ids.size());
        counts.add(ids.size());
        used.addAll(ids);
      }

      assertThat(counts).allSatisfy(c -> assertThat(c).isBetween(40, 69)).contains(40, 69);
      assertThat(used).hasSize(OrgGenerator.ID_POOL_SIZE);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void namesAreMostlyUnique(Profile profile) {
      List<Org> orgs = generate(profile, 3, 3_000);

      long distinct = orgs.stream().map(Org::name).distinct().count();

      assertThat(distinct).isGreaterThan(2_950);
    }
  }

  @Nested
  class Article {

    private final List<Org> orgs = generate(Profile.ARTICLE, 42, 2_000);

    @Test
    void idsAreShapedLikeTheArticlesImeiDashEan8() {
      Set<String> ids =
          attributes(orgs).stream().map(Attr::id).collect(Collectors.toCollection(HashSet::new));

      assertThat(ids).hasSize(OrgGenerator.ID_POOL_SIZE);
      assertThat(ids)
          .allSatisfy(
              id -> {
                assertThat(id).hasSize(OrgGenerator.ARTICLE_ID_LENGTH).matches("\\d{15}-\\d{8}");
                assertThat(luhnValid(id.substring(0, 15))).as("Luhn: " + id).isTrue();
                assertThat(ean8Valid(id.substring(16))).as("EAN-8: " + id).isTrue();
              });
      assertThat(ids)
          .doesNotContainAnyElementsOf(
              attributes(generate(Profile.ARTICLE, 43, 20)).stream().map(Attr::id).toList());
    }

    @Test
    void checkDigitValidatorsAcceptKnownNumbersAndRejectAChangedDigit() {
      // The IMEI example of the Luhn algorithm's usual references, and an EAN-8 from GS1's
      // examples.
      assertThat(luhnValid("490154203237518")).isTrue();
      assertThat(luhnValid("490154203237517")).isFalse();
      assertThat(luhnValid("490154203237581")).isFalse();
      assertThat(ean8Valid("96385074")).isTrue();
      assertThat(ean8Valid("96385075")).isFalse();
    }

    @Test
    void almostNeverRepeatsAttributeTuples() {
      List<Attr> all = attributes(orgs);

      assertThat(new HashSet<>(all).size()).isGreaterThan((int) (all.size() * 0.999));
    }

    @Test
    void drawsValuesAsTheArticlesGenerator() {
      List<Attr> all = attributes(orgs);

      assertThat(all.stream().map(Attr::quantity).collect(Collectors.toSet()))
          .hasSize(128)
          .allSatisfy(q -> assertThat(q).isBetween((byte) 0, (byte) 127));
      assertThat(all.stream().map(Attr::amount).collect(Collectors.toSet()))
          .hasSize(128)
          .allSatisfy(a -> assertThat(a).isBetween((byte) 0, (byte) 127));
      assertThat(all.stream().mapToInt(Attr::size).min().getAsInt()).isLessThan(-32_000);
      assertThat(all.stream().mapToInt(Attr::size).max().getAsInt()).isGreaterThan(32_000);
      assertThat(all).allSatisfy(a -> assertThat(a.percent()).isBetween(0.0, 100.0));
      assertThat(all.stream().filter(Attr::active).count())
          .isBetween(all.size() * 45 / 100L, all.size() * 55 / 100L);
    }

    @Test
    void drawsCategoriesCountriesAndTypesUniformly() {
      assertThat(orgs.stream().map(Org::category).distinct().count())
          .isEqualTo(Vocabulary.CATEGORIES.length);
      assertThat(orgs.stream().map(Org::country).distinct().count()).isGreaterThan(240);
      Map<OrgType, Long> types =
          orgs.stream().collect(Collectors.groupingBy(Org::type, Collectors.counting()));
      assertThat(types.values()).allSatisfy(n -> assertThat(n).isBetween(560L, 780L));
    }
  }

  @Nested
  class Realistic {

    private final List<Org> orgs = generate(Profile.REALISTIC, 42, 2_000);

    @Test
    void idsAreAttr000ToAttr399() {
      Set<String> pool = new HashSet<>();
      for (int i = 0; i < OrgGenerator.ID_POOL_SIZE; i++) {
        pool.add(String.format("attr_%03d", i));
      }

      assertThat(attributes(orgs).stream().map(Attr::id).collect(Collectors.toSet()))
          .isEqualTo(pool);
    }

    @Test
    void repeatsAttributeTuples() {
      List<Attr> all = attributes(orgs);

      // ~90% of ~108K attributes come from at most 1,600 typical tuples; the rest are random.
      assertThat(new HashSet<>(all).size()).isLessThan(all.size() / 6);
    }

    @Test
    void mostlyUsesOneToFourTypicalTuplesPerId() {
      Map<String, Map<Attr, Long>> byId =
          attributes(orgs).stream()
              .collect(
                  Collectors.groupingBy(
                      Attr::id, Collectors.groupingBy(Function.identity(), Collectors.counting())));

      assertThat(byId).hasSize(OrgGenerator.ID_POOL_SIZE);
      byId.forEach(
          (id, tuples) -> {
            long total = tuples.values().stream().mapToLong(Long::longValue).sum();
            long typical =
                tuples.values().stream().filter(n -> n > 1).mapToLong(Long::longValue).sum();
            long kinds = tuples.values().stream().filter(n -> n > 1).count();
            assertThat(kinds).as(id).isBetween(1L, 4L);
            assertThat(typical).as(id).isGreaterThan(total * 8 / 10);
          });
    }

    @Test
    void skewsCategoriesCountriesAndTypes() {
      long commonCategories =
          orgs.stream()
              .map(Org::category)
              .filter(c -> List.of(Vocabulary.CATEGORIES).indexOf(c) < Vocabulary.COMMON_CATEGORIES)
              .count();
      long commonCountries =
          orgs.stream()
              .map(Org::country)
              .filter(c -> List.of(Vocabulary.COUNTRIES).indexOf(c) < Vocabulary.COMMON_COUNTRIES)
              .count();
      Map<OrgType, Long> types =
          orgs.stream().collect(Collectors.groupingBy(Org::type, Collectors.counting()));

      assertThat(commonCategories).isBetween(1_560L, 1_800L); // 0.8 + 0.2 * 8/36 ≈ 84%
      assertThat(commonCountries).isBetween(1_360L, 1_560L); // 0.7 + 0.3 * 15/249 ≈ 72%
      assertThat(types.get(OrgType.FOO)).isGreaterThan(types.get(OrgType.BAR));
      assertThat(types.get(OrgType.BAR)).isGreaterThan(types.get(OrgType.BAZ));
    }
  }

  /** Luhn: from the right, every second digit doubled (less 9 when over 9); the sum ends in 0. */
  private static boolean luhnValid(String digits) {
    int sum = 0;
    for (int i = 0; i < digits.length(); i++) {
      int d = digits.charAt(digits.length() - 1 - i) - '0';
      int w = i % 2 == 1 ? 2 * d : d;
      sum += w > 9 ? w - 9 : w;
    }
    return sum % 10 == 0;
  }

  /** EAN-8: weights 3, 1, 3, 1, 3, 1, 3, 1 from the left; the sum ends in 0. */
  private static boolean ean8Valid(String digits) {
    int sum = 0;
    for (int i = 0; i < 8; i++) {
      sum += (digits.charAt(i) - '0') * (i % 2 == 0 ? 3 : 1);
    }
    return sum % 10 == 0;
  }
}
