package dev.flatdump.reader;

import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.write.LocalPublisher;
import dev.flatdump.example.lookup.Field;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@link KeyedExports} published for the example service in this same process, so that the regions
 * mapped under the output directory are the service's alone: the job's own code maps the shards it
 * writes (to read their key ranges) and leaves those mappings to the garbage collector, so each
 * export is written beside the output directory, then copied and the copy published.
 */
final class ServedExports {

  /** {@link KeyedExports#SCHEMA}'s fields after the key: {@code tag} (id 1), {@code n} (id 2). */
  static final List<Field> FIELDS =
      List.of(new Field("tag", 6, Field.Type.STRING), new Field("n", 8, Field.Type.LONG));

  private ServedExports() {}

  /** As {@link KeyedExports#publish}: into {@code out} as {@code name}, keeping {@code keep}. */
  static Path publish(
      KeyedExports exports, Path out, String name, int keep, List<?> keys, List<String> tags) {
    Path written =
        exports.publish(out.resolveSibling(out.getFileName() + "-written"), name, 1, keys, tags);
    Path staging = out.resolve(".flatdump").resolve("staging-" + name);
    try (Stream<Path> files = Files.list(written)) {
      Files.createDirectories(staging);
      for (Path f : files.toList()) {
        Files.copy(f, staging.resolve(f.getFileName()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Manifest manifest = Manifest.read(staging.resolve(Manifest.FILE_NAME));
    return LocalPublisher.publish(staging, out, name, manifest, keep);
  }

  /** How many shards the export in {@code dir} has. */
  static int shards(Path dir) {
    return ExportManifest.read(dir).shards().size();
  }
}
