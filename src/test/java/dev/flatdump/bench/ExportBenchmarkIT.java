package dev.flatdump.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgCodec;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.bson.BsonBinaryWriter;
import org.bson.BsonDocument;
import org.bson.BsonObjectId;
import org.bson.RawBsonDocument;
import org.bson.io.BasicOutputBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(MongoDbExtension.class)
class ExportBenchmarkIT {

  private static final List<String> QUERY_KEYS =
      List.of("filter", "sort", "hint", "projection", "min", "batchSize");

  /**
   * The scans are only a floor and a naive baseline if they ask the server exactly what the export
   * asks: a projection (or any other difference) in the scans alone would change mongod's cost per
   * document in them and not in the export.
   */
  @Test
  void everyRowSendsTheExportsQuery(MongoServer server, MongoDatabase database, @TempDir Path dir)
      throws Exception {
    insert(database, 50);
    List<BsonDocument> finds = new CopyOnWriteArrayList<>();
    CommandListener listener =
        new CommandListener() {
          @Override
          public void commandStarted(CommandStartedEvent event) {
            if (event.getCommandName().equals("find")
                && event.getCommand().getString("find").getValue().equals("orgs")) {
              // the event's document reads a buffer that is released once the command is sent
              finds.add(queryOf(BsonDocument.parse(event.getCommand().toJson())));
            }
          }
        };
    MongoClientSettings clientSettings =
        MongoClientSettings.builder()
            .applyConnectionString(new ConnectionString(server.uri()))
            .addCommandListener(listener)
            .build();
    var settings =
        new ExportBenchmark.Settings(
            "test", database.getName(), "orgs", 1, 1, 20, 1 << 20, dir, false, List.of());

    try (MongoClient client = MongoClients.create(clientSettings)) {
      ExportReport report = ExportBenchmark.run(client, settings, line -> {});
      assertThat(report).isNotNull();
      // the server measured against, and its cache, which decides how much CPU mongod spends
      assertThat(report.server())
          .matches("mongod \\d+\\.\\d+\\.\\d+, WiredTiger cache \\d[\\d.,]* [KMG]iB");
      assertThat(report.toMarkdown()).contains("\nServer: " + report.server() + ".\n");
    }
    // without keepFiles, every export directory is gone once measured
    assertThat(dir).isEmptyDirectory();

    // a warm-up and one measured run of four rows, each one find
    // (batches of 20: the rest getMore)
    assertThat(finds).hasSize(8);
    BsonDocument exports = finds.get(finds.size() - 1);
    assertThat(exports.containsKey("projection")).as(exports.toJson()).isFalse();
    assertThat(exports.getDocument("sort")).isEqualTo(BsonDocument.parse("{_id: 1}"));
    assertThat(finds).allSatisfy(find -> assertThat(find).isEqualTo(exports));
  }

  @Test
  void saysWhatItCannotLearnOfTheServer() {
    MongoClientSettings unreachable =
        MongoClientSettings.builder()
            .applyConnectionString(new ConnectionString("mongodb://127.0.0.1:1"))
            .applyToClusterSettings(b -> b.serverSelectionTimeout(200, TimeUnit.MILLISECONDS))
            .build();
    try (MongoClient client = MongoClients.create(unreachable)) {
      assertThat(ExportBenchmark.describeServer(client))
          .startsWith("mongod version unknown (")
          .contains(", WiredTiger cache unknown (");
    }
  }

  private static BsonDocument queryOf(BsonDocument find) {
    BsonDocument query = new BsonDocument();
    for (String key : QUERY_KEYS) {
      if (find.containsKey(key)) {
        query.put(key, find.get(key));
      }
    }
    return query;
  }

  private static void insert(MongoDatabase database, int count) {
    OrgGenerator generator = new OrgGenerator(Profile.REALISTIC, 7);
    OrgCodec codec = new OrgCodec();
    List<RawBsonDocument> documents = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Org org = generator.next();
      BasicOutputBuffer buffer = new BasicOutputBuffer();
      codec.encode(new BsonBinaryWriter(buffer), new BsonObjectId(generator.idOf(i)), org);
      documents.add(new RawBsonDocument(buffer.toByteArray()));
    }
    database.getCollection("orgs", RawBsonDocument.class).insertMany(documents);
  }
}
