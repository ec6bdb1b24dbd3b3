package dev.flatdump.cli;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.flatdump.source.ConnectionStrings;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Option;

/** The {@code --uri --db --collection} options that name a collection, shared by the commands. */
public final class MongoTarget {

  @Option(
      names = "--uri",
      paramLabel = "URI",
      description = "MongoDB connection string (required); its password is never printed.")
  String uri;

  @Option(names = "--db", paramLabel = "DB", description = "Database name (required).")
  String db;

  @Option(names = "--collection", paramLabel = "NAME", description = "Collection name (required).")
  String collection;

  /**
   * Fails with a usage error naming every missing option and where else it could come from. These
   * options are not {@code required} for picocli, so that the environment or a job file can give
   * them.
   */
  void requireComplete() {
    requireNone(missing());
  }

  /** The options of this group that have no value from any source. */
  java.util.List<String> missing() {
    var missing = new java.util.ArrayList<String>();
    if (uri == null || uri.isBlank()) {
      missing.add("--uri");
    }
    if (db == null || db.isBlank()) {
      missing.add("--db");
    }
    if (collection == null || collection.isBlank()) {
      missing.add("--collection");
    }
    return missing;
  }

  static void requireNone(java.util.List<String> missing) {
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(
          "missing "
              + String.join(", ", missing)
              + " (give "
              + (missing.size() == 1 ? "it" : "them")
              + " on the command line, as "
              + missing.stream()
                  .map(OptionSources::envName)
                  .collect(java.util.stream.Collectors.joining(", "))
              + ", or in a --job-file)");
    }
  }

  /** The connection string given, or null. */
  public String uri() {
    return uri;
  }

  /** The database given, or null. */
  public String db() {
    return db;
  }

  /** The collection given, or null. */
  public String collection() {
    return collection;
  }

  /** {@code db.collection}. */
  public String namespace() {
    return db + "." + collection;
  }

  /** A client with short timeouts; the caller closes it. */
  public MongoClient connect() {
    return connect(uri);
  }

  public static MongoClient connect(String uri) {
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
