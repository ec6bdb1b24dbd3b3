package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import dev.flatdump.bench.samples.Attr;
import dev.flatdump.bench.samples.InvalidDocumentException;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgCodec;
import dev.flatdump.source.BadInputCorpus;
import dev.flatdump.source.BadInputCorpus.Case;
import dev.flatdump.testing.ExportedOrgs;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The bad-input corpus through a real mongod: every document is either exported exactly (bit for
 * bit, percent included) or rejected with exactly its expected reason, and {@code read = exported +
 * rejected}.
 */
@ExtendWith(MongoDbExtension.class)
class BadInputExportIT {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String COLLECTION = "orgs";

  private final OrgCodec codec = new OrgCodec();

  @Test
  void exportsOrRejectsEveryBadInputDocumentExactly(
      MongoServer server, MongoDatabase db, @TempDir Path out) throws Exception {
    List<Case> cases = new ArrayList<>(BadInputCorpus.committed());
    CliRun load =
        CliRun.of(
            "load",
            BadInputCorpus.file().toString(),
            "--uri",
            server.uri(),
            "--db",
            db.getName(),
            "--collection",
            COLLECTION);
    assertThat(load.exitCode()).as(load.toString()).isZero();
    List<Case> generated = BadInputCorpus.generated();
    var collection = db.getCollection(COLLECTION, RawBsonDocument.class);
    generated.forEach(c -> collection.insertOne(c.document()));
    cases.addAll(generated);
    assertThat(collection.countDocuments()).isEqualTo(cases.size());

    exportAndCheck(server, db, out, cases);
  }

  /**
   * Table de-dup keys {@code percent} on {@link Double#doubleToLongBits}, which makes all NaNs one:
   * the second twin is exported with the first twin's NaN, and {@code verify} then reports the
   * difference. Enable once the encoder keys on the raw bits.
   */
  @Test
  void keepsNaNPayloadsApartWhenSharingAttributeTables(
      MongoServer server, MongoDatabase db, @TempDir Path out) throws Exception {
    Case twins = BadInputCorpus.nanPayloadTwins();
    db.getCollection(COLLECTION, RawBsonDocument.class).insertOne(twins.document());

    exportAndCheck(server, db, out, List.of(twins));
  }

  /**
   * A duplicate after all six schema fields. An inclusion projection of those fields would stop
   * after the first six it finds and export the document with the first value; the reader reads
   * whole documents, so the codec sees the duplicate and rejects it.
   */
  @Test
  void rejectsADuplicateFieldAfterAllSchemaFields(
      MongoServer server, MongoDatabase db, @TempDir Path out) throws Exception {
    Case duplicate = BadInputCorpus.trailingDuplicate();
    // with a document that fits: an export that rejects every document fails
    Case fits =
        BadInputCorpus.committed().stream().filter(Case::exported).findFirst().orElseThrow();
    db.getCollection(COLLECTION, RawBsonDocument.class).insertOne(duplicate.document());
    db.getCollection(COLLECTION, RawBsonDocument.class).insertOne(fits.document());

    exportAndCheck(server, db, out, List.of(duplicate, fits));
  }

  private void exportAndCheck(MongoServer server, MongoDatabase db, Path out, List<Case> cases)
      throws Exception {
    CliRun export =
        CliRun.of(
            "export",
            "--schema",
            Path.of("schemas", "organizations.fbs").toAbsolutePath().toString(),
            "--uri",
            server.uri(),
            "--db",
            db.getName(),
            "--collection",
            COLLECTION,
            "--out",
            out.toString(),
            "--compress",
            "none",
            "--max-rejects",
            "none");

    Map<String, Case> byId = new HashMap<>();
    cases.forEach(c -> byId.put(c.id(), c));
    Map<String, String> expectedRejects = new LinkedHashMap<>();
    cases.stream().filter(c -> !c.exported()).forEach(c -> expectedRejects.put(c.id(), c.expect()));
    assertThat(export.exitCode())
        .as(export.toString())
        .isEqualTo(expectedRejects.isEmpty() ? 0 : Flatdump.EXIT_REJECTS);
    assertThat(rejects(out)).containsExactlyInAnyOrderEntriesOf(expectedRejects);

    // The artifact holds no _id: its organizations are the exported documents in _id order.
    List<Case> exported = new ArrayList<>();
    for (BsonDocument d :
        db.getCollection(COLLECTION, BsonDocument.class)
            .find()
            .projection(Projections.include("_id"))
            .sort(Sorts.ascending("_id"))) {
      Case c = byId.get(d.getString("_id").getValue());
      if (c.exported()) {
        exported.add(c);
      }
    }
    List<Org> artifact = ExportedOrgs.read(out);
    assertThat(artifact).hasSameSizeAs(exported);
    for (int i = 0; i < exported.size(); i++) {
      Case c = exported.get(i);
      Org expected;
      try {
        expected = codec.decode(c.document());
      } catch (InvalidDocumentException e) {
        // exported by a rule the articles' codec does not have (a decimal or an ObjectId as a
        // string, a scalar left out): verify below compares it by the mapping rules
        continue;
      }
      assertSameOrg(c.id(), artifact.get(i), expected);
    }

    JsonNode records =
        JSON.readTree(Files.readString(ExportCommandIT.exported(out).resolve("report.json")))
            .at("/records");
    assertThat(records.get("read").asLong()).isEqualTo(cases.size());
    assertThat(records.get("exported").asLong()).isEqualTo(exported.size());
    assertThat(records.get("rejected").asLong()).isEqualTo(expectedRejects.size());

    CliRun verify = ExportCommandIT.verify(server, db, COLLECTION, out);
    assertThat(verify.exitCode()).as(verify.toString()).isZero();
  }

  /** {@code rejects.jsonl} as {@code _id -> field: reason}; fails on an {@code _id} seen twice. */
  private static Map<String, String> rejects(Path out) throws Exception {
    Map<String, String> rejects = new LinkedHashMap<>();
    for (String line :
        Files.readAllLines(
            ExportCommandIT.exported(out).resolve("rejects.jsonl"), StandardCharsets.UTF_8)) {
      JsonNode n = JSON.readTree(line);
      String id = n.get("_id").asString();
      String previous =
          rejects.put(id, n.get("field").asString() + ": " + n.get("reason").asString());
      assertThat(previous).as("rejected twice: " + id).isNull();
    }
    return rejects;
  }

  /** Field by field, with {@code percent} compared by its raw bits (NaN payloads, -0.0). */
  private static void assertSameOrg(String id, Org actual, Org expected) {
    assertThat(actual.name()).as(id + " name").isEqualTo(expected.name());
    assertThat(actual.category()).as(id + " category").isEqualTo(expected.category());
    assertThat(actual.country()).as(id + " country").isEqualTo(expected.country());
    assertThat(actual.type()).as(id + " type").isEqualTo(expected.type());
    assertThat(actual.attributes()).as(id + " attributes").hasSameSizeAs(expected.attributes());
    for (int i = 0; i < expected.attributes().size(); i++) {
      Attr a = actual.attributes().get(i);
      Attr e = expected.attributes().get(i);
      String where = id + " attributes[" + i + "]";
      assertThat(a).as(where).isEqualTo(e);
      assertThat(Long.toHexString(Double.doubleToRawLongBits(a.percent())))
          .as(where + ".percent bits")
          .isEqualTo(Long.toHexString(Double.doubleToRawLongBits(e.percent())));
    }
  }
}
