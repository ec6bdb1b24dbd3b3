package dev.flatdump.cli;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.flatdump.source.ConnectionStrings;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Option;

/** The {@code --uri --db --collection} options that name a collection, shared by the commands. */
final class MongoTarget {

  @Option(
      names = "--uri",
      required = true,
      paramLabel = "URI",
      description = "MongoDB connection string; its password is never printed.")
  String uri;

  @Option(names = "--db", required = true, paramLabel = "DB", description = "Database name.")
  String db;

  @Option(
      names = "--collection",
      required = true,
      paramLabel = "NAME",
      description = "Collection name.")
  String collection;

  /** {@code db.collection}. */
  String namespace() {
    return db + "." + collection;
  }

  /** A client with short timeouts; the caller closes it. */
  MongoClient connect() {
    return connect(uri);
  }

  static MongoClient connect(String uri) {
    return MongoClients.create(clientSettings(uri));
  }

  /**
   * The URI's settings, with a 15 s server selection and 10 s connect timeout unless the URI sets
   * its own, so that an unreachable server fails a run in seconds, not minutes.
   */
  static MongoClientSettings clientSettings(String uri) {
    ConnectionString cs;
    try {
      cs = new ConnectionString(uri);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "invalid --uri "
              + ConnectionStrings.mask(uri)
              + ": "
              + ConnectionStrings.mask(e.getMessage()));
    }
    return MongoClientSettings.builder()
        .applyConnectionString(cs)
        .applyToClusterSettings(
            b -> {
              if (cs.getServerSelectionTimeout() == null) {
                b.serverSelectionTimeout(15, TimeUnit.SECONDS);
              }
            })
        .applyToSocketSettings(
            b -> {
              if (cs.getConnectTimeout() == null) {
                b.connectTimeout(10, TimeUnit.SECONDS);
              }
            })
        .applicationName("flatdump")
        .build();
  }
}
