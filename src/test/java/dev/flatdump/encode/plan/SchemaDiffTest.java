package dev.flatdump.encode.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What code generated for one schema can read of data written with another. Each case starts from
 * {@link #BASE} and changes one thing.
 */
class SchemaDiffTest {

  @TempDir Path dir;

  private static final String BASE =
      """
      namespace geo;
      attribute "bson";
      enum Kind : byte { City, Town = 5, Village }
      struct At { lat: double; lng: double; }
      table Place { name: string (key); kind: Kind; at: At; }
      table State {
        code: string (required);
        population: int = 7;
        places: [Place];
        note: string;
      }
      table States { states: [State]; }
      root_type States;
      file_identifier "STAT";
      """;

  private int file;

  private SchemaPlan plan(String text) throws IOException {
    Path f = dir.resolve("s" + file++ + ".fbs");
    Files.writeString(f, text);
    return SchemaPlan.load(f);
  }

  /** From BASE to BASE with {@code from} replaced by {@code to}. */
  private List<String> forward(String from, String to) throws IOException {
    return SchemaDiff.between(plan(BASE), plan(BASE.replace(from, to))).stream()
        .map(Object::toString)
        .toList();
  }

  @Test
  void theSameSchemaChangesNothing() throws IOException {
    assertThat(forward("", "")).isEmpty();
  }

  @Test
  void aFieldAppendedOrRenamedOrDeprecatedIsCompatible() throws IOException {
    assertThat(forward("note: string;\n", "note: string;\n  area: double;\n"))
        .containsExactly("compatible: geo.State.area (id 4): new field: old readers skip it");
    assertThat(forward("note: string;", "remark: string (bson: \"note\");"))
        .containsExactly(
            "compatible: geo.State.note (id 3): renamed to remark (the same slot, type and BSON"
                + " field)");
    assertThat(forward("note: string;", "note: string (deprecated);"))
        .containsExactly(
            "compatible: geo.State.note (id 3): deprecated: no longer written, old readers read"
                + " its default");
    assertThat(forward("  note: string;\n", ""))
        .containsExactly(
            "compatible: geo.State.note (id 3): no longer in the schema: old readers read its"
                + " default");
  }

  @Test
  void aSlotThatNowHoldsAnotherFieldOfTheSameTypeBreaks() throws IOException {
    // a field inserted before note: note's slot now holds remark, of the same type
    assertThat(forward("  note: string;\n", "  remark: string;\n  note: string;\n"))
        .contains(
            "breaking: geo.State.note (id 3): now holds BSON field remark where it held note (old"
                + " readers would read one field's values as the other's)");
    assertThat(forward("note: string;", "remark: string;"))
        .containsExactly(
            "breaking: geo.State.note (id 3): now holds BSON field remark where it held note (old"
                + " readers would read one field's values as the other's)");
    assertThat(
            forward(
                "struct At { lat: double; lng: double; }",
                "struct At { lng: double; lat: double; }"))
        .containsExactly(
            "breaking: geo.At: the struct's layout changed (a struct can never change)");
  }

  @Test
  void aRequiredFieldCannotGo() throws IOException {
    assertThat(forward("code: string (required);", "code: string (required, deprecated);"))
        .containsExactly(
            "breaking: geo.State.code (id 0): deprecated, but required (old readers' verifiers"
                + " refuse a record without it)");
  }

  @Test
  void aChangedTypeOrDefaultBreaks() throws IOException {
    assertThat(forward("population: int = 7;", "population: long = 7;"))
        .containsExactly("breaking: geo.State.population (id 1): type int → long");
    assertThat(forward("population: int = 7;", "population: int = 8;"))
        .containsExactly(
            "breaking: geo.State.population (id 1): default 7 → 8 (a value left out for its new"
                + " default reads as the old one)");
    assertThat(forward("population: int = 7;", "population: int = null;"))
        .containsExactly(
            "breaking: geo.State.population (id 1): default 7 → null (a value left out for its"
                + " new default reads as the old one)");
  }

  @Test
  void aFieldRemovedFromTheMiddleShiftsTheOthersAndBreaks() throws IOException {
    assertThat(forward("  population: int = 7;\n", ""))
        .contains(
            "breaking: geo.State.population (id 1): type int → [geo.Place]",
            "breaking: geo.State.places (id 2): type [geo.Place] → string");
  }

  @Test
  void requirednessAndKeysBreakWhereOldReadersRelyOnThem() throws IOException {
    assertThat(forward("code: string (required);", "code: string;"))
        .containsExactly(
            "breaking: geo.State.code (id 0): no longer required (old readers' verifiers refuse a"
                + " record without it)");
    assertThat(forward("note: string;", "note: string (required);"))
        .containsExactly("compatible: geo.State.note (id 3): now required");
    // a string key is required too, as flatc's generated code makes it
    assertThat(forward("name: string (key);", "name: string;"))
        .containsExactly(
            "breaking: geo.Place.name (id 0): no longer the key (old readers' ...ByKey lookups"
                + " expect vectors in the old order)",
            "breaking: geo.Place.name (id 0): no longer required (old readers' verifiers refuse a"
                + " record without it)");
  }

  @Test
  void aStructNeverChanges() throws IOException {
    assertThat(
            forward(
                "struct At { lat: double; lng: double; }",
                "struct At { lat: float; lng: double; }"))
        .containsExactly(
            "breaking: geo.At: the struct's layout changed (a struct can never change)");
  }

  @Test
  void enumValuesKeepTheirNumbers() throws IOException {
    assertThat(forward("Town = 5, Village", "Town = 6, Village"))
        .containsExactly(
            "breaking: geo.Kind.Town: value 5 → 6", "breaking: geo.Kind.Village: value 6 → 7");
    assertThat(forward("Town = 5, Village", "Town = 5, Village, Hamlet"))
        .containsExactly(
            "compatible: geo.Kind.Hamlet: new value 7: old readers see a number they do not name");
    assertThat(forward("enum Kind : byte", "enum Kind : short"))
        .containsExactlyInAnyOrder(
            "breaking: geo.Kind: underlying type byte → short",
            "breaking: geo.Place.kind (id 1): type geo.Kind:byte → geo.Kind:short");
  }

  @Test
  void theRootAndTheFileIdentifierStay() throws IOException {
    assertThat(forward("file_identifier \"STAT\";", "file_identifier \"GEO1\";"))
        .containsExactly(
            "breaking: file_identifier: \"STAT\" → \"GEO1\" (readers that check it refuse the new"
                + " files)");
  }

  @Test
  void breakingChangesComeFirst() throws IOException {
    assertThat(
            forward(
                "population: int = 7;\n  places: [Place];\n  note: string;\n",
                "population: long = 7;\n  places: [Place];\n  note: string;\n  area: double;\n"))
        .containsExactly(
            "breaking: geo.State.population (id 1): type int → long",
            "compatible: geo.State.area (id 4): new field: old readers skip it");
  }
}
