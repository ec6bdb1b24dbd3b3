package dev.flatdump.infer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.testing.OrganizationsEngine;
import dev.flatdump.testing.PublicDatasets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonObjectId;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The schema inferred from a collection's documents is one export takes as it is: flatc compiles
 * it, export's plan accepts it, every document maps (strict) and verify's oracle reads every value
 * back, on generated organizations and on two public datasets nobody here wrote.
 */
class InferredSchemaExportTest {

  @Test
  void everyGeneratedOrganizationMapsAndReadsBack(@TempDir Path dir) throws Exception {
    for (Profile profile : Profile.values()) {
      OrgGenerator generator = new OrgGenerator(profile, 42);
      List<BsonDocument> orgs = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        BsonDocument doc = new BsonDocument("_id", new BsonObjectId(generator.idOf(i)));
        new RawBsonDocument(OrganizationsEngine.bson(generator.next())).forEach(doc::append);
        orgs.add(doc);
      }

      InferredExport export = InferredExport.of(dir.resolve(profile.name()), "organizations", orgs);

      assertThat(export.rejects()).as(profile.name()).isEmpty();
      assertThat(export.verifyDifferences()).as(profile.name()).isEmpty();
      assertThat(export.verified().compared()).isEqualTo(300);
      assertThat(export.flatcRecords()).isEqualTo(300);
      assertThat(export.schema().conflicts()).isEmpty();
    }
  }

  @Test
  void everyStateWithItsCitiesMapsAndReadsBack(@TempDir Path dir) throws Exception {
    List<BsonDocument> states = PublicDatasets.states();

    InferredExport export = InferredExport.of(dir, "states", states);

    assertThat(export.rejects()).isEmpty();
    assertThat(export.verifyDifferences()).isEmpty();
    assertThat(export.verified().compared()).isEqualTo(states.size());
    assertThat(export.flatcRecords()).isEqualTo(states.size());
  }

  @Test
  void narrowedIntegersHoldEveryStateAndCity(@TempDir Path dir) throws Exception {
    List<BsonDocument> states = PublicDatasets.states();

    InferredExport export = InferredExport.of(dir, "states", states, true);

    assertThat(export.schema().fbs()).contains("  country_id: short;").contains("  id: int;");
    assertThat(export.rejects()).isEmpty();
    assertThat(export.verifyDifferences()).isEmpty();
    assertThat(export.verified().compared()).isEqualTo(states.size());
  }

  @Test
  void emojiWhoseArraysSometimesHoldOneValueMapThroughUnionsWithNoReject(@TempDir Path dir)
      throws Exception {
    List<BsonDocument> emoji = PublicDatasets.emoji();

    InferredExport export = InferredExport.of(dir, "emoji", emoji);

    // a string or an array of them: a union of both, so no document is rejected
    assertThat(export.schema().conflicts())
        .extracting(c -> c.path() + ": " + c.seen() + "; " + c.chosen())
        .containsExactly(
            "emoticon: string: 35, array: 14; a union Emoticon { EmoticonString, EmoticonList }:"
                + " each value keeps its own type, no document is rejected for it",
            "skins[].tone: int32: 1,650, array: 380; a union Tone { ToneInt, ToneList }: each"
                + " value keeps its own type, no document is rejected for it");
    assertThat(export.schema().fbs()).contains("  emoticon: Emoticon;").contains("  tone: Tone;");
    assertThat(export.rejects()).isEmpty();
    assertThat(export.flatcRecords()).isEqualTo(emoji.size());
    assertThat(export.verifyDifferences()).isEmpty();
    assertThat(export.verified().compared()).isEqualTo(emoji.size());
  }

  @Test
  void worldCountriesKeyedByCodesBecomeMapsAndEveryCountryMaps(@TempDir Path dir) throws Exception {
    List<BsonDocument> countries = PublicDatasets.worldCountries();

    InferredExport export = InferredExport.of(dir, "countries", countries);
    java.nio.file.Files.writeString(Path.of("/tmp/wc.fbs"), export.schema().fbs());

    assertThat(export.schema().maps())
        .extracting(m -> m.substring(0, m.indexOf(':')))
        .contains("name.native", "currencies", "languages");
    assertThat(export.schema().fbs())
        .contains("  currencies: [CurrenciesEntry] (map);")
        .contains("table CurrenciesEntry {\n  key: string (key);\n  value: Currency;\n}");
    assertThat(export.rejects()).isEmpty();
    assertThat(export.flatcRecords()).isEqualTo(countries.size());
    assertThat(export.verifyDifferences()).isEmpty();
    assertThat(export.verified().compared()).isEqualTo(countries.size());
  }

  @Test
  void everyWebhookPayloadMapsWithUnionsWhereTheTypeVaries(@TempDir Path dir) throws Exception {
    List<BsonDocument> payloads = PublicDatasets.webhooks();

    InferredExport export = InferredExport.of(dir, "webhooks", payloads);
    java.nio.file.Files.writeString(Path.of("/tmp/wh.fbs"), export.schema().fbs());

    assertThat(export.schema().fbs()).contains("union CreatedAt { CreatedAtInt, CreatedAtString }");
    assertThat(export.rejects()).isEmpty();
    assertThat(export.flatcRecords()).isEqualTo(payloads.size());
    assertThat(export.verifyDifferences()).isEmpty();
    assertThat(export.verified().compared()).isEqualTo(payloads.size());
  }
}
