package dev.flatdump.reader;

import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.check.ExportCheckFixtures;
import dev.flatdump.artifact.write.LocalPublisher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Real exports for the reader's tests, published as the job publishes them: {@link
 * ExportCheckFixtures} writes the files (shards of the bundled organizations schema, copies, schema
 * files, manifest) into a staging directory, and {@link LocalPublisher} renames it into {@code
 * OUT/exports/NAME} and switches the pointer. And the mapped regions of this process.
 */
final class PublishedExports {

  private PublishedExports() {}

  /** Publishes a new export named {@code name} into {@code out}, keeping {@code keep}. */
  static Path publish(Path out, String name, int keep) {
    return publish(out, name, keep, 11);
  }

  /** Publishes an export of {@code ExportCheckFixtures.orgs(seed)}. */
  static Path publish(Path out, String name, int keep, long seed) {
    Path staging = out.resolve(".flatdump").resolve("staging-" + name);
    try {
      Files.createDirectories(staging);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Manifest manifest = ExportCheckFixtures.export(staging, seed);
    return LocalPublisher.publish(staging, out, name, manifest, keep);
  }
}
