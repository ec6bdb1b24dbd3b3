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
import org.bson.BsonValue;
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
      assertThat(export.verified().differences()).as(profile.name()).isEmpty();
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
    assertThat(export.verified().differences()).isEmpty();
    assertThat(export.verified().compared()).isEqualTo(states.size());
    assertThat(export.flatcRecords()).isEqualTo(states.size());
  }

  @Test
  void narrowedIntegersHoldEveryStateAndCity(@TempDir Path dir) throws Exception {
    List<BsonDocument> states = PublicDatasets.states();

    InferredExport export = InferredExport.of(dir, "states", states, true);

    assertThat(export.schema().fbs()).contains("  country_id: short;").contains("  id: int;");
    assertThat(export.rejects()).isEmpty();
    assertThat(export.verified().differences()).isEmpty();
    assertThat(export.verified().compared()).isEqualTo(states.size());
  }

  @Test
  void emojiMapExceptTheArraysWhereMostHaveOneValueWhichAreListedConflicts(@TempDir Path dir)
      throws Exception {
    List<BsonDocument> emoji = PublicDatasets.emoji();

    InferredExport export = InferredExport.of(dir, "emoji", emoji);

    // an array where most documents have one value: the majority's type, the rest rejected
    assertThat(export.schema().conflicts())
        .extracting(c -> c.path() + ": " + c.seen())
        .containsExactly(
            "emoticon: string: 35, array: 14", "skins[].tone: int32: 1,650, array: 380");
    assertThat(export.schema().fbs())
        .contains("  emoticon: string;")
        .contains("  tone: int;")
        .contains("// emoticon: string: 35, array: 14; chose string, the majority");
    List<String> expected = new ArrayList<>();
    for (BsonDocument e : emoji) {
      if (e.isArray("emoticon")) {
        expected.add(e.get("_id") + "=emoticon: expected string, got array");
      } else if (e.containsKey("skins")) {
        List<BsonValue> skins = e.getArray("skins").getValues();
        for (int i = 0; i < skins.size(); i++) {
          if (skins.get(i).asDocument().isArray("tone")) {
            expected.add(e.get("_id") + "=skins[" + i + "].tone: expected int, got array");
            break;
          }
        }
      }
    }
    assertThat(expected).hasSize(33);
    assertThat(export.rejects().entrySet())
        .extracting(r -> r.getKey() + "=" + r.getValue())
        .containsExactlyElementsOf(expected);
    assertThat(export.verified().differences()).isEmpty();
    assertThat(export.verified().compared()).isEqualTo(emoji.size() - 33);
    assertThat(export.flatcRecords()).isEqualTo(emoji.size() - 33);
  }
}
