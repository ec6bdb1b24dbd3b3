package dev.flatdump.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.bench.samples.SampleWriter;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.bson.RawBsonDocument;

/**
 * The data every fault test exports, and its export by an uninterrupted run: what a run that was
 * interrupted and then resumed must reproduce byte for byte. Made once per test JVM (generating and
 * exporting take a while on a small machine) in a database of its own on the tests' server, which
 * is dropped when the JVM exits.
 */
final class ReferenceExport {

  /** 2,000 organizations of the articles' profile: about 3.4 MB of FlatBuffers. */
  static final int ORGS = 2000;

  static final String COLLECTION = "orgs";

  /**
   * Every fault test exports with these: small shards (about 50), so that each step has many files
   * to write; zstd at 19, so that compressStep lasts long enough to be caught.
   */
  static final List<String> OPTIONS =
      List.of("--shard-size", "64KiB", "--zstd-level", "19", "--run-date", "2026-05-01");

  /** The formats of the data files, which a resumed run must reproduce byte for byte. */
  static final List<String> DATA_FORMATS = List.of("flatbuffers", "gzip", "zstd", "jsonl");

  private static ReferenceExport shared;

  private final String uri;
  private final String database;
  private final Path dir;
  private final Manifest manifest;

  private ReferenceExport(String uri, String database, Path dir, Manifest manifest) {
    this.uri = uri;
    this.database = database;
    this.dir = dir;
    this.manifest = manifest;
  }

  /** The reference on {@code server}, made on first use. */
  static synchronized ReferenceExport on(MongoServer server) throws IOException {
    if (shared != null) {
      return shared;
    }
    String database = "faults_" + UUID.randomUUID().toString().substring(0, 8);
    Path root = Files.createTempDirectory("flatdump-faults-reference-");
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> cleanUp(server.uri(), database, root), "faults-cleanup"));
    try (MongoClient client = MongoClients.create(server.uri())) {
      generate(client.getDatabase(database));
    }
    Path out = root.resolve("reference");
    CliResult run =
        CliResult.inProcess(exportArgs(server.uri(), database, out).toArray(String[]::new));
    assertThat(run.exitCode()).as("the reference export: %s", run).isZero();
    Path dir = dev.flatdump.artifact.OutputLayout.resolve(out);
    Manifest manifest = Manifest.read(dir.resolve(Manifest.FILE_NAME));
    assertThat(manifest.shards()).hasSizeGreaterThan(20);
    shared = new ReferenceExport(server.uri(), database, dir, manifest);
    return shared;
  }

  /** Writes the {@link #ORGS} organizations into {@code db.orgs}; the same ones every time. */
  static void generate(MongoDatabase db) {
    var coll = db.getCollection(COLLECTION, RawBsonDocument.class);
    new SampleWriter(500, coll::insertMany)
        .write(new OrgGenerator(Profile.ARTICLE, 42), ORGS, n -> {});
  }

  /**
   * {@code export --schema schemas/organizations.fbs --uri .. --db .. --collection orgs --out OUT}
   * with {@link #OPTIONS}; {@code extra} may give {@code --schema} or {@code --infer} instead.
   */
  static List<String> exportArgs(String uri, String database, Path out, String... extra) {
    List<String> schema =
        List.of(extra).contains("--schema") || List.of(extra).contains("--infer")
            ? List.of()
            : List.of(
                "--schema", Path.of("schemas", "organizations.fbs").toAbsolutePath().toString());
    List<String> args = new ArrayList<>(List.of("export"));
    args.addAll(schema);
    args.addAll(
        List.of(
            "--uri", uri, "--db", database, "--collection", COLLECTION, "--out", out.toString()));
    args.addAll(OPTIONS);
    args.addAll(List.of(extra));
    return args;
  }

  /** The export command for this reference's collection into {@code out}. */
  List<String> exportArgs(Path out, String... extra) {
    return exportArgs(uri, database, out, extra);
  }

  String uri() {
    return uri;
  }

  String database() {
    return database;
  }

  /** The reference export's own directory (under {@code exports/}); tests must not change it. */
  Path dir() {
    return dir;
  }

  Manifest manifest() {
    return manifest;
  }

  /** The files of the reference that a resumed run must reproduce byte for byte. */
  List<dev.flatdump.artifact.ArtifactFile> dataFiles() {
    return manifest.files().stream().filter(f -> DATA_FORMATS.contains(f.format())).toList();
  }

  private static void cleanUp(String uri, String database, Path root) {
    var settings =
        MongoClientSettings.builder()
            .applyConnectionString(new ConnectionString(uri))
            .applyToClusterSettings(b -> b.serverSelectionTimeout(2, TimeUnit.SECONDS))
            .build();
    try (MongoClient client = MongoClients.create(settings)) {
      client.getDatabase(database).drop();
    } catch (RuntimeException e) {
      // the tests' server may be gone already (a private mongod stops with the tests)
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // best effort: a temporary directory
    }
  }
}
