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

  private static CliRun export(
      MongoServer server, MongoDatabase db, Path out, Path schema, String... more) {
    List<String> args =
        new ArrayList<>(List.of("--schema", schema.toString(), "--compress", "none", "--new-run"));
    args.addAll(List.of(more));
    return ExportCommandIT.export(server, db, "items", out, args.toArray(String[]::new));
  }
}
