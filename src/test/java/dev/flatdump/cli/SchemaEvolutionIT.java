package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export into an output directory whose current export was written with another schema: a
 * compatible change is exported, a breaking one refused unless {@code --allow-breaking}, and {@code
 * schema-diff} says the same against the export.
 */
@ExtendWith(MongoDbExtension.class)
class SchemaEvolutionIT {

  private static final String V1 =
      """
      attribute "bson";
      table Item { id: int (bson: "_id"); name: string; }
      table Items { items: [Item]; }
      root_type Items;
      """;

  @Test
  void aBreakingSchemaIsRefusedAgainstTheCurrentExportUnlessAllowed(
      MongoServer server, MongoDatabase db, @TempDir Path dir) throws Exception {
    List<BsonDocument> docs = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      docs.add(new BsonDocument("_id", new BsonInt32(i)).append("name", new BsonString("n" + i)));
    }
    db.getCollection("items", BsonDocument.class).insertMany(docs);
    Path out = dir.resolve("out");
    Path v1 = Files.writeString(dir.resolve("items.fbs"), V1);
    Path compatible =
        Files.writeString(
            dir.resolve("v2.fbs"), V1.replace("name: string; }", "name: string; size: int; }"));
    Path breaking =
        Files.writeString(dir.resolve("v3.fbs"), V1.replace("id: int (bson", "id: long (bson"));

    CliRun first = export(server, db, out, v1);
    assertThat(first.exitCode()).as(first.toString()).isZero();
    Path firstExport = ExportCommandIT.exported(out);

    CliRun refused = export(server, db, out, breaking);
    assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(2);
    assertThat(refused.err())
        .contains("--schema breaks the readers of the current export")
        .contains("breaking: Item.id (id 0): type int → long")
        .contains("--allow-breaking");
    assertThat(ExportCommandIT.exported(out)).isEqualTo(firstExport);

    CliRun diff = CliRun.of("schema-diff", out.toString(), breaking.toString());
    assertThat(diff.exitCode()).as(diff.toString()).isEqualTo(1);
    assertThat(diff.out()).contains("breaking: Item.id (id 0): type int → long");

    CliRun added = export(server, db, out, compatible);
    assertThat(added.exitCode()).as(added.toString()).isZero();
    Path secondExport = ExportCommandIT.exported(out);
    assertThat(secondExport).isNotEqualTo(firstExport);

    CliRun allowed = export(server, db, out, breaking, "--allow-breaking");
    assertThat(allowed.exitCode()).as(allowed.toString()).isZero();
    assertThat(ExportCommandIT.exported(out)).isNotEqualTo(secondExport);
  }

  /**
   * {@code infer --evolve}: documents gain a field and outgrow a field's type; the evolved schema
   * exports them strictly with no reject, {@code schema-diff} finds nothing breaking, and flatc
   * reading the new shard with the first schema sees the values its fields still hold.
   */
  @Test
  void anEvolvedSchemaKeepsTheFirstSchemasReadersReading(
      MongoServer server, MongoDatabase db, @TempDir Path dir) throws Exception {
    var coll = db.getCollection("evolving", BsonDocument.class);
    for (int i = 0; i < 10; i++) {
      coll.insertOne(
          new BsonDocument("_id", new BsonInt32(i))
              .append("name", new BsonString("n" + i))
              .append("created_at", new BsonString("2020-01-0" + i))
              .append("count", new BsonInt32(i)));
    }
    Path v1 = dir.resolve("v1.fbs");
    CliRun first = infer(server, db, "--out", v1.toString());
    assertThat(first.exitCode()).as(first.toString()).isZero();
    Path out = dir.resolve("out");
    CliRun firstExport = exportStrict(server, db, out, v1);
    assertThat(firstExport.exitCode()).as(firstExport.toString()).isZero();

    for (int i = 10; i < 15; i++) {
      coll.insertOne(
          new BsonDocument("_id", new BsonInt32(i))
              .append("name", new BsonString("n" + i))
              .append("created_at", new BsonInt32(1_600_000_000 + i)) // now a Unix time
              .append("count", new org.bson.BsonInt64(5_000_000_000L + i))
              .append("size", new BsonInt32(i)));
    }
    Path v2 = dir.resolve("v2.fbs");
    CliRun evolved = infer(server, db, "--evolve", v1.toString(), "--out", v2.toString());
    assertThat(evolved.exitCode()).as(evolved.toString()).isZero();
    assertThat(evolved.err()).contains("evolved from " + v1).contains("new field");

    CliRun diff = CliRun.of("schema-diff", v1.toString(), v2.toString());
    assertThat(diff.exitCode()).as(diff.toString()).isZero();
    CliRun second = exportStrict(server, db, out, v2);
    assertThat(second.exitCode()).as(second.toString()).isZero();
    CliRun verify = ExportCommandIT.verify(server, db, "evolving", out);
    assertThat(verify.exitCode()).as(verify.toString()).isZero();

    // flatc's Python for the evolved schema finds each value in the field that took it
    var python =
        dev.flatdump.testing.PythonReader.compare(out, server.uri(), db.getName(), "evolving");
    assertThat(python.exitCode()).as(python.output()).isZero();

    Path export = ExportCommandIT.exported(out);
    var manifest =
        dev.flatdump.artifact.Manifest.read(
            export.resolve(dev.flatdump.artifact.Manifest.FILE_NAME));
    var oldView =
        dev.flatdump.testing.SchemaFixtures.flatcJson(
                v1, export.resolve(manifest.shards().get(0).name()), "--raw-binary")
            .properties()
            .iterator()
            .next()
            .getValue(); // the root's one field: the records
    assertThat(oldView).hasSize(15);
    for (int i = 0; i < 15; i++) {
      var r = oldView.get(i);
      assertThat(r.get("name").asString()).isEqualTo("n" + i);
      assertThat(r.has("count")).as("record %s", i).isEqualTo(i > 0 && i < 10); // 0: default
      assertThat(r.has("created_at")).as("record %s", i).isEqualTo(i < 10);
    }
  }

  /**
   * {@code export --infer} into an output directory with a current export evolves from that
   * export's schema: documents gain a field and change a field's type, and a reader of the first
   * export's schema reads the second export.
   */
  @Test
  void exportInferEvolvesFromTheCurrentExport(
      MongoServer server, MongoDatabase db, @TempDir Path dir) throws Exception {
    var coll = db.getCollection("evolving", BsonDocument.class);
    for (int i = 0; i < 10; i++) {
      coll.insertOne(
          new BsonDocument("_id", new BsonInt32(i))
              .append("name", new BsonString("n" + i))
              .append("created_at", new BsonString("2020-01-0" + i)));
    }
    Path out = dir.resolve("out");
    CliRun first = exportInfer(server, db, out);
    assertThat(first.exitCode()).as(first.toString()).isZero();
    Path firstExport = ExportCommandIT.exported(out);
    Path v1 = dir.resolve("v1.fbs");
    Files.copy(firstExport.resolve("evolving.fbs"), v1);

    for (int i = 10; i < 15; i++) {
      coll.insertOne(
          new BsonDocument("_id", new BsonInt32(i))
              .append("name", new BsonString("n" + i))
              .append("created_at", new BsonInt32(1_600_000_000 + i))
              .append("tags", new org.bson.BsonArray(List.of(new BsonString("t" + i)))));
    }
    CliRun second = exportInfer(server, db, out);
    assertThat(second.exitCode()).as(second.toString()).isZero();
    assertThat(second.err())
        .contains("--infer: evolved from the current export's schema")
        .contains("new field");
    Path secondExport = ExportCommandIT.exported(out);
    assertThat(secondExport).isNotEqualTo(firstExport);
    CliRun diff = CliRun.of("schema-diff", v1.toString(), secondExport.toString());
    assertThat(diff.exitCode()).as(diff.toString()).isZero();
    CliRun verify = ExportCommandIT.verify(server, db, "evolving", out);
    assertThat(verify.exitCode()).as(verify.toString()).isZero();
    var python =
        dev.flatdump.testing.PythonReader.compare(out, server.uri(), db.getName(), "evolving");
    assertThat(python.exitCode()).as(python.output()).isZero();

    var manifest =
        dev.flatdump.artifact.Manifest.read(
            secondExport.resolve(dev.flatdump.artifact.Manifest.FILE_NAME));
    var oldView =
        dev.flatdump.testing.SchemaFixtures.flatcJson(
                v1, secondExport.resolve(manifest.shards().get(0).name()), "--raw-binary")
            .properties()
            .iterator()
            .next()
            .getValue();
    assertThat(oldView).hasSize(15);
    for (int i = 0; i < 15; i++) {
      var r = oldView.get(i);
      assertThat(r.get("name").asString()).isEqualTo("n" + i);
      assertThat(r.has("created_at")).as("record %s", i).isEqualTo(i < 10);
    }
  }

  private static CliRun exportInfer(MongoServer server, MongoDatabase db, Path out) {
    return ExportCommandIT.export(
        server,
        db,
        "evolving",
        out,
        "--infer",
        "--strict",
        "--compress",
        "none",
        "--max-rejects",
        "0",
        "--new-run");
  }

  private static CliRun infer(MongoServer server, MongoDatabase db, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "infer", "--uri", server.uri(), "--db", db.getName(), "--collection", "evolving"));
    args.addAll(List.of(more));
    return CliRun.of(args.toArray(String[]::new));
  }

  private static CliRun exportStrict(MongoServer server, MongoDatabase db, Path out, Path fbs) {
    return ExportCommandIT.export(
        server,
        db,
        "evolving",
        out,
        "--schema",
        fbs.toString(),
        "--strict",
        "--compress",
        "none",
        "--max-rejects",
        "0",
        "--new-run");
  }

  private static CliRun export(
      MongoServer server, MongoDatabase db, Path out, Path schema, String... more) {
    List<String> args =
        new ArrayList<>(List.of("--schema", schema.toString(), "--compress", "none", "--new-run"));
    args.addAll(List.of(more));
    return ExportCommandIT.export(server, db, "items", out, args.toArray(String[]::new));
  }
}
