package dev.flatdump.artifact.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.bench.samples.Attr;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.OrgType;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.testing.ExportedOrgs;
import dev.flatdump.testing.OrganizationsEngine;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Buffers for the verifier tests, and a small reader that finds the bytes of a field so that a test
 * can corrupt exactly that field.
 */
final class VerifierFixtures {

  private VerifierFixtures() {}

  /** The bundled schema, which the fixtures' buffers follow. */
  static final SchemaPlan PLAN = SchemaFiles.bundled().plan();

  /** Every combination of the three de-dup switches. */
  static Stream<Sharing.Kinds> allKinds() {
    var all = Stream.<Sharing.Kinds>builder();
    for (int bits = 0; bits < 8; bits++) {
      all.add(new Sharing.Kinds((bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0));
    }
    return all.build();
  }

  static void putInt(byte[] bytes, int at, int value) {
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
  }

  static void putShort(byte[] bytes, int at, int value) {
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putShort(at, (short) value);
  }

  /** The first problem the verifier finds in {@code bytes}, which must be invalid. */
  static SchemaVerifier.Error errorOf(byte[] bytes) {
    SchemaVerifier.Result result = SchemaVerifier.verify(PLAN, wrap(bytes));
    assertThat(result.valid()).as("verification of a corrupt buffer").isFalse();
    return result.error();
  }

  static List<Org> generated(Profile profile, long seed, int count) {
    OrgGenerator generator = new OrgGenerator(profile, seed);
    List<Org> orgs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      orgs.add(generator.next());
    }
    return orgs;
  }

  /**
   * Two small orgs where every field is present (non-default type and active), one shared
   * attribute, non-ASCII text. The first string written ({@code "abc"}, with its NUL exactly 4
   * bytes) ends the buffer, so its last byte is referenced: cutting any byte off is detectable.
   */
  static List<Org> small() {
    Attr shared = new Attr("abc", (byte) 1, (byte) -2, (short) 300, 0.5, true);
    return List.of(
        new Org(
            "Ñandú",
            "retail",
            "ES",
            OrgType.BAZ,
            List.of(shared, new Attr("größe", (byte) 7, (byte) 8, (short) -9, -0.0, true))),
        new Org("Acme", "retail", "FR", OrgType.BAR, List.of(shared)));
  }

  /**
   * The finished buffer's bytes, copied so that a test may change them: the orgs as BSON, through
   * the export's engine.
   */
  static byte[] bytes(Sharing.Kinds kinds, List<Org> orgs) {
    ByteBuffer finished = OrganizationsEngine.encode(kinds, orgs);
    byte[] bytes = new byte[finished.remaining()];
    finished.duplicate().get(bytes);
    return bytes;
  }

  static ByteBuffer wrap(byte[] bytes) {
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  static ByteBuffer wrap(byte[] bytes, int length) {
    return ByteBuffer.wrap(bytes, 0, length).slice().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Reads every org, as a service would after verification; throws what reading throws. */
  static long decodeAll(ByteBuffer buf) {
    return ExportedOrgs.of(List.of(buf)).size();
  }

  /** Finds the bytes of tables and fields in a well-formed buffer, following its offsets. */
  record Layout(ByteBuffer buf) {

    static Layout of(byte[] bytes) {
      return new Layout(wrap(bytes));
    }

    int u32(int at) {
      return buf.getInt(at);
    }

    int root() {
      return u32(0);
    }

    int vtable(int table) {
      return table - buf.getInt(table);
    }

    /** Where field {@code id} of the table at {@code table} is; 0 when absent. */
    int field(int table, int id) {
      int vt = vtable(table);
      int slot = 4 + 2 * id;
      if (slot >= (buf.getShort(vt) & 0xFFFF)) {
        return 0;
      }
      int fo = buf.getShort(vt + slot) & 0xFFFF;
      return fo == 0 ? 0 : table + fo;
    }

    /** The vtable slot of field {@code id}. */
    int slot(int table, int id) {
      return vtable(table) + 4 + 2 * id;
    }

    int follow(int at) {
      return at + u32(at);
    }

    int organizationsVector() {
      return follow(field(root(), 0));
    }

    int organization(int index) {
      return follow(organizationsVector() + 4 + 4 * index);
    }

    int attributesVector(int org) {
      return follow(field(organization(org), 4));
    }

    int attribute(int org, int index) {
      return follow(attributesVector(org) + 4 + 4 * index);
    }

    /** The string that field {@code id} of {@code table} points to: its length's offset. */
    int string(int table, int id) {
      return follow(field(table, id));
    }
  }
}
