package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.bench.samples.Attr;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.testing.ExportedOrgs;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The committed sample data through load and export: rejects with reasons, and an independent
 * reader.
 */
@ExtendWith(MongoDbExtension.class)
class SampleDataExportIT {

  private static final Path SAMPLES =
      Path.of(System.getProperty("flatdump.basedir", ".")).resolve("sample-data");
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static void load(MongoServer server, MongoDatabase db, String file) {
    CliRun run =
        CliRun.of(
            "load",
            SAMPLES.resolve(file).toString(),
            "--uri",
            server.uri(),
            "--db",
            db.getName(),
            "--collection",
            "orgs");
    assertThat(run.exitCode()).as(run.toString()).isZero();
  }

  @Test
  void malformedSampleDocumentsLandInRejectsWithTheirReasons(
      MongoServer server, MongoDatabase db, @TempDir Path out) throws Exception {
    load(server, db, "edge-cases.jsonl");
    load(server, db, "malformed.jsonl");
    // most of these documents are there to be rejected: no limit, and exit 3 for the rejects
    CliRun run = ExportCommandIT.export(server, db, "orgs", out, "--max-rejects", "none");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Flatdump.EXIT_REJECTS);

    Map<String, String> expected = new HashMap<>();
    for (String line :
        Files.readAllLines(SAMPLES.resolve("malformed.jsonl"), StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        BsonDocument d = BsonDocument.parse(line);
        expected.put(d.get("_id").asString().getValue(), d.getString("expect").getValue());
      }
    }
    Map<String, String> actual = new HashMap<>();
    for (String line :
        Files.readAllLines(
            ExportCommandIT.exported(out).resolve("rejects.jsonl"), StandardCharsets.UTF_8)) {
      JsonNode n = JSON.readTree(line);
      actual.put(
          n.get("_id").asString(), n.get("field").asString() + ": " + n.get("reason").asString());
    }
    assertThat(actual).isEqualTo(expected);

    long edgeCases =
        Files.readAllLines(SAMPLES.resolve("edge-cases.jsonl")).stream()
            .filter(l -> !l.isBlank())
            .count();
    JsonNode report =
        JSON.readTree(Files.readString(ExportCommandIT.exported(out).resolve("report.json")));
    assertThat(report.at("/records/rejected").asLong()).isEqualTo(expected.size());
    assertThat(report.at("/records/exported").asLong()).isEqualTo(edgeCases);
    assertThat(report.at("/records/read").asLong()).isEqualTo(edgeCases + expected.size());

    CliRun verify = ExportCommandIT.verify(server, db, "orgs", out);
    assertThat(verify.exitCode()).as(verify.toString()).isZero();
  }

  @Test
  void maxRejectsFailsTheJobOnceExceeded(MongoServer server, MongoDatabase db, @TempDir Path out) {
    load(server, db, "malformed.jsonl");
    CliRun run = ExportCommandIT.export(server, db, "orgs", out, "--max-rejects", "2");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.err()).contains("more than --max-rejects 2");
    assertThat(out.resolve("CURRENT")).doesNotExist();
    assertThat(out.resolve("exports")).doesNotExist();
  }

  @Test
  void flatcReadsTheArtifactAsTheSameRecords(
      MongoServer server, MongoDatabase db, @TempDir Path out) throws Exception {
    load(server, db, "organizations.jsonl.gz");
    load(server, db, "edge-cases.jsonl");
    CliRun run = ExportCommandIT.export(server, db, "orgs", out, "--compress", "none");
    assertThat(run.exitCode()).as(run.toString()).isZero();

    Path flatc = Path.of(System.getProperty("flatdump.flatc"));
    Path schema =
        Path.of(System.getProperty("flatdump.basedir")).resolve("schemas/organizations.fbs");
    Process p =
        new ProcessBuilder(
                flatc.toString(),
                "--json",
                "--strict-json",
                "--defaults-json",
                "-o",
                out.toString(),
                schema.toString(),
                "--",
                ExportCommandIT.exported(out).resolve("organizations.fb").toString())
            .redirectErrorStream(true)
            .start();
    String flatcOut = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(flatcOut).isZero();

    // flatc writes non-finite doubles as bare nan/inf/-inf, which is not JSON: quote them
    String text =
        Files.readString(out.resolve("organizations.json"))
            .replaceAll("(\"percent\":\\s*)(-?inf|[-+]?nan)", "$1\"$2\"");
    JsonNode root = JSON.readTree(text);
    List<Org> ours = ExportedOrgs.read(out);
    JsonNode orgs = root.get("organizations");
    assertThat(orgs.size()).isEqualTo(ours.size());
    for (int i = 0; i < ours.size(); i++) {
      Org o = ours.get(i);
      JsonNode j = orgs.get(i);
      assertThat(j.get("name").asString()).isEqualTo(o.name());
      assertThat(j.get("category").asString()).isEqualTo(o.category());
      assertThat(j.get("country").asString()).isEqualTo(o.country());
      assertThat(j.get("type").asString()).isEqualTo(o.type().name());
      JsonNode attrs = j.get("attributes");
      assertThat(attrs == null ? 0 : attrs.size()).isEqualTo(o.attributes().size());
      for (int k = 0; k < o.attributes().size(); k++) {
        Attr a = o.attributes().get(k);
        JsonNode ja = attrs.get(k);
        assertThat(ja.get("id").asString()).isEqualTo(a.id());
        assertThat(ja.get("quantity").asInt()).isEqualTo(a.quantity());
        assertThat(ja.get("amount").asInt()).isEqualTo(a.amount());
        assertThat(ja.get("size").asInt()).isEqualTo(a.size());
        assertThat(ja.get("active").asBoolean()).isEqualTo(a.active());
        if (Double.isFinite(a.percent())) {
          // flatc prints doubles with 12 decimals (tiny values as 0); exact bits are checked by
          // verify
          assertThat(ja.get("percent").asDouble())
              .isCloseTo(
                  a.percent(),
                  org.assertj.core.data.Offset.offset(
                      Math.max(Math.abs(a.percent()) * 1e-11, 1e-12)));
        } else {
          // flatc writes nan/inf as strings in strict JSON
          assertThat(ja.get("percent").asString().toLowerCase())
              .contains(Double.isNaN(a.percent()) ? "nan" : "inf");
        }
      }
    }
  }
}
