package dev.flatdump.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Sorts;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgCodec;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.testing.BenchRun;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.util.ArrayList;
import java.util.List;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(MongoDbExtension.class)
class BenchGenerateCommandIT {

  private final OrgCodec codec = new OrgCodec();

  private static BenchRun generate(MongoServer server, MongoDatabase database, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "generate",
                "--uri",
                server.uri(),
                "--db",
                database.getName(),
                "--collection",
                "orgs"));
    args.addAll(List.of(more));
    return BenchRun.of(args.toArray(String[]::new));
  }

  @Test
  void insertsTheGeneratorsOrganizationsWithDeterministicIds(
      MongoServer server, MongoDatabase database) {
    BenchRun run =
        generate(server, database, "--orgs", "2500", "--profile", "article", "--seed", "5");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .startsWith(
            "Generated 2500 organizations (profile article, seed 5) into "
                + database.getName()
                + ".orgs in ");
    MongoCollection<RawBsonDocument> orgs = database.getCollection("orgs", RawBsonDocument.class);
    List<RawBsonDocument> stored = orgs.find().sort(Sorts.ascending("_id")).into(new ArrayList<>());
    List<Org> expected = new OrgGenerator(Profile.ARTICLE, 5).stream().limit(2500).toList();
    assertThat(stored).hasSize(2500);
    for (int i = 0; i < stored.size(); i++) {
      assertThat(stored.get(i).getObjectId("_id").getValue())
          .isEqualTo(OrgGenerator.objectId(5, i));
      assertThat(codec.decode(stored.get(i))).isEqualTo(expected.get(i));
    }
  }

  @Test
  void dropReplacesTheCollectionAndWithoutItTheSameIdsClash(
      MongoServer server, MongoDatabase database) {
    assertThat(generate(server, database, "--orgs", "10").exitCode()).isZero();

    BenchRun again = generate(server, database, "--orgs", "10");
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.err())
        .startsWith("flatdump: generating into " + database.getName() + ".orgs failed: ");
    assertThat(again.err()).contains("E11000");

    assertThat(generate(server, database, "--orgs", "20", "--drop").exitCode()).isZero();
    assertThat(database.getCollection("orgs").countDocuments()).isEqualTo(20);
  }
}
