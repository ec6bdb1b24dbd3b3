package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.bench.References.Kind;
import dev.flatdump.bench.samples.Attr;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgType;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.schema.fb.Organizations;
import dev.flatdump.testing.OrganizationsEngine;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link References} on buffers the export's builder wrote, checked against the generated API. */
class ReferencesTest {

  private static final Attr X = new Attr("x", (byte) 1, (byte) 2, (short) 3, 4.5, true);
  private static final Attr Y = new Attr("why", (byte) 0, (byte) 7, (short) 0, 0.0, false);
  private static final Attr Z = new Attr("zed", (byte) -1, (byte) 0, (short) -300, -2.25, true);

  /** Orgs 0 and 1 have equal attribute lists; org 2 shares Y; org 3 has none. */
  private static final List<Org> ORGS =
      List.of(
          new Org("a", "shop", "ES", OrgType.FOO, List.of(X, Y)),
          new Org("b", "shop", "FR", OrgType.BAR, List.of(X, Y)),
          new Org("c", "", "ES", OrgType.BAZ, List.of(Y, Z)),
          new Org("d", "bank", "PT", OrgType.FOO, List.of()));

  @Test
  void countsSharedTablesAndVectorsOnceAsTheyAreStored() {
    ByteBuffer buffer = build(Sharing.Kinds.ALL);
    References refs = References.of(buffer);

    assertThat(refs.count(Kind.ORG_SLOTS)).isEqualTo(4);
    assertThat(refs.count(Kind.ORG_VTABLES)).isEqualTo(4);
    assertThat(refs.count(Kind.ORG_FIELDS)).isEqualTo(4 * 4); // name, category, country, vector
    // Vectors [X, Y] (shared by orgs 0 and 1), [Y, Z] and the empty one.
    assertThat(refs.count(Kind.ATTRIBUTE_SLOTS)).isEqualTo(4);
    assertThat(refs.count(Kind.ATTRIBUTE_VTABLES)).isEqualTo(3);
    assertThat(refs.count(Kind.ATTRIBUTE_IDS)).isEqualTo(3);
  }

  @Test
  void countsEveryCopyWithoutDedup() {
    References refs = References.of(build(Sharing.Kinds.NONE));

    assertThat(refs.count(Kind.ATTRIBUTE_SLOTS)).isEqualTo(6);
    assertThat(refs.count(Kind.ATTRIBUTE_VTABLES)).isEqualTo(6);
    assertThat(refs.count(Kind.ATTRIBUTE_IDS)).isEqualTo(6);
    assertThat(refs.count(Kind.ORG_FIELDS)).isEqualTo(16);
  }

  @Test
  void positionsAreWhereTheGeneratedCodeReadsThem() {
    ByteBuffer buffer = build(Sharing.Kinds.ALL);
    ByteBuffer bb = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    References refs = References.of(buffer);
    Organizations root = Organizations.getRootAsOrganizations(bb.duplicate());

    // Each org slot points to the table the generated code reads as that org.
    int[] orgSlots = refs.positions(Kind.ORG_SLOTS);
    int[] orgTables = refs.positions(Kind.ORG_VTABLES);
    Set<Integer> targets = new HashSet<>();
    for (int i = 0; i < orgSlots.length; i++) {
      int table = orgSlots[i] + bb.getInt(orgSlots[i]);
      targets.add(table);
      assertThat(stringAt(bb, fieldTarget(bb, table, 0))).isEqualTo(root.organizations(i).name());
    }
    assertThat(targets).containsExactlyInAnyOrderElementsOf(boxed(orgTables));

    // Attribute slots point to the attribute tables; their ids are the three ids.
    Set<Integer> attributeTables = boxed(refs.positions(Kind.ATTRIBUTE_VTABLES));
    for (int slot : refs.positions(Kind.ATTRIBUTE_SLOTS)) {
      assertThat(attributeTables).contains(slot + bb.getInt(slot));
    }
    Set<String> ids = new HashSet<>();
    for (int p : refs.positions(Kind.ATTRIBUTE_IDS)) {
      ids.add(stringAt(bb, p + bb.getInt(p)));
    }
    assertThat(ids).containsExactlyInAnyOrder("x", "why", "zed");

    // Every table's soffset leads to a vtable whose table size is a sane number.
    for (Kind kind : List.of(Kind.ORG_VTABLES, Kind.ATTRIBUTE_VTABLES)) {
      for (int table : refs.positions(kind)) {
        int vtable = table - bb.getInt(table);
        assertThat(Short.toUnsignedInt(bb.getShort(vtable + 2))).isBetween(4, 64);
      }
    }
  }

  @Test
  void zeroesExactlyTheChosenReferences() {
    ByteBuffer buffer = build(Sharing.Kinds.ALL);
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    References refs = References.of(ByteBuffer.wrap(bytes));

    Set<Kind> kinds = EnumSet.of(Kind.ATTRIBUTE_SLOTS, Kind.ORG_VTABLES);
    byte[] zeroed = refs.zeroed(bytes, kinds);

    boolean[] chosen = new boolean[bytes.length];
    for (Kind kind : kinds) {
      for (int p : refs.positions(kind)) {
        assertThat(Arrays.copyOfRange(bytes, p, p + 4)).isNotEqualTo(new byte[4]);
        Arrays.fill(chosen, p, p + 4, true);
      }
    }
    for (int i = 0; i < bytes.length; i++) {
      assertThat(zeroed[i]).as("byte %d", i).isEqualTo(chosen[i] ? 0 : bytes[i]);
    }
    assertThat(refs.zeroed(bytes, Set.of())).isEqualTo(bytes);
  }

  private static ByteBuffer build(Sharing.Kinds kinds) {
    return OrganizationsEngine.encode(kinds, ORGS);
  }

  /** The position a table's uoffset field points to. */
  private static int fieldTarget(ByteBuffer bb, int table, int index) {
    int vtable = table - bb.getInt(table);
    int field = table + Short.toUnsignedInt(bb.getShort(vtable + 4 + 2 * index));
    return field + bb.getInt(field);
  }

  private static String stringAt(ByteBuffer bb, int p) {
    byte[] utf8 = new byte[bb.getInt(p)];
    bb.get(p + 4, utf8);
    return new String(utf8, StandardCharsets.UTF_8);
  }

  private static Set<Integer> boxed(int[] values) {
    Set<Integer> set = new HashSet<>();
    for (int v : values) {
      set.add(v);
    }
    return set;
  }
}
