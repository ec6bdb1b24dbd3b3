package dev.flatdump.bench.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.flatdump.load.ExtendedJsonLoader;
import dev.flatdump.load.LoadSummary;
import dev.flatdump.testing.OrganizationsEngine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks the files in {@code sample-data/} with no database: the edge cases against the codec that
 * writes organizations, the malformed documents against the export's engine.
 */
class SampleDataTest {

  private static final Path SAMPLE_DATA = Path.of("sample-data");

  private final OrgCodec codec = new OrgCodec();

  private static List<RawBsonDocument> read(String name) {
    List<RawBsonDocument> documents = new ArrayList<>();
    LoadSummary summary =
        new ExtendedJsonLoader(
                1000, documents::addAll, error -> fail("sample data must be valid JSON: " + error))
            .load(SAMPLE_DATA.resolve(name));
    assertThat(summary.ok()).isTrue();
    return documents;
  }

  private static String id(RawBsonDocument document) {
    return document.getString("_id").getValue();
  }

  @Test
  void organizationsAreTheRealisticProfileWithSeed42() {
    List<RawBsonDocument> documents = read("organizations.jsonl.gz");
    List<Org> expected = new OrgGenerator(Profile.REALISTIC, 42).stream().limit(3_000).toList();

    assertThat(documents).hasSize(3_000);
    for (int i = 0; i < documents.size(); i++) {
      RawBsonDocument document = documents.get(i);
      assertThat(document.getObjectId("_id").getValue()).isEqualTo(OrgGenerator.objectId(42, i));
      assertThat(codec.decode(document)).isEqualTo(expected.get(i));
    }
  }

  @Test
  void organizationsRegenerateToTheSameText(@TempDir Path dir) throws IOException {
    Path regenerated = dir.resolve("organizations.jsonl.gz");
    try (var out = new ExtendedJsonFileWriter(regenerated)) {
      new SampleWriter(1000, out::writeAll)
          .write(new OrgGenerator(Profile.REALISTIC, 42), 3_000, n -> {});
      out.finish();
    }

    // Compares the uncompressed text: another zlib may compress the same text differently.
    assertThat(gunzip(regenerated))
        .isEqualTo(gunzip(SAMPLE_DATA.resolve("organizations.jsonl.gz")));
  }

  private static byte[] gunzip(Path file) throws IOException {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
      return in.readAllBytes();
    }
  }

  @Test
  void edgeCasesDecodeExactly() {
    Map<String, Org> decoded = new HashMap<>();
    for (RawBsonDocument document : read("edge-cases.jsonl")) {
      assertThat(decoded.put(id(document), codec.decode(document))).as(id(document)).isNull();
    }

    assertThat(decoded).containsExactlyInAnyOrderEntriesOf(expectedEdgeCases());
  }

  @Test
  void edgeCasesSurviveAnEncodeDecodeRoundTrip() {
    for (RawBsonDocument document : read("edge-cases.jsonl")) {
      Org org = codec.decode(document);
      assertThat(codec.decode(new RawBsonDocument(org, codec))).as(id(document)).isEqualTo(org);
    }
  }

  @Test
  void malformedDocumentsAreRejectedForTheReasonTheyState() {
    List<RawBsonDocument> documents = read("malformed.jsonl");
    var reasons = new HashSet<String>();

    assertThat(documents).hasSizeBetween(10, 15);
    for (RawBsonDocument document : documents) {
      String expected = document.getString("expect").getValue();
      assertThat(document.getString("comment").getValue()).as(id(document)).isNotBlank();
      assertThat(OrganizationsEngine.outcome(document)).as(id(document)).isEqualTo(expected);
      reasons.add(expected);
    }
    assertThat(reasons)
        .as("each malformed document shows another problem")
        .hasSize(documents.size());
  }

  private static Attr attr(
      String id, int quantity, int amount, int size, double percent, boolean active) {
    return new Attr(id, (byte) quantity, (byte) amount, (short) size, percent, active);
  }

  private static Map<String, Org> expectedEdgeCases() {
    return Map.of(
        "edge-empty", new Org("", "", "", OrgType.FOO, List.of()),
        "edge-unicode",
            new Org(
                "Ñandú 日本 \uD83C\uDFE2 \uD834\uDD1E \"quoted\"\\",
                "Café & Crème\u0000",
                "\uD83C\uDDEA\uD83C\uDDF8",
                OrgType.BAR,
                List.of(attr("\uD83D\uDE00", 1, 2, 4, 3.5, true))),
        "edge-min-max",
            new Org(
                "Extremes",
                "Limits",
                "AQ",
                OrgType.BAZ,
                List.of(
                    attr("min", -128, -128, -32768, 0.0, false),
                    attr("max", 127, 127, 32767, 100.0, true))),
        "edge-special-percent",
            new Org(
                "Specials",
                "Doubles",
                "NZ",
                OrgType.FOO,
                List.of(
                    attr("nan", 0, 0, 0, Double.NaN, true),
                    attr("inf", 0, 0, 0, Double.POSITIVE_INFINITY, true),
                    attr("-inf", 0, 0, 0, Double.NEGATIVE_INFINITY, true),
                    attr("-0", 0, 0, 0, -0.0, true),
                    attr("tiny", 0, 0, 0, Double.MIN_VALUE, true),
                    attr("huge", 0, 0, 0, -Double.MAX_VALUE, true))),
        "edge-widened",
            new Org(
                "Widened",
                "Numbers",
                "DE",
                OrgType.BAR,
                List.of(
                    attr("int64", 127, -128, -32768, 0x1p53, false),
                    attr("double", 5, 0, 32767, 50.0, true),
                    attr("int32", -1, 1, 1000, -3.0, true))),
        "edge-unknown-fields",
            new Org("Shuffled", "Order", "JP", OrgType.BAZ, List.of(attr("a", 5, 6, 7, 0.5, true))),
        "edge-repeats",
            new Org(
                "Repeats",
                "Banking",
                "US",
                OrgType.FOO,
                List.of(
                    attr("same", 1, 1, 1, 1.0, true),
                    attr("same", 1, 1, 1, 1.0, true),
                    attr("same", 1, 1, 1, 1.0, true),
                    attr("same", 2, 2, 2, 2.0, false))),
        "edge-canonical",
            new Org(
                "Canonical",
                "Formats",
                "FR",
                OrgType.BAZ,
                List.of(attr("c", -7, 8, -300, 12.345678901234567, false))));
  }
}
