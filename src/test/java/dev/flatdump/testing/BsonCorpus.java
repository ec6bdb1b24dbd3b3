package dev.flatdump.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * MongoDB's BSON corpus (a value of every BSON type, and invalid BSON), as the pymongo 4.20.0 sdist
 * ships it under {@code test/bson_corpus/}. Its licence (CC BY-NC-SA 3.0) does not suit a committed
 * copy, so it is fetched with pip at test time, once ({@link PackageFiles}).
 */
public final class BsonCorpus {

  private BsonCorpus() {}

  /** The corpus's JSON files, fetched and extracted on first use. */
  public static List<Path> files() throws IOException, InterruptedException {
    Path dir =
        PackageFiles.sdist(
                "pymongo-4.20.0-bson-corpus", "pymongo==4.20.0", "*/test/bson_corpus/*.json")
            .resolve("pymongo-4.20.0")
            .resolve("test")
            .resolve("bson_corpus");
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    }
  }
}
