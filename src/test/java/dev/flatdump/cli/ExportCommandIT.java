package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.bench.samples.SampleWriter;
import dev.flatdump.testing.ExportedOrgs;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code flatdump export}, {@code inspect} and {@code verify} end to end against a real mongod. */
@ExtendWith(MongoDbExtension.class)
class ExportCommandIT {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  static void generate(MongoDatabase db, String collection, Profile profile, long seed, int orgs) {
    var coll = db.getCollection(collection, RawBsonDocument.class);
    new SampleWriter(500, coll::insertMany).write(new OrgGenerator(profile, seed), orgs, n -> {});
  }

  static CliRun export(
      MongoServer server, MongoDatabase db, String collection, Path out, String... extra) {
    return CliRun.of(exportArgs(server, db, collection, out, extra));
  }

  /** The arguments of {@code flatdump export} from this collection into {@code out}. */
  static String[] exportArgs(
      MongoServer server, MongoDatabase db, String collection, Path out, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "export",
                "--uri",
                server.uri(),
                "--db",
                db.getName(),
                "--collection",
                collection,
                "--out",
                out.toString()));
    args.addAll(List.of(extra));
    if (args.stream().noneMatch(a -> a.startsWith("--schema") || a.equals("--infer"))) {
      // the demo's schema, unless the test gives one or has it inferred
      args.addAll(
          List.of("--schema", Path.of("schemas", "organizations.fbs").toAbsolutePath().toString()));
    }
    return args.toArray(String[]::new);
  }

  static CliRun verify(MongoServer server, MongoDatabase db, String collection, Path out) {
    return CliRun.of(
        "verify",
        "--uri",
        server.uri(),
        "--db",
        db.getName(),
        "--collection",
        collection,
        out.toString());
  }

  static JsonNode report(Path out) throws Exception {
    return JSON.readTree(Files.readString(exported(out).resolve("report.json")));
  }

  /** The current export's own directory in the output directory {@code out}. */
  static Path exported(Path out) {
    return dev.flatdump.artifact.OutputLayout.resolve(out);
  }

  @Nested
  class Profiles {
    @Test
    void exportOfEachProfileVerifiesClean(MongoServer server, MongoDatabase db, @TempDir Path tmp)
        throws Exception {
      for (Profile profile : Profile.values()) {
        String coll = "orgs_" + profile.name().toLowerCase();
        generate(db, coll, profile, 7, 1500);
        Path out = tmp.resolve(coll);
        CliRun run = export(server, db, coll, out);
        assertThat(run.exitCode()).as(run.toString()).isZero();

        CliRun verify = verify(server, db, coll, out);
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out()).contains("1,500 documents agree");

        List<Org> expected = new OrgGenerator(profile, 7).stream().limit(1500).toList();
        List<Org> actual = ExportedOrgs.read(out);
        assertThat(actual).isEqualTo(expected);
      }
    }

    @Test
    void manifestListsEveryFileWithItsRealChecksum(
        MongoServer server, MongoDatabase db, @TempDir Path out) {
      generate(db, "orgs", Profile.REALISTIC, 3, 300);
      assertThat(export(server, db, "orgs", out).exitCode()).isZero();
      Path dir = exported(out);
      assertThat(dir.getParent()).isEqualTo(out.resolve("exports").toAbsolutePath());
      Manifest m = Manifest.read(dir.resolve("manifest.json"));
      assertThat(m.counts().read()).isEqualTo(300);
      assertThat(m.files())
          .extracting(f -> f.name())
          .contains(
              "organizations.fb",
              "organizations.fb.gz",
              "organizations.fb.zst",
              "rejects.jsonl",
              "report.json",
              "report.md",
              "report.html",
              "organizations.fbs",
              "organizations.bfbs");
      assertThat(m.schema().binary()).isEqualTo("organizations.bfbs");
      for (var f : m.files()) {
        assertThat(Checksums.sha256(dir.resolve(f.name()))).as(f.name()).isEqualTo(f.sha256());
      }
      assertThat(dir.resolve("organizations.fbs"))
          .hasSameBinaryContentAs(
              Path.of(System.getProperty("flatdump.basedir", "."), "schemas", "organizations.fbs"));
      assertThat(m.schema().sha256()).isEqualTo(Checksums.sha256(dir.resolve("organizations.fbs")));
      assertThat(out.resolve(".flatdump/staging")).doesNotExist();
      CliRun check = CliRun.of("check", out.toString());
      assertThat(check.exitCode()).as(check.toString()).isZero();
      assertThat(check.out()).contains("checked " + dir + ": " + m.files().size() + " files");
    }

    @Test
    void compressedCopiesAreTheSameBytesOnOneThreadOrThree(
        MongoServer server, MongoDatabase db, @TempDir Path tmp) {
      // Over 2 MiB of FlatBuffers: gzip blocks are 1 MiB, so three threads deflate in parallel.
      generate(db, "orgs", Profile.REALISTIC, 4, 6_000);
      Path one = tmp.resolve("one");
      Path three = tmp.resolve("three");

      assertThat(export(server, db, "orgs", one, "--compress-threads", "1").exitCode()).isZero();
      assertThat(export(server, db, "orgs", three, "--compress-threads", "3").exitCode()).isZero();

      var files = Manifest.read(exported(one).resolve("manifest.json")).files();
      assertThat(files)
          .filteredOn(f -> f.format().equals("flatbuffers"))
          .singleElement()
          .satisfies(f -> assertThat(f.bytes()).isGreaterThan(2L << 20));
      assertThat(files)
          .filteredOn(f -> f.format().equals("gzip") || f.format().equals("zstd"))
          .hasSize(2);
      for (var f : files) {
        if (f.format().equals("gzip") || f.format().equals("zstd")) {
          assertThat(Checksums.sha256(exported(three).resolve(f.name())))
              .as(f.name())
              .isEqualTo(f.sha256());
        }
      }
      assertThat(verify(server, db, "orgs", three).exitCode()).isZero();
    }
  }

  @Nested
  class Dedup {
    @Test
    void eachDedupKindShrinksTheRealisticArtifact(
        MongoServer server, MongoDatabase db, @TempDir Path tmp) throws Exception {
      generate(db, "orgs", Profile.REALISTIC, 11, 2000);
      long[] sizes = new long[3];
      String[] modes = {"none", "strings", "strings,tables"};
      for (int i = 0; i < modes.length; i++) {
        Path out = tmp.resolve("d" + i);
        CliRun run = export(server, db, "orgs", out, "--dedup", modes[i], "--compress", "none");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        sizes[i] = Files.size(exported(out).resolve("organizations.fb"));
      }
      assertThat(sizes[1]).as("strings < plain").isLessThan(sizes[0]);
      assertThat(sizes[2]).as("tables < strings").isLessThan(sizes[1]);
    }

    @Test
    void reportHasTheRequiredKeysAndBaselines(
        MongoServer server, MongoDatabase db, @TempDir Path out) throws Exception {
      generate(db, "orgs", Profile.REALISTIC, 5, 800);
      CliRun run = export(server, db, "orgs", out, "--compare", "plain,strings,protobuf,json");
      assertThat(run.exitCode()).as(run.toString()).isZero();
      JsonNode r = report(out);
      assertThat(r.at("/source/count").asLong()).isEqualTo(800);
      assertThat(r.at("/source/size").asLong()).isPositive();
      assertThat(r.at("/source/storageSize").asLong()).isPositive();
      assertThat(r.at("/source/totalIndexSize").asLong()).isPositive();
      assertThat(r.at("/records/read").asLong()).isEqualTo(800);
      assertThat(r.at("/records/exported").asLong()).isEqualTo(800);
      assertThat(r.at("/records/rejected").asLong()).isZero();
      for (String kind : List.of("strings", "dev.flatdump.schema.fb.Attribute", "vectors")) {
        assertThat(r.at("/dedup/" + kind + "/total").asLong()).as(kind).isPositive();
        assertThat(r.at("/dedup/" + kind + "/unique").asLong()).as(kind).isPositive();
      }
      long fb = -1;
      for (JsonNode a : r.get("artifacts")) {
        assertThat(a.get("sha256").asString()).hasSize(64);
        if (a.get("format").asString().equals("flatbuffers")) {
          fb = a.get("bytes").asLong();
        }
      }
      assertThat(fb).isEqualTo(Files.size(exported(out).resolve("organizations.fb")));
      long plain = -1;
      long strings = -1;
      long protobuf = -1;
      for (JsonNode b : r.get("baselines")) {
        String name = b.get("name").asString();
        if (name.equals("plain")) {
          plain = b.get("bytes").asLong();
        } else if (name.equals("strings")) {
          strings = b.get("bytes").asLong();
        } else if (name.equals("protobuf")) {
          protobuf = b.get("bytes").asLong();
        }
      }
      assertThat(strings).isLessThan(plain);
      assertThat(protobuf)
          .as("protobuf's own serialization of the same records")
          .isEqualTo(
              dev.flatdump.testing.ProtobufOrgs.of(
                      new OrgGenerator(Profile.REALISTIC, 5).stream().limit(800).toList())
                  .getSerializedSize());
      assertThat(fb).isLessThan(strings);
      assertThat(run.out())
          .contains("export: " + exported(out))
          .contains("report: " + exported(out).resolve("report.html"));
    }
  }

  @Nested
  class Shards {
    @Test
    void tinyShardSizeSplitsTheExportIntoOrderedShards(
        MongoServer server, MongoDatabase db, @TempDir Path out) {
      generate(db, "orgs", Profile.ARTICLE, 9, 600);
      CliRun run = export(server, db, "orgs", out, "--shard-size", "64KiB");
      assertThat(run.exitCode()).as(run.toString()).isZero();
      Manifest m = Manifest.read(exported(out).resolve("manifest.json"));
      assertThat(m.shards()).hasSizeGreaterThan(3);
      for (int i = 0; i < m.shards().size(); i++) {
        assertThat(m.shards().get(i).name()).isEqualTo(String.format("organizations-%05d.fb", i));
        assertThat(m.shards().get(i).shard()).isEqualTo(i);
      }
      assertThat(exported(out).resolve("organizations.fb")).doesNotExist();
      List<Org> actual = ExportedOrgs.read(out);
      assertThat(actual)
          .isEqualTo(new OrgGenerator(Profile.ARTICLE, 9).stream().limit(600).toList());

      CliRun inspect = CliRun.of("inspect", out.toString());
      assertThat(inspect.out())
          .contains("total  600 records")
          .contains(m.shards().size() + " shards");
      CliRun verify = verify(server, db, "orgs", out);
      assertThat(verify.exitCode()).as(verify.toString()).isZero();
    }
  }

  @Nested
  class Usage {
    @Test
    void badUsageExitsTwoAndSaysWhatIsWrong(MongoServer server, @TempDir Path out) {
      CliRun missing = CliRun.of("export", "--uri", server.uri());
      assertThat(missing.exitCode()).isEqualTo(2);
      assertThat(missing.err())
          .contains("missing --db, --collection, --out")
          .contains("FLATDUMP_DB");

      CliRun badDedup = exportWithOption(server, out, "--dedup", "strings,objects");
      assertThat(badDedup.exitCode()).isEqualTo(2);
      assertThat(badDedup.err()).contains("objects");

      CliRun badSchema = exportWithOption(server, out, "--schema", "no-such-schema.fbs");
      assertThat(badSchema.exitCode()).isEqualTo(2);
      assertThat(badSchema.err()).contains("--schema: no such schema file: no-such-schema.fbs");

      CliRun badSize = exportWithOption(server, out, "--shard-size", "3GiB");
      assertThat(badSize.exitCode()).isEqualTo(2);
      assertThat(badSize.err()).contains("shard size");

      CliRun noThreads = exportWithOption(server, out, "--compress-threads", "0");
      assertThat(noThreads.exitCode()).isEqualTo(2);
      assertThat(noThreads.err()).contains("--compress-threads must be >= 1, got 0");

      CliRun noPartitions = exportWithOption(server, out, "--partitions", "0");
      assertThat(noPartitions.exitCode()).isEqualTo(2);
      assertThat(noPartitions.err()).contains("partitions must be 1..1024, got 0");

      CliRun remoteAlone = exportWithOption(server, out, "--remote", "--partitions=4");
      assertThat(remoteAlone.exitCode()).isEqualTo(2);
      assertThat(remoteAlone.err()).contains("--remote needs --broker tcp://HOST:PORT");

      CliRun remoteOfOne = exportWithOption(server, out, "--remote", "--broker=tcp://h:1");
      assertThat(remoteOfOne.exitCode()).isEqualTo(2);
      assertThat(remoteOfOne.err()).contains("--remote needs --partitions above 1");

      CliRun brokerAlone = exportWithOption(server, out, "--broker", "tcp://h:1");
      assertThat(brokerAlone.exitCode()).isEqualTo(2);
      assertThat(brokerAlone.err()).contains("--broker is for --remote");
    }

    /** An export of {@code d.c} with one option added, for usage errors found before reading. */
    CliRun exportWithOption(MongoServer server, Path out, String option, String value) {
      return CliRun.of(
          "export",
          "--schema",
          option.equals("--schema")
              ? value
              : Path.of("schemas", "organizations.fbs").toAbsolutePath().toString(),
          "--uri",
          server.uri(),
          "--db",
          "d",
          "--collection",
          "c",
          "--out",
          out.toString(),
          option.equals("--schema") ? "--compress" : option,
          option.equals("--schema") ? "none" : value);
    }

    @Test
    void missingCollectionFailsWithExitOne(
        MongoServer server, MongoDatabase db, @TempDir Path out) {
      CliRun run = export(server, db, "nope", out);
      assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
      assertThat(run.err()).contains("collection " + db.getName() + ".nope does not exist");
    }

    @Test
    void passwordNeverAppearsInOutputOrFiles(
        MongoServer server,
        com.mongodb.client.MongoClient client,
        MongoDatabase db,
        @TempDir Path out)
        throws Exception {
      generate(db, "orgs", Profile.REALISTIC, 1, 50);
      String user = "reader_" + db.getName();
      client
          .getDatabase("admin")
          .runCommand(
              new org.bson.Document("createUser", user)
                  .append("pwd", "s3cr3tPa55")
                  .append(
                      "roles",
                      List.of(new org.bson.Document("role", "root").append("db", "admin"))));
      String uri = server.uri().replace("mongodb://", "mongodb://" + user + ":s3cr3tPa55@");
      CliRun run =
          CliRun.of(
              "export",
              "--schema",
              Path.of("schemas", "organizations.fbs").toAbsolutePath().toString(),
              "--uri",
              uri,
              "--db",
              db.getName(),
              "--collection",
              "orgs",
              "--out",
              out.toString());
      assertThat(run.exitCode()).as(run.toString()).isZero();
      assertThat(run.toString()).doesNotContain("s3cr3tPa55").contains(user + ":***@");
      CliRun wrong =
          CliRun.of(
              "export",
              "--schema",
              Path.of("schemas", "organizations.fbs").toAbsolutePath().toString(),
              "--uri",
              uri.replace("s3cr3tPa55", "wr0ngPa55"),
              "--db",
              db.getName(),
              "--collection",
              "orgs",
              "--out",
              out.resolve("x").toString());
      assertThat(wrong.exitCode()).as(wrong.toString()).isEqualTo(1);
      assertThat(wrong.toString()).doesNotContain("wr0ngPa55");
      try (var files = Files.walk(out)) {
        for (Path p : files.filter(Files::isRegularFile).toList()) {
          assertThat(
                  new String(Files.readAllBytes(p), java.nio.charset.StandardCharsets.ISO_8859_1))
              .as(p.toString())
              .doesNotContain("s3cr3tPa55");
        }
      }
    }
  }
}
