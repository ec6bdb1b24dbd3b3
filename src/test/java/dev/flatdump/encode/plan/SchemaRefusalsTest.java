package dev.flatdump.encode.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a schema declares that flatdump cannot keep, refused at load with the field named; and what
 * it can, planned as declared.
 */
class SchemaRefusalsTest {

  @TempDir Path dir;

  private SchemaPlan plan(String body) throws IOException {
    Path file = dir.resolve("s.fbs");
    Files.writeString(file, body);
    return SchemaPlan.load(file);
  }

  /** The defaults flatc 2.0.8's binary schema stores wrongly: as 0 and as 0.0. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "ulong = 18446744073709551615 | 18446744073709551615 | 0",
        "ulong = 9223372036854775808 | 9223372036854775808 | 0",
        "ulong = 0xFFFFFFFFFFFFFFFF | 0xFFFFFFFFFFFFFFFF | 0",
        "double = -0.0 | -0.0 | 0.0",
        "float = -0.0 | -0.0 | 0.0",
        "float = -0 | -0 | 0.0",
      })
  void refusesADefaultTheBinarySchemaLoses(String declaration, String declared, String stored) {
    assertThatThrownBy(
            () ->
                plan(
                    "namespace a.b;\ntable R { ok: int = 5; x: "
                        + declaration
                        + "; } table Root { rs: [R]; } root_type Root;"))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("a.b.R.x declares the default " + declared)
        .hasMessageContaining("stores as " + stored);
  }

  /** The forms flatc also takes: a quoted default, single quotes, an include in single quotes. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "table T { d: double = \"-0.0\"; }",
        "table T { u: ulong = \"18446744073709551615\"; }",
        "enum E : ulong { A = 0, B = 9223372036854775808 } table T { e: E = \"B\"; }",
        "attribute \"bson\"; table S { s: string (bson: 'a//b'); } table T { s: S; u: ulong ="
            + " 18446744073709551615; }",
        "include 'lib.fbs'; table T { w: W; }",
      })
  void refusesALostDefaultInEveryFormFlatcTakes(String types) throws IOException {
    Files.writeString(dir.resolve("lib.fbs"), "table W { u: ulong = 18446744073709551615; }");
    assertThatThrownBy(() -> plan(types + " table Root { rs: [T]; } root_type Root;"))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("declares the default");
  }

  @Test
  void refusesAnEnumDefaultTheBinarySchemaLoses() {
    assertThatThrownBy(
            () ->
                plan(
                    """
                    enum Big : ulong { Zero = 0, Half = 9223372036854775808, Max = 18446744073709551615 }
                    table R { e: Big = Max; } table Root { rs: [R]; } root_type Root;
                    """))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("R.e declares the default Max")
        .hasMessageContaining("stores as 0");
  }

  @Test
  void keepsTheDefaultsTheBinarySchemaHolds() throws IOException {
    SchemaPlan plan =
        plan(
            """
            // u: ulong = 18446744073709551615 in a comment is not a declaration
            attribute "bson";
            enum Color : byte { Red = -1, Blue = 3 }
            table R {
              u: ulong = 9223372036854775807; k: ulong; d: double = 0.0; f: float = -1.5;
              s: string (bson: "x = -0.0"); n: double = nan; m: ulong = null; c: Color = Blue;
              i: int = -7;
            }
            /* table R { d: double = -0.0; } */
            table Root { rs: [R]; } root_type Root;
            """);

    var r = plan.record().fields();
    assertThat(r.get(0).defaultInteger()).isEqualTo(Long.MAX_VALUE);
    assertThat(r.get(3).defaultReal()).isEqualTo(-1.5);
  }

  @Test
  void findsDeclarationsInIncludedFilesUnderTheirNamespace() throws IOException {
    Files.writeString(dir.resolve("inc.fbs"), "namespace lib;\ntable Leaf { z: double = -0.0; }\n");
    assertThatThrownBy(
            () ->
                plan(
                    """
                    include "inc.fbs";
                    namespace app;
                    table R { leaf: lib.Leaf; }
                    table Root { rs: [R]; } root_type Root;
                    """))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("lib.Leaf.z declares the default -0.0");
  }

  @Test
  void refusesARequiredRootFieldBesideTheRecords() {
    assertThatThrownBy(
            () ->
                plan(
                    """
                    table R { n: int; }
                    table Root { title: string (required); rs: [R]; }
                    root_type Root;
                    """))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining(
            "Root.title is (required), but flatdump writes only the root's records (rs)");
  }

  @Test
  void takesAStringOrIntegerKeyOnTheRecordTableAndRefusesOthers() throws IOException {
    assertThat(
            plan("table T { k: string (key); n: int; } table Root { rs: [T]; } root_type Root;")
                .record()
                .key()
                .name())
        .as("a key on another field than _id's: each shard is sorted by it")
        .isEqualTo("k");
    for (String refused : List.of("double", "E", "bool")) {
      assertThatThrownBy(
              () ->
                  plan(
                      "attribute \"bson\"; enum E : byte { A } table T { k: "
                          + refused
                          + " (bson: \"_id\", key); } table Root { rs: [T]; } root_type Root;"))
          .as(refused)
          .isInstanceOf(SchemaException.class)
          .hasMessageContaining("T.k is a (key) of the records")
          .hasMessageContaining("it must be a string or an integer");
    }
    for (String taken : List.of("string", "long", "int", "ulong")) {
      SchemaPlan p =
          plan(
              "attribute \"bson\"; table T { k: "
                  + taken
                  + " (bson: \"_id\", key); } table Root { rs: [T]; } root_type Root;");
      assertThat(p.record().key().name()).as(taken).isEqualTo("k");
    }
  }

  @Test
  void takesOtherRootFieldsThatMayBeAbsent() throws IOException {
    SchemaPlan plan =
        plan(
            """
            table R { n: int; }
            table Root { title: string; rs: [R] (required); }
            root_type Root;
            """);
    assertThat(plan.records().name()).isEqualTo("rs");
  }

  @Test
  void aKeyFieldIsPlannedAndAStringKeyIsRequired() throws IOException {
    SchemaPlan plan =
        plan(
            """
            table E { v: int; name: string (key); }
            table N { k: ulong (key); }
            table R { es: [E]; ns: [N]; }
            table Root { rs: [R]; } root_type Root;
            """);

    TablePlan e =
        plan.tables().stream().filter(t -> t.name().equals("E")).findFirst().orElseThrow();
    assertThat(e.key().name()).isEqualTo("name");
    assertThat(e.key().required()).isTrue();
    TablePlan n =
        plan.tables().stream().filter(t -> t.name().equals("N")).findFirst().orElseThrow();
    assertThat(n.key().name()).isEqualTo("k");
    assertThat(n.key().required()).isFalse();
    assertThat(plan.record().key()).isNull();
  }
}
