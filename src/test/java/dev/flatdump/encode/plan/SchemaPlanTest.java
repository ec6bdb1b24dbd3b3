package dev.flatdump.encode.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Schemas compiled by the bundled flatc, then planned; no MongoDB. */
class SchemaPlanTest {

  private static final Path ORGANIZATIONS =
      Path.of(System.getProperty("flatdump.basedir", "."), "schemas", "organizations.fbs");

  @TempDir Path dir;

  private SchemaPlan plan(String fbs) throws IOException {
    Path file = dir.resolve("s.fbs");
    Files.writeString(file, fbs);
    return SchemaPlan.load(file);
  }

  private static int find(TablePlan table, String bsonName) {
    byte[] padded = ("xx" + bsonName + "yy").getBytes(StandardCharsets.UTF_8);
    return table.lookup().find(padded, 2, padded.length - 4);
  }

  @Nested
  class Organizations {

    @Test
    void theRecordsAreTheElementsOfTheRootsVectorOfTables() {
      SchemaPlan plan = SchemaPlan.load(ORGANIZATIONS);

      assertThat(plan.fileIdentifier()).isEqualTo("ORGS");
      assertThat(plan.root().name()).isEqualTo("dev.flatdump.schema.fb.Organizations");
      assertThat(plan.records().name()).isEqualTo("organizations");
      assertThat(plan.record().name()).isEqualTo("dev.flatdump.schema.fb.Organization");
      assertThat(plan.tables())
          .extracting(TablePlan::name)
          .containsExactly(
              "dev.flatdump.schema.fb.Organizations",
              "dev.flatdump.schema.fb.Organization",
              "dev.flatdump.schema.fb.Attribute");
    }

    @Test
    void fieldsAreByIdWithTheirVtableSlots() {
      TablePlan org = SchemaPlan.load(ORGANIZATIONS).record();

      assertThat(org.fields())
          .extracting(FieldPlan::name)
          .containsExactly("name", "category", "type", "country", "attributes");
      assertThat(org.fields()).extracting(FieldPlan::slot).containsExactly(4, 6, 8, 10, 12);
      assertThat(org.fields())
          .extracting(FieldPlan::kind)
          .containsExactly(
              FieldKind.STRING,
              FieldKind.STRING,
              FieldKind.BYTE,
              FieldKind.STRING,
              FieldKind.VECTOR);
      FieldPlan attributes = org.fields().get(4);
      assertThat(attributes.element()).isEqualTo(FieldKind.TABLE);
    }

    @Test
    void anEnumFieldKnowsItsValuesByName() {
      SchemaPlan plan = SchemaPlan.load(ORGANIZATIONS);
      FieldPlan type = plan.record().fields().get(2);

      EnumPlan e = plan.enums().get(type.enumIndex());
      assertThat(e.name()).isEqualTo("dev.flatdump.schema.fb.OrganizationType");
      assertThat(e.underlying()).isEqualTo(FieldKind.BYTE);
      assertThat(e.byName()).containsEntry("FOO", 0L).containsEntry("BAZ", 2L);
      assertThat(e.declares(2)).isTrue();
      assertThat(e.declares(3)).isFalse();
    }

    @Test
    void findsAFieldByTheBytesOfItsNameWithoutAString() {
      TablePlan org = SchemaPlan.load(ORGANIZATIONS).record();

      assertThat(find(org, "country")).isEqualTo(3);
      assertThat(find(org, "attributes")).isEqualTo(4);
      assertThat(find(org, "countr")).isEqualTo(-1);
      assertThat(find(org, "_id")).isEqualTo(-1);
    }

    @Test
    void aBinarySchemaGivesTheSamePlan() throws IOException {
      Path bfbs = dir.resolve("organizations.bfbs");
      Files.write(bfbs, FlatcRunner.compile(ORGANIZATIONS));

      SchemaPlan plan = SchemaPlan.load(bfbs);

      assertThat(plan.record().fields())
          .isEqualTo(SchemaPlan.load(ORGANIZATIONS).record().fields());
    }
  }

  @Nested
  class Fields {

    @Test
    void aBsonAttributeNamesTheFieldItReads() throws IOException {
      SchemaPlan plan =
          plan(
              """
              attribute "bson";
              table R { legacy_name: int (bson: "legacy-name"); plain: int; }
              table Root { rs: [R]; }
              root_type Root;
              """);

      TablePlan r = plan.record();
      assertThat(r.fields().get(0).bsonName()).isEqualTo("legacy-name");
      assertThat(find(r, "legacy-name")).isZero();
      assertThat(find(r, "legacy_name")).isEqualTo(-1);
      assertThat(find(r, "plain")).isEqualTo(1);
    }

    @Test
    void keepsDefaultsOptionalRequiredAndDeprecated() throws IOException {
      SchemaPlan plan =
          plan(
              """
              table R {
                count: int = 5;
                ratio: float = 0.5;
                maybe: long = null;
                name: string (required);
                old: short (deprecated);
                big: ulong;
              }
              table Root { rs: [R]; }
              root_type Root;
              """);

      TablePlan r = plan.record();
      assertThat(r.fields().get(0).defaultInteger()).isEqualTo(5);
      assertThat(r.fields().get(1).defaultReal()).isEqualTo(0.5);
      assertThat(r.fields().get(2).optional()).isTrue();
      assertThat(r.fields().get(0).optional()).isFalse();
      assertThat(r.fields().get(3).required()).isTrue();
      assertThat(r.fields().get(4).deprecated()).isTrue();
      assertThat(find(r, "old")).as("a deprecated field reads nothing").isEqualTo(-1);
      assertThat(r.fields().get(5).kind()).isEqualTo(FieldKind.ULONG);
    }

    @Test
    void aStructKeepsItsLayout() throws IOException {
      SchemaPlan plan =
          plan(
              """
              struct Point { x: float; y: double; }
              table R { at: Point; path: [Point]; }
              table Root { rs: [R]; }
              root_type Root;
              """);

      FieldPlan at = plan.record().fields().get(0);
      assertThat(at.kind()).isEqualTo(FieldKind.STRUCT);
      TablePlan point = plan.tables().get(at.typeIndex());
      assertThat(point.struct()).isTrue();
      assertThat(point.byteSize()).isEqualTo(16);
      assertThat(point.minAlign()).isEqualTo(8);
      assertThat(point.fields()).extracting(FieldPlan::slot).containsExactly(0, 8);
      FieldPlan path = plan.record().fields().get(1);
      assertThat(path.element()).isEqualTo(FieldKind.STRUCT);
      assertThat(path.typeIndex()).isEqualTo(at.typeIndex());
    }
  }

  @Nested
  class Refuses {

    @Test
    void aRootWithoutExactlyOneVectorOfTables() {
      assertThatThrownBy(
              () ->
                  plan(
                      """
                      table R { x: int; }
                      table Root { a: [R]; b: [R]; }
                      root_type Root;
                      """))
          .isInstanceOf(SchemaException.class)
          .hasMessageContaining("exactly one vector of tables")
          .hasMessageContaining("2 (a, b)");
      assertThatThrownBy(() -> plan("table Root { x: int; }\nroot_type Root;"))
          .isInstanceOf(SchemaException.class)
          .hasMessageContaining("it has none");
    }

    @Test
    void aUnionNamingTheField() {
      assertThatThrownBy(
              () ->
                  plan(
                      """
                      table A { x: int; }
                      table B { y: int; }
                      union AB { A, B }
                      table R { either: AB; }
                      table Root { rs: [R]; }
                      root_type Root;
                      """))
          .isInstanceOf(SchemaException.class)
          .hasMessageContaining("R.either")
          .hasMessageContaining("union");
    }

    @Test
    void nothingThatTheRecordsDoNotReach() throws IOException {
      SchemaPlan plan =
          plan(
              """
              table A { x: int; }
              union U { A }
              table Elsewhere { u: U; }
              table R { x: int; }
              table Root { rs: [R]; }
              root_type Root;
              """);

      assertThat(plan.tables()).extracting(TablePlan::name).containsExactly("Root", "R");
    }

    @Test
    void aFixedLengthArray() {
      assertThatThrownBy(
              () ->
                  plan(
                      """
                      struct S { xs: [int:3]; }
                      table R { s: S; }
                      table Root { rs: [R]; }
                      root_type Root;
                      """))
          .isInstanceOf(SchemaException.class)
          .hasMessageContaining("S.xs")
          .hasMessageContaining("fixed-length array");
    }

    @Test
    void twoFieldsOfAStructReadingOneBsonName() {
      assertThatThrownBy(
              () ->
                  plan(
                      """
                      attribute "bson";
                      struct S { a: int (bson: "b"); b: int; }
                      table R { s: S; }
                      table Root { rs: [R]; }
                      root_type Root;
                      """))
          .isInstanceOf(SchemaException.class)
          .hasMessageContaining("S.a and S.b both read the BSON field 'b'");
    }

    @Test
    void aSchemaFlatcRefusesWithFlatcsOwnMessage() {
      assertThatThrownBy(() -> plan("table R { x: nosuchtype; }\nroot_type R;"))
          .isInstanceOf(SchemaException.class)
          .hasMessageContaining("flatc refused the schema")
          .hasMessageContaining("s.fbs:1");
    }

    @Test
    void aFileThatIsNotABinarySchema() {
      assertThatThrownBy(
              () ->
                  SchemaPlan.fromBinary(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}), "x"))
          .isInstanceOf(SchemaException.class)
          .hasMessageContaining("not a binary FlatBuffers schema");
    }
  }
}
