package dev.flatdump.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.bson.Document;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(MongoDbExtension.class)
class MongoDbExtensionIT {

  @Test
  void readsBackAnInsertedDocument(MongoDatabase database) {
    MongoCollection<Document> organizations = database.getCollection("organizations");
    organizations.insertOne(new Document("_id", 1).append("name", "Acme").append("country", "ES"));

    Document found = organizations.find(new Document("_id", 1)).first();

    assertEquals(new Document("_id", 1).append("name", "Acme").append("country", "ES"), found);
  }

  @Test
  void isARealWiredTigerServer(MongoClient client, MongoDatabase database) {
    MongoCollection<Document> organizations = database.getCollection("organizations");
    organizations.insertMany(
        IntStream.range(0, 1_000)
            .mapToObj(i -> new Document("_id", i).append("name", "organization " + i))
            .toList());
    client.getDatabase("admin").runCommand(new Document("fsync", 1));

    Document stats =
        organizations
            .aggregate(
                List.of(new Document("$collStats", new Document("storageStats", new Document()))))
            .first();

    Document storageStats = stats.get("storageStats", Document.class);
    assertTrue(storageStats.containsKey("wiredTiger"), () -> "no WiredTiger section: " + stats);
    assertEquals(1_000, storageStats.get("count", Number.class).intValue());
    assertTrue(storageStats.get("storageSize", Number.class).longValue() > 0, storageStats::toJson);
  }

  @Test
  void exposesTheConnectionStringOfTheSameServer(MongoServer server, MongoDatabase database) {
    database.getCollection("marker").insertOne(new Document("_id", "seen"));

    try (MongoClient ownClient = MongoClients.create(server.uri())) {
      MongoDatabase sameDatabase = ownClient.getDatabase(database.getName());
      assertEquals(1, sameDatabase.getCollection("marker").countDocuments());
    }
  }

  @Nested
  class PerTestDatabases {

    private static final List<String> NAMES = new ArrayList<>();

    private MongoDatabase fromBeforeEach;

    @BeforeEach
    void rememberDatabase(MongoDatabase database) {
      fromBeforeEach = database;
    }

    @RepeatedTest(2)
    void givesEachTestAFreshDatabaseAndDropsItAfterwards(
        MongoClient client, MongoDatabase database) {
      assertEquals(fromBeforeEach.getName(), database.getName(), "@BeforeEach and test share one");
      assertFalse(NAMES.contains(database.getName()), () -> database.getName() + " seen before");
      assertNull(database.listCollectionNames().first(), "a fresh database has no collections");
      List<String> existing = client.listDatabaseNames().into(new ArrayList<>());
      NAMES.forEach(earlier -> assertFalse(existing.contains(earlier), earlier + " not dropped"));

      // Makes the database exist, so that the next repetition can see it was dropped.
      database.getCollection("things").insertOne(new Document("_id", 1));
      NAMES.add(database.getName());
    }
  }

  @Nested
  @TestInstance(Lifecycle.PER_CLASS)
  class ClassDatabase {

    private MongoDatabase fromBeforeAll;

    @BeforeAll
    void insertFixture(MongoDatabase database) {
      fromBeforeAll = database;
      database.getCollection("fixture").insertOne(new Document("_id", "shared"));
    }

    @Test
    void sharesTheBeforeAllDatabaseWithItsTests(MongoDatabase database) {
      assertEquals(fromBeforeAll.getName(), database.getName());
      assertEquals(1, database.getCollection("fixture").countDocuments());
    }

    @Test
    void namesTheDatabaseAfterTheTestClass(MongoDatabase database) {
      assertTrue(
          database.getName().startsWith("MongoDbExtensionIT_ClassDatabase_"), database.getName());
    }
  }

  @Nested
  class ConstructorInjection {

    private final MongoDatabase fromConstructor;

    ConstructorInjection(MongoDatabase database) {
      fromConstructor = database;
    }

    @RepeatedTest(2)
    void givesTheConstructorTheTestsOwnDatabase(MongoDatabase database) {
      assertEquals(fromConstructor.getName(), database.getName());
      assertNull(database.listCollectionNames().first(), "a fresh database has no collections");
      database.getCollection("things").insertOne(new Document("_id", 1));
    }
  }
}
