package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Sorts;
import dev.flatdump.bench.samples.OrgCodec;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import dev.flatdump.testing.OrganizationsEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(MongoDbExtension.class)
class LoadCommandIT {

  private static final Path SAMPLE_DATA =
      Path.of(System.getProperty("flatdump.basedir", "")).resolve("sample-data");

  @TempDir Path dir;

  private final OrgCodec codec = new OrgCodec();

  private CliRun load(MongoServer server, MongoDatabase database, Path file, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "load",
                file.toString(),
                "--uri",
                server.uri(),
                "--db",
                database.getName(),
                "--collection",
                "orgs"));
    args.addAll(List.of(more));
    return CliRun.of(args.toArray(String[]::new));
  }

  private static MongoCollection<RawBsonDocument> orgs(MongoDatabase database) {
    return database.getCollection("orgs", RawBsonDocument.class);
  }

  @Test
  void loadsGoodLinesAndReportsBadOnesWithTheirLineNumbers(
      MongoServer server, MongoDatabase database) throws IOException {
    Path file = dir.resolve("mixed.jsonl");
    Files.writeString(
        file,
        "{\"_id\": 1, \"name\": \"one\"}\n"
            + "{\"_id\": 2, \"name\": \n"
            + "\n"
            + "{\"_id\": 3, \"name\": 3, \"attributes\": \"not validated\"}\n"
            + "this is not JSON\n"
            + "{\"_id\": 4, \"nested\": {\"a\": [1, {\"$numberLong\": \"2\"}]}}\n");

    CliRun run = load(server, database, file, "--batch-size", "2");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err().lines().toList())
        .hasSize(3)
        .satisfies(
            lines -> {
              assertThat(lines.get(0)).startsWith(file + ":2: not valid JSON: ");
              assertThat(lines.get(1)).startsWith(file + ":5: not valid JSON: ");
              assertThat(lines.get(2))
                  .isEqualTo(
                      "flatdump: loaded 3 documents from "
                          + file
                          + " into "
                          + database.getName()
                          + ".orgs; 2 bad lines left out");
            });
    List<BsonDocument> stored =
        database
            .getCollection("orgs", BsonDocument.class)
            .find()
            .sort(Sorts.ascending("_id"))
            .into(new ArrayList<>());
    assertThat(stored)
        .containsExactly(
            BsonDocument.parse("{\"_id\": 1, \"name\": \"one\"}"),
            BsonDocument.parse("{\"_id\": 3, \"name\": 3, \"attributes\": \"not validated\"}"),
            BsonDocument.parse("{\"_id\": 4, \"nested\": {\"a\": [1, {\"$numberLong\": \"2\"}]}}"));
  }

  @Test
  void loadsSampleDataAsItIsAndReadsBackTheSame(MongoServer server, MongoDatabase database) {
    for (String name : List.of("edge-cases.jsonl", "malformed.jsonl")) {
      Path file = SAMPLE_DATA.resolve(name);

      CliRun run = load(server, database, file, "--drop");

      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(run.out())
          .isEqualTo(
              "Loaded %d documents from %s into %s.orgs%n"
                  .formatted(lines(file).size(), file, database.getName()));
      List<RawBsonDocument> stored = orgs(database).find().into(new ArrayList<>());
      assertThat(stored).hasSize(lines(file).size());
      for (RawBsonDocument original : lines(file)) {
        RawBsonDocument back =
            orgs(database).find(new BsonDocument("_id", original.get("_id"))).first();
        assertThat(back).as(original.getString("_id").getValue()).isNotNull();
        if (name.startsWith("edge")) {
          assertThat(codec.decode(back)).isEqualTo(codec.decode(original));
        } else {
          assertThat(OrganizationsEngine.outcome(back))
              .as(original.getString("_id").getValue())
              .isEqualTo(original.getString("expect").getValue());
        }
      }
    }
  }

  @Test
  void loadsGzippedFiles(MongoServer server, MongoDatabase database) {
    CliRun run = load(server, database, SAMPLE_DATA.resolve("organizations.jsonl.gz"));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(orgs(database).countDocuments()).isEqualTo(3_000);
  }

  @Test
  void namesTheLineAnInsertFailedOn(MongoServer server, MongoDatabase database) throws IOException {
    Path file = dir.resolve("dups.jsonl");
    Files.writeString(file, "{\"_id\": 1}\n\n{\"_id\": 2}\n{\"_id\": 1}\n");

    CliRun run = load(server, database, file);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .startsWith("flatdump: " + file + ": inserting line 4 failed: E11000 duplicate key");
    assertThat(load(server, database, file, "--drop").exitCode()).isEqualTo(1);
  }

  private static List<RawBsonDocument> lines(Path file) {
    try {
      return Files.readAllLines(file).stream()
          .filter(l -> !l.isBlank())
          .map(RawBsonDocument::parse)
          .toList();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
