package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.Attr;
import dev.flatdump.FlatdumpException;
import dev.flatdump.Org;
import dev.flatdump.OrgType;
import dev.flatdump.sample.OrgGenerator;
import dev.flatdump.sample.Profile;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class FlatBufferOrgsBuilderTest {

  private static final DedupOptions STRINGS_AND_ATTRIBUTES = new DedupOptions(true, true, false);
  private static final DedupOptions ATTRIBUTES_ONLY = new DedupOptions(false, true, false);

  @Nested
  class RoundTrip {

    @ParameterizedTest
    @MethodSource("dev.flatdump.encode.OrgFixtures#allDedupOptions")
    void readsBackTheOrgsItWasGiven(DedupOptions dedup) {
      List<Org> orgs = OrgFixtures.mixed();

      ByteBuffer buf = encode(orgs, dedup);

      assertThat(FlatBufferOrgs.count(buf)).isEqualTo(orgs.size());
      assertThat(readAll(buf)).containsExactlyElementsOf(orgs);
      assertThat(FlatBufferOrgs.read(buf, 1)).isEqualTo(orgs.get(1));
    }

    @ParameterizedTest
    @MethodSource("dev.flatdump.encode.OrgFixtures#allDedupOptions")
    void keepsTheSignOfZeroAndTheBitsOfNan(DedupOptions dedup) {
      var org =
          new Org(
              "n",
              "c",
              "k",
              OrgType.FOO,
              List.of(attr("p", 0.0), attr("p", -0.0), attr("p", Double.NaN)));

      List<Attr> read = FlatBufferOrgs.read(encode(List.of(org), dedup), 0).attributes();

      assertThat(read)
          .extracting(a -> Double.doubleToRawLongBits(a.percent()))
          .containsExactly(
              0L, Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(Double.NaN));
    }

    @Test
    void writesNoOrgsWhenNoneWereAdded() {
      ByteBuffer buf = new FlatBufferOrgsBuilder(DedupOptions.ALL, 16).finish();

      assertThat(FlatBufferOrgs.count(buf)).isZero();
      assertThat(FlatBufferOrgs.iterator(buf).hasNext()).isFalse();
    }
  }

  @Nested
  class Sharing {

    private final List<Org> repetitive = OrgFixtures.repetitive(2_000, 42);

    @Test
    void sharesEqualStrings() {
      var builder = build(repetitive, DedupOptions.STRINGS_ONLY);
      DedupStats.Counter strings = builder.stats().strings();
      int plain = encode(repetitive, DedupOptions.NONE).remaining();

      assertThat(strings.unique()).isLessThan(strings.total());
      assertThat(builder.finish().remaining()).isLessThan(plain);
    }

    @Test
    void sharesEqualAttributeTables() {
      var builder = build(repetitive, STRINGS_AND_ATTRIBUTES);
      DedupStats.Counter attributes = builder.stats().attributes();
      int stringsOnly = encode(repetitive, DedupOptions.STRINGS_ONLY).remaining();

      assertThat(attributes.unique()).isLessThan(attributes.total());
      assertThat(builder.finish().remaining()).isLessThan(stringsOnly);
    }

    @Test
    void sharesEqualAttributeVectors() {
      var builder = build(repetitive, DedupOptions.ALL);
      DedupStats.Counter vectors = builder.stats().vectors();
      int withoutVectors = encode(repetitive, STRINGS_AND_ATTRIBUTES).remaining();

      assertThat(vectors.unique()).isLessThan(vectors.total());
      assertThat(builder.finish().remaining()).isLessThan(withoutVectors);
    }

    @Test
    void sharesVectorsWrittenBeforeTheBufferGrew() {
      var attrs = List.of(attr("a", 0.5), attr("b", 0.25));
      var first = new Org("first", "c", "k", OrgType.FOO, attrs);
      List<Org> orgs = new ArrayList<>(List.of(first));
      for (int i = 0; i < 500; i++) {
        orgs.add(new Org("o" + i, "c", "k", OrgType.BAR, List.of(attr("x" + i, i))));
      }
      orgs.add(new Org("again", "c", "k", OrgType.BAZ, attrs));
      var builder = new FlatBufferOrgsBuilder(DedupOptions.ALL, 64); // grows many times

      orgs.forEach(builder::add);

      assertThat(builder.stats().vectors()).isEqualTo(new DedupStats.Counter(502, 501));
      assertThat(readAll(builder.finish())).containsExactlyElementsOf(orgs);
    }

    @Test
    void sharesOnlyVectorsWithTheSameTablesInTheSameOrder() {
      Attr a = attr("a", 0.5);
      Attr b = attr("b", 0.25);
      List<Org> orgs =
          List.of(
              new Org("1", "c", "k", OrgType.FOO, List.of(a, b)),
              new Org("2", "c", "k", OrgType.FOO, List.of(b, a)),
              new Org("3", "c", "k", OrgType.FOO, List.of(a)),
              new Org("4", "c", "k", OrgType.FOO, List.of(a, b, a)),
              new Org("5", "c", "k", OrgType.FOO, List.of(a, b)));
      var builder = build(orgs, DedupOptions.ALL);

      assertThat(builder.stats().vectors()).isEqualTo(new DedupStats.Counter(5, 4));
      assertThat(readAll(builder.finish())).containsExactlyElementsOf(orgs);
    }

    @Test
    void pausesAttributeSharingWhereAttributesDoNotRepeat() {
      var builder = new FlatBufferOrgsBuilder(DedupOptions.ALL, 1 << 20);
      int unique = 1 << 16; // one sampling window without a single repeat
      for (int org = 0; org < unique / 64; org++) {
        List<Attr> attrs = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
          attrs.add(attr("u" + (org * 64 + i), org * 64 + i));
        }
        builder.add(new Org("o" + org, "c", "k", OrgType.FOO, attrs));
      }
      Attr repeated = attr("r", 0.5);
      builder.add(new Org("x", "c", "k", OrgType.FOO, List.of(repeated, repeated)));

      // Paused: the repeat is written twice, and still reads back.
      assertThat(builder.stats().attributes())
          .isEqualTo(new DedupStats.Counter(unique + 2, unique + 2));
      List<Org> read = readAll(builder.finish());
      assertThat(read.get(read.size() - 1).attributes()).containsExactly(repeated, repeated);
    }

    @Test
    void keepsSharingAttributesThatRepeatPastASamplingWindow() {
      var builder = new FlatBufferOrgsBuilder(DedupOptions.ALL, 1 << 20);
      List<Attr> attrs = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        attrs.add(attr("a" + i, i));
      }
      for (int org = 0; org < 3 * (1 << 16) / 64; org++) {
        builder.add(new Org("o" + org, "c", "k", OrgType.FOO, attrs));
      }

      assertThat(builder.stats().attributes().unique()).isEqualTo(64);
    }

    @ParameterizedTest
    @MethodSource("dev.flatdump.encode.OrgFixtures#allDedupOptions")
    void writesTheSameBytesForSharedInstancesAsForDistinctCopies(DedupOptions dedup) {
      // The generator hands out one instance per distinct attribute and per pool string, as the
      // decoder's caches do; 4,000 realistic orgs have more distinct attributes than the builder
      // remembers instances, and on article data the table index pauses.
      for (Profile profile : Profile.values()) {
        List<Org> shared = new OrgGenerator(profile, 11).stream().limit(4_000).toList();
        List<Org> copies = shared.stream().map(FlatBufferOrgsBuilderTest::deepCopy).toList();

        var sharedBuilder = build(shared, dedup);
        var copiesBuilder = build(copies, dedup);

        assertThat(sharedBuilder.stats()).as(profile.name()).isEqualTo(copiesBuilder.stats());
        assertThat(sharedBuilder.finish()).as(profile.name()).isEqualTo(copiesBuilder.finish());
      }
    }

    @Test
    void sharesOneTableAmongInstancesOfAnEqualAttribute() {
      Attr a = attr("a", 0.5);
      Attr copy = attr("a", 0.5);
      Attr other = attr("a", 0.75);
      var org = new Org("n", "c", "k", OrgType.FOO, List.of(a, copy, a, other, copy, other, a));

      var builder = build(List.of(org), STRINGS_AND_ATTRIBUTES);

      assertThat(builder.stats().attributes()).isEqualTo(new DedupStats.Counter(7, 2));
      assertThat(readAll(builder.finish())).containsExactly(org);
    }

    @Test
    void sharesAttributeTablesWithoutSharedStrings() {
      int plain = encode(repetitive, DedupOptions.NONE).remaining();

      assertThat(encode(repetitive, ATTRIBUTES_ONLY).remaining()).isLessThan(plain);
    }

    @Test
    void attributesWithDifferentPercentBitsAreNotShared() {
      var org =
          new Org(
              "n", "c", "k", OrgType.FOO, List.of(attr("p", 0.0), attr("p", -0.0), attr("p", 0.0)));

      for (DedupOptions dedup : List.of(DedupOptions.ALL, ATTRIBUTES_ONLY)) {
        assertThat(build(List.of(org), dedup).stats().attributes())
            .as(dedup.toString())
            .isEqualTo(new DedupStats.Counter(3, 2));
      }
    }

    @ParameterizedTest
    @MethodSource("dev.flatdump.encode.OrgFixtures#allDedupOptions")
    void writesEverythingItWasAskedForWhenAKindIsOff(DedupOptions dedup) {
      DedupStats stats = build(repetitive, dedup).stats();

      assertThat(stats.strings().unique() == stats.strings().total()).isEqualTo(!dedup.strings());
      assertThat(stats.attributes().unique() == stats.attributes().total())
          .isEqualTo(!dedup.attributes());
      assertThat(stats.vectors().unique() == stats.vectors().total()).isEqualTo(!dedup.vectors());
    }

    @Nested
    class CountsExactly {

      // Distinct strings: color, weight, Acme, tools, ES, food, Zeta, FR (8).
      // Attributes: 6, of which a1, a2, a3 differ. Attribute lists: 4, of which 3 differ.
      private final Attr a1 = new Attr("color", (byte) 1, (byte) 2, (short) 3, 0.5, true);
      private final Attr a2 = new Attr("weight", (byte) 4, (byte) 5, (short) 6, 0.75, false);
      private final Attr a3 = new Attr("color", (byte) 9, (byte) 2, (short) 3, 0.5, true);
      private final List<Org> orgs =
          List.of(
              new Org("Acme", "tools", "ES", OrgType.FOO, List.of(a1, a2)),
              new Org("Acme", "food", "ES", OrgType.BAR, List.of(a1, a2)),
              new Org("Zeta", "tools", "FR", OrgType.BAZ, List.of()),
              new Org("ES", "tools", "FR", OrgType.FOO, List.of(a2, a3)));

      @Test
      void withEverythingShared() {
        // Ids of shared tables are never asked for: 12 org strings + ids of a1, a2, a3.
        assertThat(build(orgs, DedupOptions.ALL).stats()).isEqualTo(stats(15, 8, 6, 3, 4, 3));
      }

      @Test
      void withNothingShared() {
        assertThat(build(orgs, DedupOptions.NONE).stats()).isEqualTo(stats(18, 18, 6, 6, 4, 4));
      }

      @Test
      void withStringsShared() {
        assertThat(build(orgs, DedupOptions.STRINGS_ONLY).stats())
            .isEqualTo(stats(18, 8, 6, 6, 4, 4));
      }

      @Test
      void withAttributesShared() {
        assertThat(build(orgs, ATTRIBUTES_ONLY).stats()).isEqualTo(stats(15, 15, 6, 3, 4, 4));
      }

      @Test
      void withVectorsSharedButNotAttributesOnlyEmptyListsAreEqual() {
        var emptyTwice = new ArrayList<>(orgs);
        emptyTwice.add(orgs.get(2));

        assertThat(build(emptyTwice, new DedupOptions(false, false, true)).stats().vectors())
            .isEqualTo(new DedupStats.Counter(5, 4));
      }

      private static DedupStats stats(long st, long su, long at, long au, long vt, long vu) {
        return new DedupStats(
            new DedupStats.Counter(st, su),
            new DedupStats.Counter(at, au),
            new DedupStats.Counter(vt, vu));
      }
    }
  }

  @Nested
  class Recycling {

    @Test
    void aBuilderInARecycledBufferWritesWhatAFreshOneWrites() {
      List<Org> orgs = new OrgGenerator(Profile.REALISTIC, 5).stream().limit(500).toList();
      byte[] fresh = bytes(new FlatBufferOrgsBuilder(DedupOptions.ALL, 1024), orgs);
      for (DedupOptions dedup : List.of(DedupOptions.ALL, DedupOptions.NONE)) {
        byte[] expected = bytes(new FlatBufferOrgsBuilder(dedup, 1024), orgs);
        // A buffer full of what an earlier shard left, here 0xFF everywhere, and small: it grows.
        ByteBuffer garbage = ByteBuffer.allocate(4096);
        java.util.Arrays.fill(garbage.array(), (byte) 0xFF);

        byte[] recycled = bytes(new FlatBufferOrgsBuilder(dedup, garbage, 1 << 20), orgs);

        assertThat(recycled).as("%s", dedup).isEqualTo(expected);
      }
      // And the buffer a finished builder hands back, as ShardWriter passes it on.
      var first = new FlatBufferOrgsBuilder(DedupOptions.ALL, 1024);
      new OrgGenerator(Profile.ARTICLE, 6).stream().limit(300).forEach(first::add);
      first.finish();
      ByteBuffer spare = first.recycle();
      assertThat(bytes(new FlatBufferOrgsBuilder(DedupOptions.ALL, spare, 1 << 20), orgs))
          .isEqualTo(fresh);
    }

    @Test
    void onlyAFinishedBuilderRecyclesItsBufferAndThenItIsDone() {
      var builder = new FlatBufferOrgsBuilder(DedupOptions.ALL, 1024);
      builder.add(OrgFixtures.edgeCases().get(0));

      assertThatIllegalStateException()
          .isThrownBy(builder::recycle)
          .withMessage("recycle() needs a finished builder, this one is OPEN");
      builder.finish();
      assertThat(builder.recycle().capacity()).isGreaterThanOrEqualTo(1024);
      assertThatIllegalStateException()
          .isThrownBy(() -> builder.add(OrgFixtures.edgeCases().get(0)))
          .withMessage("FlatBufferOrgsBuilder's buffer was recycled for the next shard");
      assertThatIllegalStateException().isThrownBy(builder::recycle);
    }

    private byte[] bytes(FlatBufferOrgsBuilder builder, List<Org> orgs) {
      orgs.forEach(builder::add);
      ByteBuffer finished = builder.finish();
      byte[] out = new byte[finished.remaining()];
      finished.get(out);
      return out;
    }
  }

  @Nested
  class Lifecycle {

    @Test
    void finishReturnsAReadOnlyBufferWithTheOrgsIdentifier() {
      ByteBuffer buf = encode(OrgFixtures.edgeCases(), DedupOptions.ALL);

      assertThat(FlatBufferOrgs.hasIdentifier(buf)).isTrue();
      assertThat(new String(new byte[] {buf.get(4), buf.get(5), buf.get(6), buf.get(7)}))
          .isEqualTo("ORGS");
      assertThat(buf.position()).isZero();
      assertThat(buf.isReadOnly()).isTrue();
    }

    @Test
    void finishedBufferHoldsExactlyTheBytesCounted() {
      var builder = build(OrgFixtures.edgeCases(), DedupOptions.ALL);
      long before = builder.sizeBytes();

      ByteBuffer buf = builder.finish();

      assertThat((long) buf.remaining()).isEqualTo(builder.sizeBytes()).isGreaterThan(before);
    }

    @Test
    void finishedSizeBoundIsAtMostFinishBytesAboveWhatFinishReturns() {
      var generator = new OrgGenerator(Profile.REALISTIC, 3);
      for (int n = 0; n <= 40; n++) {
        var builder = new FlatBufferOrgsBuilder(DedupOptions.ALL, 1024);
        for (int i = 0; i < n; i++) {
          builder.add(generator.next());
        }
        long bound = builder.finishedSizeBound();

        long finished = builder.finish().remaining();

        assertThat(finished)
            .as("%d orgs", n)
            .isBetween(bound - FlatBufferOrgsBuilder.FINISH_BYTES, bound);
      }
    }

    @Test
    void aFirstBufferOfTheBoundFinishesWithoutGrowing() {
      List<Org> orgs = new OrgGenerator(Profile.REALISTIC, 5).stream().limit(30).toList();
      for (int n = 1; n <= orgs.size(); n++) {
        var unbounded = new FlatBufferOrgsBuilder(DedupOptions.ALL, 1024);
        orgs.subList(0, n).forEach(unbounded::add);
        int capacity = (int) unbounded.finishedSizeBound();
        ByteBuffer expected = unbounded.finish();
        // Any growth would throw: this buffer is all the builder gets.
        var exact =
            new FlatBufferOrgsBuilder(DedupOptions.ALL, capacity, new RefusingToGrow(capacity));
        orgs.subList(0, n).forEach(exact::add);

        assertThat(exact.finish()).as("%d orgs", n).isEqualTo(expected);
      }
    }

    @Test
    void countsOrgsAndBytesAsTheyAreAdded() {
      var builder = new FlatBufferOrgsBuilder(DedupOptions.NONE, 16);
      builder.add(OrgFixtures.edgeCases().get(1));
      long afterOne = builder.sizeBytes();
      builder.add(OrgFixtures.edgeCases().get(2));

      assertThat(builder.count()).isEqualTo(2);
      assertThat(afterOne).isPositive();
      assertThat(builder.sizeBytes()).isGreaterThan(afterOne);
    }

    @Test
    void addAfterFinishFails() {
      var builder = new FlatBufferOrgsBuilder(DedupOptions.ALL, 16);
      builder.finish();

      assertThatIllegalStateException()
          .isThrownBy(() -> builder.add(OrgFixtures.edgeCases().get(0)))
          .withMessageContaining("finished");
      assertThatIllegalStateException().isThrownBy(builder::finish);
    }

    @Test
    void rejectsANonPositiveInitialCapacity() {
      assertThatThrownBy(() -> new FlatBufferOrgsBuilder(DedupOptions.ALL, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("initialCapacityBytes");
    }

    @Test
    void turnsTheTwoGigabyteLimitIntoBufferLimitException() {
      var builder = new FlatBufferOrgsBuilder(DedupOptions.NONE, 1024, new RefusingToGrow(4096));
      List<Org> orgs = OrgFixtures.random(1_000, 3);

      assertThatThrownBy(() -> orgs.forEach(builder::add))
          .isInstanceOfSatisfying(
              BufferLimitException.class,
              e -> assertThat(e.orgs()).isPositive().isLessThan(orgs.size()))
          .hasMessageContaining("orgs (")
          .hasMessageContaining("lower the shard size");
      assertThatIllegalStateException().isThrownBy(() -> builder.add(orgs.get(0)));
    }

    @Test
    void neverLetsAnAssertionErrorEscape() {
      var builder =
          new FlatBufferOrgsBuilder(
              DedupOptions.NONE, 1024, new RefusingToGrow(1024, "FlatBuffers: something else"));

      assertThatThrownBy(() -> OrgFixtures.random(1_000, 4).forEach(builder::add))
          .isExactlyInstanceOf(FlatdumpException.class)
          .hasCauseInstanceOf(AssertionError.class)
          .hasMessageContaining("something else");
    }

    @Test
    void rejectsAnUnpairedSurrogateAndStaysUsable() {
      var builder = new FlatBufferOrgsBuilder(DedupOptions.ALL, 16);
      var bad = new Org("broken \uD800", "c", "k", OrgType.FOO, List.of(attr("p", 1.0)));
      var good = new Org("fine", "c", "k", OrgType.BAR, List.of(attr("p", 1.0)));

      assertThatThrownBy(() -> builder.add(bad))
          .isInstanceOf(FlatdumpException.class)
          .hasMessageContaining("name");
      builder.add(good);

      assertThat(readAll(builder.finish())).containsExactly(good);
    }
  }

  /** Stands in for FlatBufferBuilder's growth limit, which a test cannot reach with real memory. */
  private static final class RefusingToGrow extends FlatBufferBuilder.ByteBufferFactory {
    private final int maxBytes;
    private final String message;

    RefusingToGrow(int maxBytes) {
      this(maxBytes, "FlatBuffers: cannot grow buffer beyond 2 gigabytes.");
    }

    RefusingToGrow(int maxBytes, String message) {
      this.maxBytes = maxBytes;
      this.message = message;
    }

    @Override
    public ByteBuffer newByteBuffer(int capacity) {
      if (capacity > maxBytes) {
        throw new AssertionError(message);
      }
      return FlatBufferBuilder.HeapByteBufferFactory.INSTANCE.newByteBuffer(capacity);
    }
  }

  /** The same org with no instance in common: every string and attribute a new object. */
  private static Org deepCopy(Org org) {
    List<Attr> attrs =
        org.attributes().stream()
            .map(
                a ->
                    new Attr(
                        new String(a.id()),
                        a.quantity(),
                        a.amount(),
                        a.size(),
                        a.percent(),
                        a.active()))
            .toList();
    return new Org(
        new String(org.name()),
        new String(org.category()),
        new String(org.country()),
        org.type(),
        attrs);
  }

  private static Attr attr(String id, double percent) {
    return new Attr(id, (byte) 1, (byte) 2, (short) 3, percent, true);
  }

  private static FlatBufferOrgsBuilder build(List<Org> orgs, DedupOptions dedup) {
    var builder = new FlatBufferOrgsBuilder(dedup, 1024);
    orgs.forEach(builder::add);
    return builder;
  }

  private static ByteBuffer encode(List<Org> orgs, DedupOptions dedup) {
    return build(orgs, dedup).finish();
  }

  private static List<Org> readAll(ByteBuffer buf) {
    var orgs = new ArrayList<Org>();
    for (Iterator<Org> it = FlatBufferOrgs.iterator(buf); it.hasNext(); ) {
      orgs.add(it.next());
    }
    return orgs;
  }
}
