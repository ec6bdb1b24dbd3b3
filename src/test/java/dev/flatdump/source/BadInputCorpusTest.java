package dev.flatdump.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.bench.samples.Attr;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgCodec;
import dev.flatdump.source.BadInputCorpus.Case;
import dev.flatdump.testing.OrganizationsEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks the bad-input corpus itself against the export's engine on the bundled {@code
 * organizations.fbs}, with no database.
 */
class BadInputCorpusTest {

  /** The BSON types each field is tried with, as the codec names them. */
  private static final List<String> TYPES =
      List.of(
          "string",
          "int32",
          "int64",
          "double",
          "decimal128",
          "boolean",
          "document",
          "array",
          "objectId",
          "date",
          "binary",
          "regex",
          "timestamp",
          "minKey",
          "maxKey");

  private static final List<Case> COMMITTED = BadInputCorpus.committed();

  private final OrgCodec codec = new OrgCodec();

  static List<Case> committed() {
    return COMMITTED;
  }

  static List<Case> generated() {
    return BadInputCorpus.generated();
  }

  /** What the export does with the document: {@code exported} or {@code field: reason}. */
  private static String outcome(Case c) {
    return OrganizationsEngine.outcome(c.document());
  }

  @Test
  void holdsAtLeastFortyDocumentsInASmallFile() throws IOException {
    assertThat(COMMITTED).hasSizeGreaterThanOrEqualTo(40);
    assertThat(Files.size(BadInputCorpus.file())).isLessThan(200_000);
  }

  @Test
  void namesEveryDocumentWithAUniqueId() {
    List<String> ids = new ArrayList<>();
    COMMITTED.forEach(c -> ids.add(c.id()));
    generated().forEach(c -> ids.add(c.id()));
    ids.add(BadInputCorpus.nanPayloadTwins().id());
    ids.add(BadInputCorpus.trailingDuplicate().id());

    assertThat(ids).allSatisfy(id -> assertThat(id).matches("[a-z0-9]+(-[a-zA-Z0-9]+)*"));
    assertThat(ids).doesNotHaveDuplicates();
  }

  @Test
  void givesEveryDocumentACommentAndAnExpectation() {
    assertThat(Stream.concat(COMMITTED.stream(), generated().stream()))
        .allSatisfy(
            c -> {
              assertThat(c.comment()).as(c.id()).isNotBlank();
              assertThat(c.expect())
                  .as(c.id())
                  .matches(
                      "exported|(name|category|country|type|attributes)(\\[\\d+\\]"
                          + "(\\.(id|quantity|amount|active|percent|size|note))?)?: .+");
            });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("committed")
  void decodesEachCommittedDocumentAsItExpects(Case c) {
    assertThat(outcome(c)).isEqualTo(c.expect());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("generated")
  void decodesEachGeneratedDocumentAsItExpects(Case c) {
    assertThat(outcome(c)).isEqualTo(c.expect());
  }

  @Test
  void decodesTheKnownBugCasesAsTheyExpect() {
    assertThat(outcome(BadInputCorpus.nanPayloadTwins())).isEqualTo(BadInputCorpus.EXPORTED);
    assertThat(outcome(BadInputCorpus.trailingDuplicate()))
        .isEqualTo("name: the field appears twice in the document");
  }

  /**
   * Every field missing, null, and as every BSON type: a case each, named {@code FIELD-missing},
   * {@code FIELD-null} and {@code FIELD-TYPE} ({@code attribute-quantity-string}).
   */
  @Test
  void triesEveryFieldMissingNullAndAsEveryWrongType() {
    Set<String> ids = COMMITTED.stream().map(Case::id).collect(Collectors.toSet());
    Map<String, Set<String>> accepted =
        Map.ofEntries(
            Map.entry("name", Set.of("string")),
            Map.entry("category", Set.of("string")),
            Map.entry("country", Set.of("string")),
            Map.entry("type", Set.of("string")),
            Map.entry("attributes", Set.of("array")),
            Map.entry("attribute", Set.of("document")),
            Map.entry("attribute-id", Set.of("string")),
            Map.entry("attribute-quantity", Set.of("int32", "int64", "double")),
            Map.entry("attribute-amount", Set.of("int32", "int64", "double")),
            Map.entry("attribute-size", Set.of("int32", "int64", "double")),
            Map.entry("attribute-percent", Set.of("double", "int32", "int64", "decimal128")),
            Map.entry("attribute-active", Set.of("boolean")));
    List<String> missing = new ArrayList<>();
    accepted.forEach(
        (field, ok) -> {
          List<String> wanted = new ArrayList<>();
          wanted.add(field + "-null");
          if (!field.equals("attribute")) {
            wanted.add(field + "-missing");
          }
          TYPES.stream()
              .filter(t -> !ok.contains(t))
              .forEach(t -> wanted.add(field + "-" + (t.equals("boolean") ? "bool" : t)));
          wanted.stream().filter(w -> !ids.contains(w)).forEach(missing::add);
        });
    assertThat(missing).as("cases the corpus lacks").isEmpty();
  }

  @Test
  void triesOnePastEachIntegerBoundAndTheBoundsThemselves() {
    Map<String, Case> byId =
        COMMITTED.stream().collect(Collectors.toMap(Case::id, c -> c, (a, b) -> a));
    for (String as : List.of("int32", "int64", "double")) {
      for (String field : List.of("quantity", "amount")) {
        assertThat(byId.get(field + "-minus-129-" + as).expect())
            .isEqualTo("attributes[1]." + field + ": -129 out of range for byte");
        assertThat(byId.get(field + "-128-" + as).expect())
            .isEqualTo("attributes[1]." + field + ": 128 out of range for byte");
      }
      assertThat(byId.get("size-minus-32769-" + as).expect())
          .isEqualTo("attributes[1].size: -32769 out of range for short");
      assertThat(byId.get("size-32768-" + as).expect())
          .isEqualTo("attributes[1].size: 32768 out of range for short");
    }
    for (String field : List.of("quantity", "amount", "size")) {
      for (String as : List.of("int32", "int64", "double")) {
        assertThat(byId.get(field + "-bounds-" + as)).isNotNull().matches(Case::exported);
      }
    }
  }

  @Test
  void keepsNaNPayloadsBitForBit() {
    Case nans =
        generated().stream()
            .filter(c -> c.id().equals("gen-percent-nan-payloads"))
            .findFirst()
            .orElseThrow();
    List<Attr> attributes = codec.decode(nans.document()).attributes();

    assertThat(attributes).hasSize(BadInputCorpus.NAN_BITS.length);
    for (int i = 0; i < attributes.size(); i++) {
      assertThat(Long.toHexString(Double.doubleToRawLongBits(attributes.get(i).percent())))
          .isEqualTo(Long.toHexString(BadInputCorpus.NAN_BITS[i]));
    }
  }

  @Test
  void generatesHugeDocumentsUpToMongoDbsSizeLimit() {
    Map<String, Case> byId = generated().stream().collect(Collectors.toMap(Case::id, c -> c));

    assertThat(byId.get("gen-exactly-16mib").document().getByteBuffer().remaining())
        .isEqualTo(BadInputCorpus.MAX_BSON_SIZE);
    assertThat(byId.get("gen-near-16mb-attributes").document().getByteBuffer().remaining())
        .isBetween(16_670_000, BadInputCorpus.MAX_BSON_SIZE - 1);
    Org oneMiB = codec.decode(byId.get("gen-name-1mib-ascii").document());
    assertThat(oneMiB.name()).hasSize(1 << 20).startsWith("Acme Acme ");
    Org emoji = codec.decode(byId.get("gen-name-1mib-emoji").document());
    assertThat(emoji.name()).hasSize(1 << 19);
    assertThat(emoji.name().codePointCount(0, emoji.name().length())).isEqualTo(1 << 18);
    assertThat(codec.decode(byId.get("gen-attributes-100000").document()).attributes())
        .hasSize(100_000);
  }
}
