package dev.flatdump.artifact.check;

import static dev.flatdump.artifact.check.VerifierFixtures.PLAN;
import static dev.flatdump.artifact.check.VerifierFixtures.bytes;
import static dev.flatdump.artifact.check.VerifierFixtures.errorOf;
import static dev.flatdump.artifact.check.VerifierFixtures.putInt;
import static dev.flatdump.artifact.check.VerifierFixtures.putShort;
import static dev.flatdump.artifact.check.VerifierFixtures.small;
import static dev.flatdump.artifact.check.VerifierFixtures.wrap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.flatdump.artifact.check.VerifierFixtures.Layout;
import dev.flatdump.encode.engine.Sharing;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** One deliberate corruption per test, each reported with its offset, path and reason. */
class SchemaVerifierCorruptionTest {

  private byte[] bytes;
  private Layout layout;

  @BeforeEach
  void buildSmallBuffer() {
    bytes = bytes(Sharing.Kinds.ALL, small());
    layout = Layout.of(bytes);
    assertThat(SchemaVerifier.verify(PLAN, wrap(bytes)).valid()).as("before corruption").isTrue();
  }

  @Nested
  class Header {

    @Test
    void reportsABadIdentifier() {
      bytes[7] = 'X';

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.offset()).isEqualTo(4);
      assertThat(error.path()).isEqualTo("(header)");
      assertThat(error.reason()).contains("\"ORGX\"", "expected \"ORGS\"");
    }

    @Test
    void reportsARootOffsetOutOfBounds() {
      putInt(bytes, 0, bytes.length);

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.offset()).isZero();
      assertThat(error.path()).isEqualTo("(header)");
      assertThat(error.reason()).contains("points past the buffer's end");
    }

    @Test
    void reportsARootOffsetAboveTwoGigabytes() {
      putInt(bytes, 0, 0xFFFF_FFF0);

      assertThat(errorOf(bytes).reason()).contains("4294967280", "points past");
    }

    @Test
    void reportsAMisalignedRootTable() {
      putInt(bytes, 0, layout.root() + 2);

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.path()).isEqualTo("(root)");
      assertThat(error.reason()).contains("4-byte aligned");
    }
  }

  @Nested
  class Tables {

    @Test
    void reportsAVtableOffsetOutOfBounds() {
      int org = layout.organization(0);
      putInt(bytes, org, -2 * bytes.length);

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.offset()).isEqualTo(org);
      assertThat(error.path()).isEqualTo("organizations[0]");
      assertThat(error.reason()).contains("vtable", "outside the buffer");
    }

    @Test
    void reportsAVtableBeforeTheBuffer() {
      int org = layout.organization(1);
      putInt(bytes, org, org + 64);

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.path()).isEqualTo("organizations[1]");
      assertThat(error.reason()).contains("outside the buffer");
    }

    @Test
    void reportsAnOddVtableSize() {
      putShort(bytes, layout.vtable(layout.organization(0)), 7);

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.path()).isEqualTo("organizations[0]");
      assertThat(error.reason()).contains("vtable size 7");
    }

    @Test
    void reportsAVtableSizeThatJavaReadersWouldReadAsNegative() {
      putShort(bytes, layout.vtable(layout.organization(0)), 0x8000);

      assertThat(errorOf(bytes).reason()).contains("vtable size 32768");
    }

    @Test
    void reportsATableRunningPastTheEnd() {
      int org = layout.organization(0);
      putShort(bytes, layout.vtable(org) + 2, bytes.length - org + 4);

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.path()).isEqualTo("organizations[0]");
      assertThat(error.reason()).contains("runs past the buffer's end");
    }

    @Test
    void reportsAFieldOffsetOutsideTheTable() {
      int org = layout.organization(0);
      int tableSize = layout.buf().getShort(layout.vtable(org) + 2);
      putShort(bytes, layout.slot(org, 0), tableSize - 2);

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.offset()).isEqualTo(layout.slot(org, 0));
      assertThat(error.path()).isEqualTo("organizations[0].name");
      assertThat(error.reason()).contains("does not fit a 4-byte field");
    }

    @Test
    void reportsAMisalignedScalar() {
      int attribute = layout.attribute(0, 0);
      putShort(bytes, layout.slot(attribute, 3), 5);

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.path()).isEqualTo("organizations[0].attributes[0].size");
      assertThat(error.reason()).contains("2-byte aligned");
    }

    @Test
    void reportsAMissingRequiredString() {
      putShort(bytes, layout.slot(layout.organization(0), 3), 0);

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.path()).isEqualTo("organizations[0].country");
      assertThat(error.reason()).contains("missing");
    }

    @Test
    void reportsAZeroOffset() {
      int org = layout.organization(0);
      putInt(bytes, layout.field(org, 1), 0);

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.path()).isEqualTo("organizations[0].category");
      assertThat(error.reason()).contains("offset is 0");
    }
  }

  @Nested
  class Values {

    @Test
    void reportsAnEnumOutOfRange() {
      int type = layout.field(layout.organization(0), 2);
      bytes[type] = 3;

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.offset()).isEqualTo(type);
      assertThat(error.path()).isEqualTo("organizations[0].type");
      assertThat(error.reason())
          .contains("the value 3 is not a value of dev.flatdump.schema.fb.OrganizationType");
    }

    @Test
    void reportsANegativeEnum() {
      bytes[layout.field(layout.organization(1), 2)] = -1;

      assertThat(errorOf(bytes).path()).isEqualTo("organizations[1].type");
    }

    @Test
    void reportsABoolOfTwo() {
      int active = layout.field(layout.attribute(0, 1), 5);
      bytes[active] = 2;

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.offset()).isEqualTo(active);
      assertThat(error.path()).isEqualTo("organizations[0].attributes[1].active");
      assertThat(error.reason()).contains("2 is not a bool");
    }

    @Test
    void reportsAStringWithoutItsNul() {
      int name = layout.string(layout.organization(0), 0);
      int end = name + 4 + layout.u32(name);
      bytes[end] = 'x';

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.offset()).isEqualTo(end);
      assertThat(error.path()).isEqualTo("organizations[0].name");
      assertThat(error.reason()).contains("not NUL-terminated");
    }

    @Test
    void reportsAStringLongerThanTheBuffer() {
      int id = layout.string(layout.attribute(0, 1), 0);
      putInt(bytes, id, 0x7FFF_FFF0);

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.path()).isEqualTo("organizations[0].attributes[1].id");
      assertThat(error.reason()).contains("2147483632 bytes", "past the buffer's end");
    }

    @Test
    void reportsInvalidUtf8() {
      int name = layout.string(layout.organization(0), 0);
      bytes[name + 4 + 1] = (byte) 0xFF; // inside the two bytes of 'Ñ'

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.path()).isEqualTo("organizations[0].name");
      assertThat(error.reason()).contains("not valid UTF-8");
    }
  }

  @Nested
  class Vectors {

    @Test
    void reportsAVectorLengthPastTheEnd() {
      int vector = layout.attributesVector(0);
      putInt(bytes, vector, 0xFFFF_FFFF);

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.offset()).isEqualTo(vector);
      assertThat(error.path()).isEqualTo("organizations[0].attributes");
      assertThat(error.reason()).contains("4294967295 elements");
    }

    @Test
    void reportsAVectorLengthWhoseByteSizeOverflowsAnInt() {
      // 0x40000001 * 4 is 4 in 32-bit arithmetic: a naive check would let it through.
      putInt(bytes, layout.organizationsVector(), 0x4000_0001);

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.path()).isEqualTo("organizations");
      assertThat(error.reason()).contains("1073741825 elements");
    }

    @Test
    void reportsAnElementOffsetPastTheEnd() {
      putInt(bytes, layout.attributesVector(1) + 4, bytes.length);

      SchemaVerifier.Error error = errorOf(bytes);

      assertThat(error.path()).isEqualTo("organizations[1].attributes[0]");
      assertThat(error.reason()).contains("points past");
    }
  }

  @Nested
  class Limits {

    @Test
    void stopsTablesNestedDeeperThanTheLimit() {
      SchemaVerifier.Result result =
          SchemaVerifier.verify(PLAN, wrap(bytes), new SchemaVerifier.Limits(2, 1000, 1000));

      assertThat(result.error().path()).isEqualTo("organizations[0].attributes[0]");
      assertThat(result.error().reason()).contains("deeper than 2");
    }

    @Test
    void stopsMoreTableVisitsThanTheLimit() {
      SchemaVerifier.Result result =
          SchemaVerifier.verify(PLAN, wrap(bytes), new SchemaVerifier.Limits(64, 3, 1000));

      assertThat(result.error().reason()).contains("more than 3 table visits");
    }

    @Test
    void stopsMoreStringBytesThanTheLimit() {
      SchemaVerifier.Result result =
          SchemaVerifier.verify(PLAN, wrap(bytes), new SchemaVerifier.Limits(64, 1000, 5));

      assertThat(result.error().reason()).contains("more than 5 bytes of strings");
    }

    @Test
    void defaultLimitsGrowWithTheBuffer() {
      assertThat(SchemaVerifier.Limits.forSize(4000))
          .isEqualTo(new SchemaVerifier.Limits(64, 1001, 4000));
    }

    @Test
    void rejectsLimitsBelowOne() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> new SchemaVerifier.Limits(0, 1, 0))
          .withMessageContaining("maxDepth");
    }
  }

  @Test
  void anErrorSaysWhereAndWhy() {
    assertThat(new SchemaVerifier.Error(12, "organizations[3].name", "the offset is 0"))
        .hasToString("at byte 12 (organizations[3].name): the offset is 0");
  }

  @Test
  void aResultHasACountOrAnErrorNeverBoth() {
    assertThatIllegalArgumentException().isThrownBy(() -> new SchemaVerifier.Result(-1, null));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new SchemaVerifier.Result(3, new SchemaVerifier.Error(0, "", "x")));
  }
}
