package dev.flatdump.infer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.infer.SchemaInference.InferredSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaInferenceTest {

  static InferredSchema infer(boolean narrow, String... json) {
    SchemaInference inference = new SchemaInference(narrow);
    for (String j : json) {
      inference.add(BsonDocument.parse(j));
    }
    return inference.schema("things", "test.things");
  }

  static InferredSchema infer(String... json) {
    return infer(false, json);
  }

  /** The field's line, without its comment. */
  static String field(InferredSchema s, String name) {
    return s.fbs()
        .lines()
        .filter(l -> l.startsWith("  " + name + ":"))
        .findFirst()
        .map(l -> l.replaceFirst(";  //.*", ";").trim())
        .orElseThrow(() -> new AssertionError(name + " not in\n" + s.fbs()));
  }

  @Nested
  class Types {
    @Test
    void int32IsIntAndWithInt64Long() {
      InferredSchema s = infer("{_id: 1, a: 1, b: 1}", "{_id: 2, a: 2, b: {$numberLong: '9'}}");
      assertThat(field(s, "a")).isEqualTo("a: int;");
      assertThat(field(s, "b")).isEqualTo("b: long;");
      assertThat(s.conflicts()).isEmpty();
    }

    @Test
    void integersWithDoublesAreDoublesOnlyWhereEveryIntegerIsExact() {
      InferredSchema exact =
          infer("{_id: 1, x: 1, y: 2}", "{_id: 2, x: 1.5, y: {$numberLong: '9007199254740992'}}");
      assertThat(field(exact, "x")).isEqualTo("x: double;");
      assertThat(field(exact, "y")).isEqualTo("y: long;");

      // neither a double nor a long holds them all: a union of both, each value by its BSON type
      InferredSchema beyond =
          infer(
              "{_id: 1, x: {$numberLong: '9007199254740993'}}",
              "{_id: 2, x: 0.5}",
              "{_id: 3, x: 1.5}");
      assertThat(field(beyond, "x")).isEqualTo("x: X;");
      assertThat(beyond.fbs())
          .contains("table XLong (wrapper) {\n  value: long;\n}")
          .contains("table XDouble (wrapper) {\n  value: double;\n}")
          .contains("union X { XLong, XDouble }");
      assertThat(beyond.conflicts())
          .singleElement()
          .hasToString(
              "x: double: 2, int64: 1; a union X { XLong, XDouble }: each value keeps its own"
                  + " type, no document is rejected for it");

      InferredSchema integral =
          infer("{_id: 1, x: {$numberLong: '9007199254740993'}}", "{_id: 2, x: 2.0}");
      assertThat(field(integral, "x")).isEqualTo("x: long;");
      assertThat(integral.conflicts()).isEmpty();

      // a whole double a long cannot hold: 1e19 (past 2^63), and -0.0 (its sign)
      for (String d : List.of("{$numberDouble: '1e19'}", "{$numberDouble: '-0.0'}")) {
        InferredSchema notLong =
            infer("{_id: 1, x: {$numberLong: '9007199254740993'}}", "{_id: 2, x: " + d + "}");
        assertThat(field(notLong, "x")).as(d).isEqualTo("x: X;");
        assertThat(notLong.fbs()).as(d).contains("union X { XLong, XDouble }");
      }
    }

    @Test
    void otherTypesMapAsMappingMdSays() {
      InferredSchema s =
          infer(
              "{_id: {$oid: '65a1b2c3d4e5f60718293a4b'}, t: true, s: 'x', when: {$date: 0},"
                  + " price: {$numberDecimal: '1.10'}, blob: {$binary: {base64: 'AAE=', subType:"
                  + " '00'}}, ts: {$timestamp: {t: 1, i: 2}}, ref: {$oid:"
                  + " '65a1b2c3d4e5f60718293a4b'}}");
      assertThat(field(s, "id")).isEqualTo("id: string (bson: \"_id\");");
      assertThat(field(s, "t")).isEqualTo("t: bool;");
      assertThat(field(s, "s")).isEqualTo("s: string;");
      assertThat(field(s, "when_")).isEqualTo("when_: long (bson: \"when\");");
      assertThat(field(s, "price")).isEqualTo("price: string;");
      assertThat(field(s, "blob")).isEqualTo("blob: [ubyte];");
      assertThat(field(s, "ts")).isEqualTo("ts: ulong;");
      assertThat(field(s, "ref_")).isEqualTo("ref_: string (bson: \"ref\");");
      assertThat(s.fbs())
          .contains("a date maps to long: ms since the epoch")
          .contains("an ObjectId maps to its 24 hex digits")
          .contains("no (key): the records stay in _id order");
    }

    @Test
    void scalarsSometimesMissingOrNullAreOptional() {
      InferredSchema s =
          infer("{_id: 1, a: 1, b: 1, c: 's', d: true}", "{_id: 2, a: null, c: null, d: false}");
      assertThat(field(s, "a")).isEqualTo("a: int = null;");
      assertThat(field(s, "b")).isEqualTo("b: int = null;");
      assertThat(field(s, "c")).isEqualTo("c: string;");
      assertThat(field(s, "d")).isEqualTo("d: bool;");
      assertThat(s.fbs()).contains("a: int = null;  // 2 of 2 documents; int32: 1, null: 1");
    }

    @Test
    void narrowIntegersTakeTheSmallestWidthAndSayTheRange() {
      InferredSchema s =
          infer(
              true, "{_id: 1, a: 1, b: 300, c: {$numberLong: '5'}}", "{_id: 2, a: -3, b: 0, c: 7}");
      assertThat(field(s, "a")).isEqualTo("a: byte;");
      assertThat(field(s, "b")).isEqualTo("b: short;");
      assertThat(field(s, "c")).isEqualTo("c: byte;");
      assertThat(s.fbs()).contains("range -3..1");
    }

    @Test
    void arraysAreVectorsOfTheirElementsType() {
      InferredSchema s =
          infer(
              "{_id: 1, tags: ['a'], n: [1, {$numberLong: '2'}], e: [], docs: [{a: 1}, {b: 's'}]}");
      assertThat(field(s, "tags")).isEqualTo("tags: [string];");
      assertThat(field(s, "n")).isEqualTo("n: [long];");
      assertThat(field(s, "e")).isEqualTo("e: [string];");
      assertThat(field(s, "docs")).isEqualTo("docs: [Doc];");
      assertThat(s.fbs()).contains("always empty");
      assertThat(s.fbs()).contains("table Doc {\n  a: int = null;").contains("  b: string;");
      assertThat(s.conflicts()).isEmpty();
    }

    @Test
    void aPathOfSeveralTypesIsAUnionOfWrappersAndIsListed() {
      InferredSchema s =
          infer("{_id: 1, v: 'a'}", "{_id: 2, v: 'b'}", "{_id: 3, v: 7}", "{_id: 4, v: {x: 1}}");
      assertThat(field(s, "v")).isEqualTo("v: V;");
      assertThat(s.fbs())
          .contains("table VInt (wrapper) {\n  value: int;\n}")
          .contains("table VString (wrapper) {\n  value: string;\n}")
          .contains("table VDocument (wrapper) {\n  value: VObject;\n}")
          .contains("union V { VInt, VString, VDocument }");
      assertThat(s.conflicts())
          .singleElement()
          .hasToString(
              "v: string: 2, document: 1, int32: 1; a union V { VInt, VString, VDocument }: each"
                  + " value keeps its own type, no document is rejected for it");
      assertThat(s.fbs())
          .endsWith(
              "// Conflicts: paths whose values no one type holds without loss.\n"
                  + "// v: string: 2, document: 1, int32: 1; a union V { VInt, VString, VDocument"
                  + " }: each value keeps its own type, no document is rejected for it\n");
    }
  }

  @Nested
  class Shapes {
    @Test
    void documentsKeyedByCodesAreMapsWithOneValueType() {
      String[] codes = {"EUR", "USD", "CHF", "GBP", "JPY", "SEK", "NOK", "DKK"};
      List<String> docs = new ArrayList<>();
      for (int i = 0; i < codes.length; i++) {
        docs.add(
            "{_id: "
                + i
                + ", currencies: {"
                + codes[i]
                + ": {name: 'n', symbol: 's'}},"
                + " langs: {fra: 'French', eng: 'English', deu: 'German', ita: 'Italian',"
                + " spa: 'Spanish', por: 'Portuguese', nld: 'Dutch', swe: 'Swedish'}}");
      }
      InferredSchema s = infer(docs.toArray(String[]::new));
      assertThat(field(s, "currencies")).isEqualTo("currencies: [CurrenciesEntry] (map);");
      assertThat(s.fbs())
          .contains("attribute \"map\";")
          .contains("table CurrenciesEntry {\n  key: string (key);\n  value: Currency;\n}")
          .contains("table Currency {\n  name: string;");
      assertThat(field(s, "langs")).isEqualTo("langs: [LangsEntry] (map);");
      assertThat(s.maps())
          .containsExactly("currencies: 8 keys, each a code", "langs: 8 keys, each a code");

      // seven codes are not enough: a table of fields named like codes
      InferredSchema seven = infer(docs.subList(0, 7).toArray(String[]::new));
      assertThat(field(seven, "currencies")).isEqualTo("currencies: Currencies;");
    }

    @Test
    void documentsKeyedByIdsOrDatesAreMapsAndNullValuesOptional() {
      InferredSchema s =
          infer(
              "{_id: 1, daily: {'2024-01-01': 3, '2024-01-02': null}, by_user: {'17': true}}",
              "{_id: 2, daily: {'2024-01-03': 5}, by_user: {'65a1b2c3d4e5f60718293a4b': false}}");
      assertThat(field(s, "daily")).isEqualTo("daily: [DailyEntry] (map);");
      assertThat(s.fbs())
          .contains("table DailyEntry {\n  key: string (key);\n  value: int = null;\n}");
      assertThat(field(s, "by_user")).isEqualTo("by_user: [ByUserEntry] (map);");
    }

    @Test
    void keysThatOnlyDataHasStayAMapWhoseValuesAreOfSeveralKinds() {
      // scores per user id: mostly a number, sometimes a document; the ids are never field names
      InferredSchema s =
          infer(
              "{_id: 1, scores: {'65a1b2c3d4e5f60718293a4b': 3, '65a1b2c3d4e5f60718293a4c': 4}}",
              "{_id: 2, scores: {'65a1b2c3d4e5f60718293a4b': {v: 5}}, daily: {'2024-01-01': 1}}",
              "{_id: 3, daily: {'2024-01-02': 's'}}");
      assertThat(field(s, "scores")).isEqualTo("scores: [ScoresEntry] (map);");
      assertThat(field(s, "daily")).isEqualTo("daily: [DailyEntry] (map);");
      assertThat(s.fbs()).doesNotContain("65a1b2c3d4e5f60718293a4b:", "2024_01_01");
    }

    @Test
    void manyRareKeysAreAMapButFieldNamesOfSeveralKindsAreNot() {
      List<String> docs = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        docs.add(
            "{_id: "
                + i
                + ", tags: {tag"
                + i
                + ": "
                + i
                + "}, mixed: {f"
                + i
                + ": "
                + (i % 2 == 0 ? "1" : "'s'")
                + "}}");
      }
      InferredSchema s = infer(docs.toArray(String[]::new));
      assertThat(field(s, "tags")).isEqualTo("tags: [TagsEntry] (map);");
      assertThat(s.maps())
          .containsExactly("tags: 60 keys, half of them in at most 1 of 60 documents");
      assertThat(field(s, "mixed")).isEqualTo("mixed: Mixed;");
    }

    @Test
    void mapAndNoMapOverrideTheKeys() {
      SchemaInference inference =
          new SchemaInference(
              new SchemaInference.Options(
                  false, java.util.Set.of("attrs", "nope"), java.util.Set.of("daily")));
      inference.add(
          BsonDocument.parse("{_id: 1, attrs: {color: 'red'}, daily: {'2024-01-01': 1}}"));
      InferredSchema s = inference.schema("things", "test");
      assertThat(field(s, "attrs")).isEqualTo("attrs: [AttrsEntry] (map);");
      assertThat(field(s, "daily")).isEqualTo("daily: Daily;");
      assertThat(s.maps()).containsExactly("attrs: --map");
      assertThat(s.unusedOverrides()).containsExactly("--map nope");
    }

    @Test
    void arraysOfArraysAreVectorsOfWrappersAtEveryDepth() {
      InferredSchema s =
          infer(
              "{_id: 1, g: {type: 'Polygon', coordinates: [[[0.5, 1.5], [2.5, 3.5]]]}}",
              "{_id: 2, g: {type: 'Polygon', coordinates: [[[1.5, 2.5]]]}}");
      assertThat(field(s, "coordinates")).isEqualTo("coordinates: [CoordinateList];");
      assertThat(s.fbs())
          .contains("table CoordinateList (wrapper) {\n  value: [CoordinateList2];\n}")
          .contains("table CoordinateList2 (wrapper) {\n  value: [double];\n}");
      assertThat(s.conflicts()).isEmpty();

      // Polygon and MultiPolygon at one path: the third level holds numbers and arrays
      InferredSchema both =
          infer("{_id: 1, coordinates: [[[0.5, 1.5]]]}", "{_id: 2, coordinates: [[[[0.5, 1.5]]]]}");
      assertThat(both.fbs())
          .contains("union Coordinate { CoordinateDouble, CoordinateList3 }")
          .contains("table CoordinateItem (wrapper) {\n  value: Coordinate;\n}");
    }

    @Test
    void nullElementsAreKeptInWrappersAndMixedElementsWrapAUnion() {
      InferredSchema s =
          infer("{_id: 1, holes: [1, null, 0], mixed: ['a', 2, null, {x: 1}, [true]]}");
      assertThat(field(s, "holes")).isEqualTo("holes: [HoleValue];");
      assertThat(s.fbs()).contains("table HoleValue (wrapper) {\n  value: int = null;\n}");
      assertThat(field(s, "mixed")).isEqualTo("mixed: [MixedItem];");
      assertThat(s.fbs())
          .contains("table MixedItem (wrapper) {\n  value: Mixed;\n}")
          .contains(
              "union Mixed { MixedInt, MixedString, MixedBool2, MixedDocument, MixedList }"
                  .replace("MixedBool2, ", ""));
    }
  }

  @Nested
  class Tables {
    @Test
    void equalShapesShareOneTable() {
      InferredSchema s =
          infer(
              "{_id: 1, author: {name: 'a', age: 1}, editors: [{name: 'b', age: 2}],"
                  + " meta: {owner: {name: 'c', age: 3}, other: {name: 'd'}}}");
      assertThat(s.fbs()).containsOnlyOnce("  age: int;");
      assertThat(field(s, "author")).isEqualTo("author: Author;");
      assertThat(field(s, "editors")).isEqualTo("editors: [Author];");
      assertThat(field(s, "owner")).isEqualTo("owner: Author;");
      assertThat(field(s, "other")).isEqualTo("other: Other;");
      assertThat(s.fbs()).contains("// 3 values at: author, editors[], meta.owner");
    }

    @Test
    void tableNamesAvoidKeywordsAndEachOther() {
      InferredSchema s =
          infer("{_id: 1, string: {a: 1}, thing: {b: 1}, x: {thing: {c: 1}}, class: {d: 1}}");
      assertThat(field(s, "string_")).isEqualTo("string_: StringTable (bson: \"string\");");
      // the record table is Thing: the first other thing is named by its path, then numbered;
      // and its field thing is renamed, since C# refuses a member named as its type
      assertThat(s.fbs())
          .contains("  thing_2: Thing2 (bson: \"thing\");")
          .contains("  thing: XThing;")
          .contains("table Thing {")
          .contains("table Things {");
      assertThat(field(s, "class_")).isEqualTo("class_: ClassTable (bson: \"class\");");
    }
  }

  @Nested
  class FieldNames {
    @Test
    void becomeSafeIdentifiersWithTheirBsonNames() {
      InferredSchema s =
          infer(
              "{_id: 1, try: 1, type: 2, default: 3, 'created-at': 4, '+1': 5, _links: 6, AED: 7,"
                  + " createdAt: 8, id: 9, '': 10, 'a\"b': 11}");
      assertThat(field(s, "try_")).isEqualTo("try_: int (bson: \"try\");");
      assertThat(field(s, "type_")).isEqualTo("type_: int (bson: \"type\");");
      assertThat(field(s, "default_")).isEqualTo("default_: int (bson: \"default\");");
      assertThat(field(s, "created_at")).isEqualTo("created_at: int (bson: \"created-at\");");
      assertThat(field(s, "field_1")).isEqualTo("field_1: int (bson: \"+1\");");
      assertThat(field(s, "links")).isEqualTo("links: int (bson: \"_links\");");
      assertThat(field(s, "aed")).isEqualTo("aed: int (bson: \"AED\");");
      // createdAt would be createdAt in Java as created_at is: unique after renaming
      assertThat(field(s, "created_at_2")).isEqualTo("created_at_2: int (bson: \"createdAt\");");
      assertThat(field(s, "id")).isEqualTo("id: int (bson: \"_id\");");
      assertThat(field(s, "id_2")).isEqualTo("id_2: int (bson: \"id\");");
      // no schema can name an empty key: left out, and listed
      assertThat(s.fbs()).doesNotContain("(bson: \"\")");
      assertThat(s.conflicts())
          .anySatisfy(
              c -> assertThat(c.toString()).contains("a field with an empty name: left out"));
      assertThat(field(s, "a_b")).isEqualTo("a_b: int (bson: \"a\\\"b\");");
    }

    @Test
    void theSchemaCompilesAndEveryDocumentMaps(@TempDir Path dir) throws Exception {
      List<BsonDocument> docs = new ArrayList<>();
      docs.add(
          BsonDocument.parse(
              "{_id: 1, try: 1, type: 'x', default: 3.5, 'created-at': {$date: 5}, '+1': true,"
                  + " _links: {self: 'a', next: {self: 'b'}}, AED: 7, createdAt: 8, id: 9,"
                  + " string: {class: 1}, 'a\"b': [1, 2], tags: [], n: null, 'café': 1,"
                  + " '名前': 'n', things: {thing: 1}, empty: {}, empties: [{}, {}], nulls: null,"
                  + " tagsLength: 3, type_type: 1, s: 'x', s_byte_vector: 2}"));
      docs.add(
          BsonDocument.parse(
              "{_id: 2, try: 2, type: 'y', default: 3, _links: {self: 'c'}, createdAt:"
                  + " {$numberLong: '9'}, users: [{name: 'u', age: 1}, {name: 'v'}], n: 4}"));

      InferredExport export = InferredExport.of(dir, "things", docs);

      assertThat(export.rejects()).isEmpty();
      assertThat(export.verifyDifferences()).isEmpty();
      assertThat(export.verified().compared()).isEqualTo(2);
      assertThat(export.flatcRecords()).isEqualTo(2);
    }
  }

  @Test
  void theSameDocumentsGiveTheSameBytes() {
    String[] docs = {
      "{_id: 1, b: {x: 1}, a: [{y: 's'}], c: 'v'}", "{_id: 2, c: 3, d: {x: 2}, b: null}"
    };
    assertThat(infer(docs).fbs()).isEqualTo(infer(docs).fbs());
    assertThat(infer(docs).fbs())
        .startsWith(
            "// Inferred by flatdump infer from 2 documents: test.things.\n"
                + "// Each field's comment: in how many of its table's values it was present,"
                + " and the BSON types seen.\n"
                + "namespace inferred;\n\nattribute \"bson\";\nattribute \"wrapper\";\n\n"
                + "// 2 values at: b, d\ntable B {\n  x: int;  // 2 of 2; int32: 2\n}\n");
  }
}
