package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import dev.flatdump.testing.JavaReader;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link JavaReader}, the Java consumer of an export, on what the Java flatc generates makes
 * particular: a namespace, names escaped as Java keywords ({@code class_()}) or made camel case,
 * optional scalars ({@code hasX()}), non-zero defaults, structs, a {@code ulong} past 2^63, an enum
 * vector, a union inside a map's value, a vector of wrappers holding nulls, two fields reading one
 * BSON name, a deprecated field, and a reject; then MongoDB changes and it names each change.
 */
@ExtendWith(MongoDbExtension.class)
class JavaReaderIT {

  private static final String SCHEMA =
      """
      namespace acme.Data_v2;
      attribute "bson";
      attribute "map";
      attribute "wrapper";
      enum Level : ubyte { Low = 1, High = 200 }
      struct Span { from: int; to: ulong; }
      table Tag (wrapper) { value: [string]; }
      table Count (wrapper) { value: long; }
      table Text (wrapper) { value: string; }
      union Value { Count, Text }
      table AttrsEntry { key: string (key); value: Value; }
      table Rec {
        id: long (bson: "_id");
        class: string;
        default: int = 7;
        enum: Level = High;
        maybe: double = null;
        flag: bool = null;
        span: Span;
        spans: [Span];
        big: ulong;
        levels: [Level];
        attrs: [AttrsEntry] (map);
        tags: [Tag];
        size: int (bson: "size");
        size_text: string (bson: "size");
        HTML_url: string;
        old: int (deprecated);
      }
      table Root { records: [Rec]; }
      root_type Root;
      """;

  @Test
  void readsEveryRecordThroughTheGeneratedJavaAndNamesEachChange(
      MongoServer server, MongoDatabase db, @TempDir Path dir) throws Exception {
    Path schema = Files.writeString(dir.resolve("rec.fbs"), SCHEMA);
    Path out = dir.resolve("out");
    List<BsonDocument> docs =
        List.of(
            BsonDocument.parse(
                """
                {"_id": 1, "class": "c", "default": 7, "enum": "High", "maybe": 0.0, "flag": false,
                 "span": {"from": -1, "to": 9.223372036854775808E18},
                 "spans": [{"from": 1, "to": 2}, {"from": 3, "to": {"$numberLong": "4"}}],
                 "levels": ["Low", 200], "attrs": {"b": "x", "a": 5, "é": null},
                 "tags": [["p", "q"], null, []], "size": 3, "HTML_url": "u"}
                """),
            BsonDocument.parse(
                """
                {"_id": 2, "size": "three", "maybe": NaN, "enum": 1, "default": 0, "flag": true,
                 "attrs": {}}
                """),
            new BsonDocument("_id", new org.bson.BsonInt32(3))
                .append("big", new BsonTimestamp(-1, 5)), // 0xFFFFFFFF00000005
            BsonDocument.parse("{\"_id\": 4, \"class\": [\"not a string\"]}"),
            BsonDocument.parse("{\"_id\": 5, \"old\": 1, \"tags\": [null]}"));
    MongoCollection<BsonDocument> coll = db.getCollection("rec", BsonDocument.class);
    coll.insertMany(docs);

    CliRun run =
        ExportCommandIT.export(
            server,
            db,
            "rec",
            out,
            "--schema",
            schema.toString(),
            "--compress",
            "none",
            "--max-rejects",
            "none");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Flatdump.EXIT_REJECTS);

    JavaReader.Result read = JavaReader.compare(out, server.uri(), db.getName(), "rec");
    assertThat(read.output()).isEqualTo("4 records agree with " + db.getName() + ".rec");
    assertThat(read.agreeing()).isEqualTo(read.read()).isEqualTo(4);
    assertThat(read.unknownFields()).as("the deprecated old").isEqualTo(1);

    // one of two fields reading "size": the one the record fills is named
    coll.updateOne(Filters.eq("_id", 1), Updates.set("size", "3"));
    assertDiffers(
        out, server, db, "record 0 (_id 1) differs: size: '3' in MongoDB, 3 in the record");
    coll.replaceOne(Filters.eq("_id", 1), docs.get(0));
    // a union's member in a map's value
    coll.updateOne(Filters.eq("_id", 1), Updates.set("attrs.a", "5"));
    assertDiffers(
        out, server, db, "record 0 (_id 1) differs: attrs.a: '5' in MongoDB, 5 in the record");
    coll.replaceOne(Filters.eq("_id", 1), docs.get(0));
    // an element of an array of arrays
    coll.updateOne(Filters.eq("_id", 1), Updates.set("tags.0.1", "z"));
    assertDiffers(
        out, server, db, "record 0 (_id 1) differs: tags[0][1]: 'z' in MongoDB, 'q' in the record");
    coll.replaceOne(Filters.eq("_id", 1), docs.get(0));
    // an optional scalar given as false, now null: absent is not false
    coll.updateOne(Filters.eq("_id", 1), Updates.set("flag", BsonNull.VALUE));
    assertDiffers(
        out, server, db, "record 0 (_id 1) differs: flag: null in MongoDB, false in the record");
    coll.replaceOne(Filters.eq("_id", 1), docs.get(0));
    // a ulong past 2^63 in a struct
    coll.updateOne(Filters.eq("_id", 1), Updates.set("span.to", 1.0));
    assertDiffers(
        out,
        server,
        db,
        "record 0 (_id 1) differs: span.to: 1.0 in MongoDB, 9223372036854775808 in the record");
    coll.replaceOne(Filters.eq("_id", 1), docs.get(0));
    // a field the record holds and MongoDB no longer has; the rejected document is not read
    coll.updateOne(Filters.eq("_id", 2), Updates.unset("attrs"));
    coll.updateOne(Filters.eq("_id", 4), Updates.set("class", new BsonString("now a string")));
    assertDiffers(
        out, server, db, "record 1 (_id 2) differs: attrs: the record has [], MongoDB nothing");
    coll.replaceOne(Filters.eq("_id", 2), docs.get(1));
    // a document the export lacks
    coll.insertOne(BsonDocument.parse("{\"_id\": 6}"));
    JavaReader.Result more = JavaReader.compare(out, server.uri(), db.getName(), "rec");
    assertThat(more.difference()).isEqualTo("MongoDB has a document the export lacks: _id 6");
    assertThat(more.agreeing()).isEqualTo(4);
  }

  private static void assertDiffers(Path out, MongoServer server, MongoDatabase db, String java)
      throws Exception {
    JavaReader.Result read = JavaReader.compare(out, server.uri(), db.getName(), "rec");
    assertThat(read.difference()).isEqualTo(java);
    assertThat(read.read()).isEqualTo(4);
    assertThat(read.agreeing()).isEqualTo(3);
  }
}
