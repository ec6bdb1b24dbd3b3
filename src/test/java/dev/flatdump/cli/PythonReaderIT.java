package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.testing.JavaReader;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import dev.flatdump.testing.PythonReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sample-data/python/compare_export.py}, the Python consumer of an export, on what JSON-born
 * data does not have: ObjectId {@code _id}s a schema has no field for, enums given by name, dates,
 * timestamps, decimal128, UUIDs and binary.
 */
@ExtendWith(MongoDbExtension.class)
class PythonReaderIT {

  @Test
  void readsTheOrganizationsWhoseIdsAreObjectIdsAndWhoseTypeIsAnEnumByName(
      MongoServer server, MongoDatabase db, @TempDir Path out) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 7, 300);

    CliRun run =
        ExportCommandIT.export(
            server, db, "orgs", out, "--schema", "schemas/organizations.fbs", "--compress", "none");
    assertThat(run.exitCode()).as(run.toString()).isZero();

    PythonReader.Result python = PythonReader.compare(out, server.uri(), db.getName(), "orgs");
    assertThat(python.exitCode()).as(python.output()).isZero();
    assertThat(python.output()).isEqualTo("300 records agree with " + db.getName() + ".orgs");
    assertJavaReaderAgrees(server, db, out, "orgs", 300);
  }

  private static final String TYPED =
      """
      attribute "bson";
      enum Color : byte { Red, Green = 5, Blue }
      table Typed {
        id: string (bson: "_id");
        at: long;
        ts: ulong;
        price: string;
        uid: string;
        blob: [ubyte];
        oid: [ubyte];
        color: Color;
        colors: [Color];
        type_: string (bson: "type");
        ratio: double;
      }
      table Root { records: [Typed]; }
      root_type Root;
      """;

  @Test
  void readsDatesTimestampsDecimalsUuidsBinaryAndEnums(
      MongoServer server, MongoDatabase db, @TempDir Path dir) throws Exception {
    Path schema = Files.writeString(dir.resolve("typed.fbs"), TYPED);
    Path out = dir.resolve("out");
    List<BsonDocument> docs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      docs.add(
          new BsonDocument("_id", new BsonObjectId(new ObjectId(1_700_000_000 + i, i)))
              .append("at", new BsonDateTime(-62_135_596_800_000L + i * 86_400_000L))
              .append("ts", new BsonTimestamp(1_700_000_000 + i, i))
              .append("price", new BsonDecimal128(Decimal128.parse("12.50" + i)))
              .append(
                  "uid",
                  new BsonBinary(
                      new UUID(0x0123456789abcdefL, i), org.bson.UuidRepresentation.STANDARD))
              .append(
                  "blob", new BsonBinary(BsonBinarySubType.BINARY, new byte[] {0, 1, -1, (byte) i}))
              .append("oid", new BsonObjectId(new ObjectId(1_600_000_000, i)))
              .append("color", i % 2 == 0 ? new BsonString("Green") : new BsonInt32(6))
              .append("colors", new BsonArray(List.of(new BsonString("Red"), new BsonInt32(5))))
              .append("type", new BsonString("t" + i))
              .append("ratio", new org.bson.BsonDouble(i == 0 ? Double.NaN : i / 4.0)));
    }
    db.getCollection("typed", BsonDocument.class).insertMany(docs);

    CliRun run =
        ExportCommandIT.export(
            server, db, "typed", out, "--schema", schema.toString(), "--compress", "none");
    assertThat(run.exitCode()).as(run.toString()).isZero();

    PythonReader.Result python = PythonReader.compare(out, server.uri(), db.getName(), "typed");
    assertThat(python.exitCode()).as(python.output()).isZero();
    assertThat(python.output()).isEqualTo("5 records agree with " + db.getName() + ".typed");
    assertJavaReaderAgrees(server, db, out, "typed", 5);

    // and it tells a date that changed since
    db.getCollection("typed", BsonDocument.class)
        .updateOne(
            Filters.eq("_id", docs.get(3).get("_id")), Updates.set("at", new BsonDateTime(0)));
    PythonReader.Result changed = PythonReader.compare(out, server.uri(), db.getName(), "typed");
    assertThat(changed.exitCode()).as(changed.output()).isEqualTo(1);
    assertThat(changed.output()).contains("record 3").contains("at: 0 in MongoDB");
    JavaReader.Result java = JavaReader.compare(out, server.uri(), db.getName(), "typed");
    assertThat(java.difference())
        .isEqualTo(
            "record 3 (_id {\"$oid\": \"%s\"}) differs: at: {\"$date\": \"1970-01-01T00:00:00Z\"} in"
                + " MongoDB, -62135337600000 in the record",
            docs.get(3).getObjectId("_id").getValue().toHexString());
    assertThat(java.read()).isEqualTo(5);
    assertThat(java.agreeing()).isEqualTo(4);
  }

  /** {@code ShapesRulesTest}'s schema: maps, unions, wrappers and arrays of arrays. */
  private static final String SHAPES = dev.flatdump.testing.ShapesSchema.TEXT;

  @Test
  void readsMapsUnionsAndArraysOfArrays(MongoServer server, MongoDatabase db, @TempDir Path dir)
      throws Exception {
    Path schema = Files.writeString(dir.resolve("shapes.fbs"), SHAPES);
    Path out = dir.resolve("out");
    List<BsonDocument> docs =
        List.of(
            BsonDocument.parse(
                """
                {"_id": 1, "created_at": "2020-01-01T00:00:00Z",
                 "names": {"fra": "France", "eng": "England", "é": "e-acute", "e": "e"},
                 "currencies": {"EUR": {"name": "Euro", "symbol": "€"}, "CHF": {"name": "Franc"}},
                 "rings": [[1.5, 2.5], [], [3.0]],
                 "polygons": [[[0.0, 0.0], [1.0, 1.0]], [[2.0]]],
                 "items": ["a", 7, {"$numberLong": "8"}, 1.25, null, {"x": 1, "y": 2}],
                 "maybe": [[1.0], null, [2.0]]}
                """),
            BsonDocument.parse(
                "{\"_id\": 2, \"created_at\": 1577836800, \"names\": {}, \"currencies\": null}"),
            BsonDocument.parse(
                "{\"_id\": 3, \"created_at\": {\"$date\": \"2020-01-01T00:00:00Z\"}}"),
            BsonDocument.parse("{\"_id\": 4, \"created_at\": {\"x\": 5}}"),
            BsonDocument.parse("{\"_id\": 5, \"created_at\": null, \"maybe\": [null]}"));
    db.getCollection("shapes", BsonDocument.class).insertMany(docs);

    CliRun run =
        ExportCommandIT.export(
            server, db, "shapes", out, "--schema", schema.toString(), "--compress", "none");
    assertThat(run.exitCode()).as(run.toString()).isZero();

    PythonReader.Result python = PythonReader.compare(out, server.uri(), db.getName(), "shapes");
    assertThat(python.exitCode()).as(python.output()).isZero();
    assertThat(python.output()).isEqualTo("5 records agree with " + db.getName() + ".shapes");
    assertJavaReaderAgrees(server, db, out, "shapes", 5);

    // and both readers tell a map's value, a union's member and a null in an array of arrays
    // that changed
    var shapes = db.getCollection("shapes", BsonDocument.class);
    shapes.updateOne(Filters.eq("_id", 1), Updates.set("names.eng", "Angleterre"));
    assertDiffers(
        server,
        db,
        out,
        "record 0",
        "names.eng",
        "record 0 (_id 1) differs: names.eng: 'Angleterre' in MongoDB, 'England' in the record");
    shapes.replaceOne(Filters.eq("_id", 1), docs.get(0));
    shapes.updateOne(Filters.eq("_id", 2), Updates.set("created_at", "1577836800"));
    assertDiffers(
        server,
        db,
        out,
        "record 1",
        "created_at",
        "record 1 (_id 2) differs: created_at: '1577836800' in MongoDB, 1577836800 in the record");
    shapes.replaceOne(Filters.eq("_id", 2), docs.get(1));
    shapes.updateOne(
        Filters.eq("_id", 5), Updates.set("maybe", new BsonArray(List.of(new BsonArray()))));
    assertDiffers(
        server,
        db,
        out,
        "record 4",
        "maybe[0]",
        "record 4 (_id 5) differs: maybe[0]: [] in MongoDB, nothing in the record");
    shapes.replaceOne(Filters.eq("_id", 5), docs.get(4));
    shapes.updateOne(Filters.eq("_id", 1), Updates.set("polygons.0.1.0", 9.0));
    assertDiffers(
        server,
        db,
        out,
        "record 0",
        "polygons[0][1][0]",
        "record 0 (_id 1) differs: polygons[0][1][0]: 9.0 in MongoDB, 1.0 in the record");
    shapes.replaceOne(Filters.eq("_id", 1), docs.get(0));
    shapes.updateOne(Filters.eq("_id", 1), Updates.set("currencies.CHF.symbol", "Fr."));
    assertDiffers(
        server,
        db,
        out,
        "record 0",
        "currencies.CHF.symbol",
        "record 0 (_id 1) differs: currencies.CHF.symbol: 'Fr.' in MongoDB, nothing in the record");
    shapes.replaceOne(Filters.eq("_id", 1), docs.get(0));
    shapes.updateOne(Filters.eq("_id", 1), Updates.set("items.5.x", 3));
    assertDiffers(
        server,
        db,
        out,
        "record 0",
        "items[5].x",
        "record 0 (_id 1) differs: items[5].x: 3 in MongoDB, 1 in the record");
    shapes.replaceOne(Filters.eq("_id", 1), docs.get(0));
    assertJavaReaderAgrees(server, db, out, "shapes", 5);
  }

  /**
   * Both readers find the change: the Python one at {@code path} of {@code record}, the Java one
   * with exactly {@code java}.
   */
  private static void assertDiffers(
      MongoServer server, MongoDatabase db, Path out, String record, String path, String java)
      throws Exception {
    PythonReader.Result changed = PythonReader.compare(out, server.uri(), db.getName(), "shapes");
    assertThat(changed.exitCode()).as(changed.output()).isEqualTo(1);
    assertThat(changed.output()).contains(record).contains(path);
    JavaReader.Result read = JavaReader.compare(out, server.uri(), db.getName(), "shapes");
    assertThat(read.difference()).isEqualTo(java);
    assertThat(read.read()).isEqualTo(5);
    assertThat(read.agreeing()).isEqualTo(4);
  }

  /**
   * The Java reader ({@link JavaReader}), through the Java flatc generates from the shipped schema,
   * reads every record equal to MongoDB.
   */
  static void assertJavaReaderAgrees(
      MongoServer server, MongoDatabase db, Path out, String coll, long records) throws Exception {
    JavaReader.Result java = JavaReader.compare(out, server.uri(), db.getName(), coll);
    assertThat(java.output())
        .isEqualTo(records + " records agree with " + db.getName() + "." + coll);
    assertThat(java.read()).isEqualTo(records);
    assertThat(java.agreeing()).isEqualTo(records);
    assertThat(java.unknownFields()).isZero();
  }
}
