package dev.flatdump.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.testing.ExportedOrgs;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code export --partitions N} against a real mongod: the same records as one partition, in the
 * same order, clean for {@code check} and {@code verify}; the same bytes on every run with the same
 * N, whichever thread ran which partition; and after {@code kill -9} mid-partition, a rerun that
 * resumes each unfinished partition from its checkpoint and gives those bytes again.
 */
@ExtendWith(MongoDbExtension.class)
class PartitionedExportIT {

  @Test
  @Timeout(240)
  void fourPartitionsExportTheRecordsOfOneByteIdenticallyOnEveryRun(
      MongoServer server, @TempDir Path tmp) throws Exception {
    ReferenceExport reference = ReferenceExport.on(server);
    Path first = tmp.resolve("first");
    CliResult run = partitioned(reference, first, 4);
    assertThat(run.exitCode()).as("%s", run).isZero();
    Path dir = OutputLayout.resolve(first);

    assertThat(ExportedOrgs.read(dir))
        .as("the records of 4 partitions, in _id order")
        .isEqualTo(ExportedOrgs.read(reference.dir()));
    Manifest manifest = Manifest.read(dir.resolve(Manifest.FILE_NAME));
    assertThat(manifest.counts()).isEqualTo(reference.manifest().counts());
    assertThat(manifest.options().partitions()).isEqualTo(4);
    assertThat(reference.manifest().options().partitions()).isEqualTo(1);
    assertThat(manifest.shards()).hasSizeGreaterThan(20);
    for (int i = 0; i < manifest.shards().size(); i++) {
      assertThat(manifest.shards().get(i).name())
          .isEqualTo(String.format("organizations-%05d.fb", i));
    }
    assertThat(first.resolve(".flatdump").resolve("staging")).doesNotExist();

    CliResult check = CliResult.inProcess("check", dir.toString());
    assertThat(check.exitCode()).as("%s", check).isZero();
    CliResult verify =
        CliResult.inProcess(
            "verify",
            "--uri",
            reference.uri(),
            "--db",
            reference.database(),
            "--collection",
            ReferenceExport.COLLECTION,
            dir.toString());
    assertThat(verify.exitCode()).as("%s", verify).isZero();
    assertThat(verify.out() + verify.err())
        .contains(String.format("%,d documents agree", ReferenceExport.ORGS));

    Path second = tmp.resolve("second");
    CliResult again = partitioned(reference, second, 4);
    assertThat(again.exitCode()).as("%s", again).isZero();
    assertThat(dataFiles(OutputLayout.resolve(second)))
        .as("a second run with 4 partitions, its threads scheduled as they came")
        .isEqualTo(dataFiles(dir));
  }

  @Test
  @Timeout(300)
  void aPartitionedRunKilledMidPartitionResumesWithIdenticalData(
      MongoServer server, @TempDir Path tmp) throws Exception {
    ReferenceExport reference = ReferenceExport.on(server);
    Path uninterrupted = tmp.resolve("uninterrupted");
    CliResult whole = partitioned(reference, uninterrupted, 4);
    assertThat(whole.exitCode()).as("%s", whole).isZero();

    Path out = tmp.resolve("out");
    List<String> args = reference.exportArgs(out, "--partitions", "4");
    Path partitions = out.resolve(".flatdump").resolve("staging").resolve("partitions");
    try (JarRun run = JarRun.start(tmp.resolve("killed.log"), args)) {
      boolean hit =
          run.awaitWhileAlive(
              () -> staged(partitions, "organizations-00002.fb") >= 1, 2, Duration.ofMinutes(3));
      assertThat(hit && run.isAlive())
          .as("still at work when killed; log:\n%s", run.log())
          .isTrue();
      run.kill();
    }
    assertThat(Artifacts.exportDirs(out)).as("exports published by the killed run").isEmpty();

    CliResult rerun = CliResult.inProcess(args.toArray(String[]::new));
    assertThat(rerun.exitCode()).as("%s", rerun).isZero();
    assertThat(rerun.err()).contains("resumed the failed run");
    assertThat(KilledExportIT.readByStep(rerun.out()).get("exportStep"))
        .as("documents the resumed partitions read again; %s", rerun)
        .isBetween(1L, ReferenceExport.ORGS - 1L);
    assertThat(dataFiles(OutputLayout.resolve(out)))
        .as("data and schema files of the resumed export")
        .isEqualTo(dataFiles(OutputLayout.resolve(uninterrupted)));
  }

  /**
   * {@code _id}s of four BSON types, cut into 3 ranges (boundaries fall between types) and into 64
   * (more ranges than documents: most are empty): every document is exported once, in index order.
   */
  @Test
  @Timeout(120)
  void rangesCrossIdTypesAndMayBeEmpty(MongoServer server, @TempDir Path tmp) throws Exception {
    ReferenceExport reference = ReferenceExport.on(server);
    String collection = "mixed_ids";
    try (MongoClient client = MongoClients.create(server.uri())) {
      MongoCollection<RawBsonDocument> source =
          client
              .getDatabase(reference.database())
              .getCollection(ReferenceExport.COLLECTION, RawBsonDocument.class);
      MongoCollection<BsonDocument> mixed =
          client.getDatabase(reference.database()).getCollection(collection, BsonDocument.class);
      mixed.drop();
      List<BsonDocument> docs = new ArrayList<>();
      int i = 0;
      for (RawBsonDocument raw : source.find().limit(40)) {
        BsonDocument doc = raw.decode(new BsonDocumentCodec());
        doc.put("_id", mixedId(i++));
        docs.add(doc);
      }
      mixed.insertMany(docs);
    }
    List<Org> one = null;
    for (int n : new int[] {1, 3, 64}) {
      Path out = tmp.resolve("p" + n);
      CliResult run =
          CliResult.inProcess(
              "export",
              "--schema",
              Path.of("schemas", "organizations.fbs").toAbsolutePath().toString(),
              "--uri",
              reference.uri(),
              "--db",
              reference.database(),
              "--collection",
              collection,
              "--out",
              out.toString(),
              "--partitions",
              Integer.toString(n));
      assertThat(run.exitCode()).as("%d partitions: %s", n, run).isZero();
      Manifest manifest = Manifest.read(OutputLayout.resolve(out).resolve(Manifest.FILE_NAME));
      assertThat(manifest.counts().exported()).as("%d partitions", n).isEqualTo(40);
      List<Org> orgs = ExportedOrgs.read(OutputLayout.resolve(out));
      if (one == null) {
        one = orgs;
      } else {
        assertThat(orgs).as("%d partitions against 1", n).isEqualTo(one);
      }
    }
  }

  private static BsonValue mixedId(int i) {
    return switch (i % 4) {
      case 0 -> new BsonInt32(i);
      case 1 -> new BsonString("id-" + i);
      case 2 -> new BsonObjectId(new ObjectId(String.format("%024x", i)));
      default -> new BsonDocument("n", new BsonInt64(i));
    };
  }

  private static CliResult partitioned(ReferenceExport reference, Path out, int n) {
    return CliResult.inProcess(
        reference.exportArgs(out, "--partitions", Integer.toString(n)).toArray(String[]::new));
  }

  /** How many partitions have staged a file of this name. */
  private static long staged(Path partitions, String name) {
    if (!Files.isDirectory(partitions)) {
      return 0;
    }
    try (Stream<Path> dirs = Files.list(partitions)) {
      return dirs.filter(d -> Files.exists(d.resolve(name))).count();
    } catch (IOException e) {
      return 0; // a directory vanished while listing: look again
    }
  }

  /** Every file of an export but its reports and manifest, which carry times. */
  private static Map<String, String> dataFiles(Path dir) throws IOException {
    Map<String, String> sums = Artifacts.dataFiles(dir);
    assertThat(sums).containsKeys("organizations.fbs", "organizations.bfbs", "rejects.jsonl");
    return sums;
  }
}
