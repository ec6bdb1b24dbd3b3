package dev.flatdump.artifact.write;

import static dev.flatdump.testing.SchemaFixtures.bson;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.ShardFile;
import dev.flatdump.artifact.read.RecordJson;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Shards of a schema of its own, read back by flatc and by {@link RecordJson}. */
class SchemaShardWriterTest {

  private static final String SCHEMA =
      """
      enum Kind : byte { Town, City }
      struct LatLng { lat: double; lng: double; }
      table Place { name: string (required); kind: Kind; at: LatLng; tags: [string]; }
      table State { code: string; name: string; places: [Place]; }
      table States { states: [State]; }
      root_type States;
      file_identifier "STAT";
      """;

  @TempDir Path dir;

  private static String state(int i) {
    return "{\"_id\": "
        + i
        + ", \"code\": \"S"
        + i
        + "\", \"name\": \"State number "
        + i
        + "\", \"places\": [{\"name\": \"Capital\", \"kind\": \"City\","
        + " \"at\": {\"lat\": 1.5, \"lng\": -2.25}, \"tags\": [\"big\", \"old\"]},"
        + " {\"name\": \"Village "
        + i
        + "\", \"tags\": [\"small\"]}]}";
  }

  @Test
  void splitsIntoShardsThatFlatcAndTheJsonReaderReadAlike() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    Path out = Files.createDirectories(dir.resolve("out"));
    SchemaShardWriter writer =
        new SchemaShardWriter(
            out, "states", fx.plan, Sharing.Kinds.ALL, false, 2048, List.of(), 1024);
    int done = 0;
    for (int i = 0; i < 60; i++) {
      byte[] doc = bson(state(i));
      var outcome = (SchemaShardWriter.Outcome.Exported) writer.add(null, doc, 0, doc.length);
      done += outcome.shardDone() ? 1 : 0;
    }
    writer.finish();

    List<ShardFile> shards = writer.shards();
    assertThat(shards).hasSizeGreaterThan(2);
    assertThat(done).isEqualTo(shards.size() - 1);
    assertThat(shards.stream().mapToLong(ShardFile::records).sum()).isEqualTo(60);
    RecordJson json = new RecordJson(fx.plan);
    List<String> names = new ArrayList<>();
    for (ShardFile s : shards) {
      ByteBuffer data = ByteBuffer.wrap(Files.readAllBytes(out.resolve(s.fileName())));
      assertThat(Files.size(out.resolve(s.fileName()))).isLessThanOrEqualTo(2048 + 1024);
      assertThat(Checksums.sha256(out.resolve(s.fileName()))).isEqualTo(s.sha256());
      JsonNode flatc = fx.flatcRecords(data);
      assertThat(json.count(data)).isEqualTo(flatc.size()).isEqualTo((int) s.records());
      for (int i = 0; i < json.count(data); i++) {
        assertThat(SchemaFixtures.json(json.record(data, i))).isEqualTo(flatc.get(i));
        names.add(flatc.get(i).get("code").asString());
      }
    }
    assertThat(names).first().isEqualTo("S0");
    assertThat(names).last().isEqualTo("S59");
    assertThat(writer.counts())
        .filteredOn(c -> c.kind().equals("Place"))
        .singleElement()
        .satisfies(c -> assertThat(c.unique()).isLessThan(c.total()));
  }

  @Test
  void rejectsADocumentAndGoesOnWithTheNext() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    Path out = Files.createDirectories(dir.resolve("out"));
    SchemaShardWriter writer =
        new SchemaShardWriter(
            out, "states", fx.plan, Sharing.Kinds.ALL, false, 1 << 20, List.of(), 1 << 20);
    byte[] bad = bson("{\"code\": \"X\", \"places\": [{\"kind\": \"Town\"}]}");
    byte[] good = bson(state(1));

    var rejected = (SchemaShardWriter.Outcome.Rejected) writer.add(null, bad, 0, bad.length);
    writer.add(null, good, 0, good.length);
    writer.finish();

    assertThat(rejected.reject().field() + ": " + rejected.reject().reason())
        .isEqualTo("places[0].name: required, and missing or null");
    ByteBuffer data =
        ByteBuffer.wrap(Files.readAllBytes(out.resolve(writer.shards().get(0).fileName())));
    assertThat(writer.shards().get(0).records()).isEqualTo(1);
    assertThat(fx.flatcRecords(data).get(0).get("code").asString()).isEqualTo("S1");
  }

  @Test
  void writesOneEmptyShardForNoDocuments() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    SchemaShardWriter writer =
        new SchemaShardWriter(
            dir, "states", fx.plan, Sharing.Kinds.ALL, false, 4096, List.of(), 1024);

    writer.finish();

    assertThat(writer.shards()).singleElement().satisfies(s -> assertThat(s.records()).isZero());
    ByteBuffer data = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("states-00000.fb")));
    assertThat(new RecordJson(fx.plan).count(data)).isZero();
  }
}
