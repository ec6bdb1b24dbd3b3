package dev.flatdump.artifact;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * Publishes a finished export from its staging directory into the output directory: every listed
 * file is renamed into place (data first), then {@code manifest.json} is written last, so a
 * consumer that sees the new manifest sees a complete set. Shard files of an earlier export that
 * the new manifest does not list are removed afterwards. The staging directory must be on the
 * output directory's file system, so that every rename is atomic.
 */
public final class Publisher {

  private Publisher() {}

  public static void publish(Path staging, Path out, Manifest manifest) {
    Set<String> names = new HashSet<>();
    for (ArtifactFile f : manifest.files()) {
      names.add(f.name());
      Path staged = staging.resolve(f.name());
      Path target = out.resolve(f.name());
      if (Files.exists(staged)) {
        AtomicFiles.move(staged, target);
      } else if (!Files.exists(target)) {
        throw new ArtifactException("cannot publish " + f.name() + ": missing from " + staging);
      } else if (!Checksums.sha256(target).equals(f.sha256())) {
        // moved by an interrupted publish, or left by an earlier export? only the checksum can tell
        throw new ArtifactException(
            "cannot publish "
                + f.name()
                + ": missing from "
                + staging
                + ", and "
                + target
                + " does not match the manifest's sha256; re-run with --new-run");
      }
    }
    manifest.write(out);
    removeStaleShards(out, names);
  }

  private static void removeStaleShards(Path out, Set<String> keep) {
    try (DirectoryStream<Path> ds =
        Files.newDirectoryStream(out, ShardWriter.BASE_NAME + "*.fb*")) {
      for (Path p : ds) {
        if (!keep.contains(p.getFileName().toString())) {
          Files.deleteIfExists(p);
        }
      }
    } catch (IOException e) {
      throw new ArtifactException("cannot clean stale shards in " + out + ": " + e.getMessage(), e);
    }
  }
}
