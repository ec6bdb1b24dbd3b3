package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.file.Path;
import java.util.stream.IntStream;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --max-rejects} and the exit codes through the command line against a real mongod: an
 * export that rejects every document, or more than its limit, fails and publishes nothing; one with
 * rejects within its limit publishes and exits {@value Flatdump#EXIT_REJECTS}; a clean one exits 0.
 */
@ExtendWith(MongoDbExtension.class)
class RejectLimitsIT {

  /** {@code n} documents the bundled schema rejects: a number where it wants a string. */
  private static void insertBad(MongoDatabase db, String collection, int n) {
    db.getCollection(collection)
        .insertMany(
            IntStream.range(0, n)
                .mapToObj(i -> new Document("_id", "bad-" + i).append("name", i))
                .toList());
  }

  private static void assertNothingPublished(CliRun run, Path out) {
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Flatdump.EXIT_FAILED);
    assertThat(run.err()).contains("nothing is published");
    assertThat(out.resolve("current")).doesNotExist();
    assertThat(out.resolve("CURRENT")).doesNotExist();
    assertThat(out.resolve("exports")).doesNotExist();
  }

  @Test
  void anExportThatRejectsEveryDocumentFailsWhateverTheLimit(
      MongoServer server, MongoDatabase db, @TempDir Path tmp) {
    insertBad(db, "allbad", 20);

    CliRun byDefault = ExportCommandIT.export(server, db, "allbad", tmp.resolve("default"));
    CliRun noLimit =
        ExportCommandIT.export(server, db, "allbad", tmp.resolve("none"), "--max-rejects", "none");

    assertNothingPublished(byDefault, tmp.resolve("default"));
    assertThat(byDefault.err())
        .contains("every document read was rejected (20)")
        .contains("or raise --max-rejects, and run again")
        .doesNotContain("run the same command again");
    assertNothingPublished(noLimit, tmp.resolve("none"));
    assertThat(noLimit.err()).contains("every document read was rejected (20)");
  }

  @Test
  void rejectsWithinTheLimitPublishAndExitThree(
      MongoServer server, MongoDatabase db, @TempDir Path tmp) throws Exception {
    ExportCommandIT.generate(db, "somebad", Profile.REALISTIC, 3, 299);
    insertBad(db, "somebad", 1); // 1 of 300: within the default 1 %
    ExportCommandIT.generate(db, "clean", Profile.REALISTIC, 3, 300);

    CliRun some = ExportCommandIT.export(server, db, "somebad", tmp.resolve("some"));
    CliRun clean = ExportCommandIT.export(server, db, "clean", tmp.resolve("clean"));

    assertThat(some.exitCode()).as(some.toString()).isEqualTo(Flatdump.EXIT_REJECTS);
    assertThat(some.err()).contains("published with 1 rejected document (within --max-rejects 1%)");
    assertThat(ExportCommandIT.exported(tmp.resolve("some"))).isDirectory();
    assertThat(ExportCommandIT.report(tmp.resolve("some")).at("/records/rejected").asLong())
        .isEqualTo(1);
    assertThat(clean.exitCode()).as(clean.toString()).isZero();
    assertThat(ExportCommandIT.exported(tmp.resolve("clean"))).isDirectory();
  }

  @Test
  void rejectsOverTheLimitFailAndPublishNothing(
      MongoServer server, MongoDatabase db, @TempDir Path tmp) {
    ExportCommandIT.generate(db, "overbad", Profile.REALISTIC, 5, 295);
    insertBad(db, "overbad", 5); // 5 of 300: 1.67 %

    CliRun percent = ExportCommandIT.export(server, db, "overbad", tmp.resolve("percent"));
    CliRun count =
        ExportCommandIT.export(server, db, "overbad", tmp.resolve("count"), "--max-rejects", "4");
    CliRun partitioned =
        ExportCommandIT.export(
            server, db, "overbad", tmp.resolve("partitioned"), "--partitions", "2");
    CliRun wider =
        ExportCommandIT.export(server, db, "overbad", tmp.resolve("wider"), "--max-rejects", "2%");

    assertNothingPublished(percent, tmp.resolve("percent"));
    assertThat(percent.err())
        .contains("5 of 300 documents rejected (1.67 %), more than --max-rejects 1%");
    assertNothingPublished(count, tmp.resolve("count"));
    assertThat(count.err()).contains("5 documents rejected, more than --max-rejects 4");
    assertNothingPublished(partitioned, tmp.resolve("partitioned"));
    assertThat(partitioned.err()).contains("5 of 300 documents rejected");
    assertThat(wider.exitCode()).as(wider.toString()).isEqualTo(Flatdump.EXIT_REJECTS);
  }
}
