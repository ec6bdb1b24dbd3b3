package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.source.SampledAggregate;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import dev.flatdump.testing.PublicDatasets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flatdump infer} against a real mongod, then {@code export --schema <inferred> --strict} of
 * the same collection and {@code verify}: the inferred schema is one export takes as it is.
 */
@ExtendWith(MongoDbExtension.class)
class InferCommandIT {

  private static CliRun infer(MongoServer server, MongoDatabase db, String coll, String... more) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of("infer", "--uri", server.uri(), "--db", db.getName(), "--collection", coll));
    args.addAll(List.of(more));
    return CliRun.of(args.toArray(String[]::new));
  }

  /** Infers into {@code dir/coll.fbs}, exports strictly with it and verifies the export. */
  private static Manifest inferExportVerify(
      MongoServer server, MongoDatabase db, String coll, Path dir, int conflicts) throws Exception {
    Path fbs = dir.resolve(coll + ".fbs");
    CliRun inferred = infer(server, db, coll, "--out", fbs.toString());
    assertThat(inferred.exitCode()).as(inferred.toString()).isZero();
    assertThat(inferred.out()).isEmpty();
    assertThat(inferred.err())
        .contains("infer: reading " + db.getName() + "." + coll + ", every document")
        .contains(conflicts == 0 ? "; no conflicts" : "; " + conflicts + " conflicts");
    // the same data, the same bytes; and stdout without --out
    CliRun again = infer(server, db, coll);
    assertThat(again.exitCode()).as(again.toString()).isZero();
    assertThat(again.out()).isEqualTo(Files.readString(fbs));

    Path out = dir.resolve(coll + "-export");
    // unions hold every conflict: no document is rejected
    CliRun export =
        ExportCommandIT.export(
            server,
            db,
            coll,
            out,
            "--schema",
            fbs.toString(),
            "--strict",
            "--compress",
            "none",
            "--max-rejects",
            "none");
    assertThat(export.exitCode()).as(export.toString()).isZero();
    CliRun verify = ExportCommandIT.verify(server, db, coll, out);
    assertThat(verify.exitCode()).as(verify.toString()).isZero();
    return Manifest.read(ExportCommandIT.exported(out).resolve(Manifest.FILE_NAME));
  }

  @Test
  void statesInferredExportStrictlyWithNoRejects(
      MongoServer server, MongoDatabase db, @TempDir Path dir) throws Exception {
    List<BsonDocument> states = PublicDatasets.states();
    db.getCollection("states", BsonDocument.class).insertMany(states);

    Manifest m = inferExportVerify(server, db, "states", dir, 0);

    assertThat(m.counts().exported()).isEqualTo(states.size());
    assertThat(m.counts().rejected()).isZero();
  }

  @Test
  void organizationsInferredExportStrictlyWithNoRejects(
      MongoServer server, MongoDatabase db, @TempDir Path dir) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 3, 2000);

    Manifest m = inferExportVerify(server, db, "orgs", dir, 0);

    assertThat(m.counts().exported()).isEqualTo(2000);
    assertThat(m.counts().rejected()).isZero();
  }

  @Test
  void emojiConflictsAreListedAndHeldByUnions(
      MongoServer server, MongoDatabase db, @TempDir Path dir) throws Exception {
    List<BsonDocument> emoji = PublicDatasets.emoji();
    db.getCollection("emoji", BsonDocument.class).insertMany(emoji);

    Manifest m = inferExportVerify(server, db, "emoji", dir, 2);

    String fbs = Files.readString(dir.resolve("emoji.fbs"));
    assertThat(fbs)
        .as(fbs)
        .containsPattern("// emoticon: string: 35, array: 14; a union \\w+ \\{")
        .containsPattern("// skins\\[\\]\\.tone: int32: 1,650, array: 380; a union \\w+ \\{");
    assertThat(m.counts().rejected()).isZero();
    assertThat(m.counts().exported()).isEqualTo(emoji.size());
  }

  @Test
  void everyBsonTypeMappingMdTypesAndAwkwardNamesExportStrictly(
      MongoServer server, MongoDatabase db, @TempDir Path dir) throws Exception {
    var coll = db.getCollection("awkward", BsonDocument.class);
    coll.insertMany(
        List.of(
            BsonDocument.parse(
                "{_id: 1, try: 1, type: 'x', default: 2.5, 'created-at': {$date: 5}, '+1': true,"
                    + " _links: {self: 'a', next: {self: 'b'}}, AED: {$numberDecimal: '1.10'},"
                    + " createdAt: 8, id: {$oid: '65a1b2c3d4e5f60718293a4b'}, blob: {$binary:"
                    + " {base64: 'AAE=', subType: '00'}}, ts: {$timestamp: {t: 1, i: 2}},"
                    + " tags: [], n: null, big: {$numberLong: '9007199254740993'}}"),
            BsonDocument.parse(
                "{_id: 2, try: 2, type: 'y', default: 3, _links: {self: 'c'}, createdAt:"
                    + " {$numberLong: '9'}, users: [{name: 'u', age: 1}, {name: 'v'}], n: 4,"
                    + " big: 2.0}")));

    Manifest m = inferExportVerify(server, db, "awkward", dir, 0);

    assertThat(m.counts().exported()).isEqualTo(2);
    assertThat(m.counts().rejected()).isZero();
  }

  @Test
  void anEmptyCollectionIsAFailureNotASchema(MongoServer server, MongoDatabase db) {
    CliRun run = infer(server, db, "nothing_here");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.err()).contains("no documents in").doesNotContain("\tat ");
  }

  @Test
  void aCollectionAboveTheBoundIsSampledAndAllReadsEveryDocument(
      MongoServer server, MongoDatabase db, @TempDir Path dir) throws Exception {
    var coll = db.getCollection("many", BsonDocument.class);
    List<BsonDocument> docs = new java.util.ArrayList<>();
    for (int i = 0; i < 300; i++) {
      docs.add(BsonDocument.parse("{_id: " + i + ", n: " + i + ", s: 'x'}"));
    }
    coll.insertMany(docs);

    CliRun sampled = infer(server, db, "many", "--read-all-up-to", "100", "--sample", "40");

    assertThat(sampled.exitCode()).as(sampled.toString()).isZero();
    assertThat(sampled.err())
        .contains("infer: reading " + db.getName() + ".many, a $sample of 40 of its more than 100")
        .contains("infer: 40 documents read");
    assertThat(sampled.out()).contains("from 40 documents").contains("  n: int;");

    CliRun all =
        infer(
            server,
            db,
            "many",
            "--read-all-up-to",
            "100",
            "--sample",
            "all",
            "--query",
            "{n: {$gte: 10}}");
    assertThat(all.exitCode()).as(all.toString()).isZero();
    assertThat(all.err())
        .contains("many where {\"n\": {\"$gte\": 10}}, every document")
        .contains("infer: 290 documents read");
  }

  @Test
  void aSampleHoldsDistinctDocumentsOfTheQuery(MongoDatabase db) {
    var coll = db.getCollection("sampled", BsonDocument.class);
    for (int i = 0; i < 200; i++) {
      coll.insertOne(
          new BsonDocument("_id", new org.bson.BsonInt32(i))
              .append("even", org.bson.BsonBoolean.valueOf(i % 2 == 0)));
    }
    Set<BsonValue> ids = new HashSet<>();
    try (MongoCursor<RawBsonDocument> cursor =
        new SampledAggregate(BsonDocument.parse("{even: true}"), 30)
            .open(db.getCollection("sampled", RawBsonDocument.class))) {
      while (cursor.hasNext()) {
        RawBsonDocument d = cursor.next();
        assertThat(d.getBoolean("even").getValue()).isTrue();
        assertThat(ids.add(d.get("_id"))).isTrue();
      }
    }
    assertThat(ids).hasSize(30);
  }
}
