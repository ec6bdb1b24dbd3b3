package dev.flatdump.reader.s3;

import dev.flatdump.reader.ManifestFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One attempt at downloading one export into its staging directory: every file its manifest lists,
 * the binary schema first, then the data shards. A data shard comes through its columnar copy
 * ({@code .fbc}) when the manifest lists one, kept too and rebuilt into the shard with the binary
 * schema; its other copies (gzip, zstd) are then not downloaded at all ({@link #skipped()}), unless
 * the columnar copy is refused at every attempt: then the shard comes through its zstd copy, and
 * the columnar copy is the one the local export lacks. Else it comes through its {@code .zst} copy
 * when the manifest lists one (kept too, and decompressed into the shard), else as itself. Every
 * file is checked against the manifest; a corrupt one is deleted and downloaded again, up to {@link
 * PullSettings#objectAttempts()} times. Not thread-safe.
 */
final class ExportDownload {

  /** The export disappeared or changed while it was downloaded: start again from CURRENT. */
  static final class ExportGone extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ExportGone(String message) {
      super(message);
    }
  }

  /** The copies a shard rebuilt from its columnar copy does without. */
  private static final Set<String> SKIPPED_FORMATS = Set.of("gzip", ManifestFiles.ZSTD);

  private final ObjectDownload objects;
  private final S3Prefix root;
  private final String name;
  private final ManifestFiles manifest;
  private final Path staging;
  private final int objectAttempts;
  private final BooleanSupplier manifestUnchanged;
  private final Consumer<String> progress;
  private final Set<String> skipped = new TreeSet<>();
  private long transferred;

  /**
   * @param manifestUnchanged asked after a corrupt object: whether the remote manifest still is the
   *     one being downloaded (if not, the export changed, and the pull starts again)
   */
  ExportDownload(
      ObjectDownload objects,
      S3Prefix root,
      String name,
      ManifestFiles manifest,
      Path staging,
      int objectAttempts,
      BooleanSupplier manifestUnchanged,
      Consumer<String> progress) {
    this.objects = objects;
    this.root = root;
    this.name = name;
    this.manifest = manifest;
    this.staging = staging;
    this.objectAttempts = objectAttempts;
    this.manifestUnchanged = manifestUnchanged;
    this.progress = progress;
  }

  /**
   * Downloads every listed file into the staging directory, but the {@linkplain #skipped() copies
   * of shards rebuilt from their columnar copies}.
   *
   * @return the bytes received from S3
   * @throws ExportGone when an object is missing or the manifest changed meanwhile
   * @throws PullException when an object stays corrupt after the last attempt, naming it and why
   */
  long run() {
    Optional<ManifestFiles.File> bfbs = manifest.binarySchema();
    Set<String> withShard = new HashSet<>();
    for (ManifestFiles.File f : manifest.files()) {
      if (!ManifestFiles.FLATBUFFERS.equals(f.format())) {
        continue;
      }
      Optional<ManifestFiles.File> columnar =
          bfbs.isPresent() ? manifest.columnarCopyOf(f) : Optional.empty();
      if (columnar.isPresent()) {
        withShard.add(columnar.get().name());
        for (ManifestFiles.File other : manifest.files()) {
          if (other.shard() != null
              && other.shard().equals(f.shard())
              && SKIPPED_FORMATS.contains(other.format())) {
            skipped.add(other.name()); // its gzip and zstd copies: not needed for the shard
          }
        }
      } else {
        manifest.zstdCopyOf(f).ifPresent(z -> withShard.add(z.name()));
      }
    }
    for (String copy : skipped) {
      // left by an earlier run, perhaps of another export under this name: never checked now
      deleteQuietly(staging.resolve(copy));
      deleteQuietly(ObjectDownload.partOf(staging.resolve(copy)));
    }
    if (bfbs.isPresent()) {
      // first: the shards' columnar copies rebuild with it
      withAttempts(bfbs.get(), () -> fetch(bfbs.get()));
    }
    for (ManifestFiles.File f : manifest.files()) {
      if (withShard.contains(f.name())
          || skipped.contains(f.name())
          || bfbs.equals(Optional.of(f))) {
        continue; // pulled with its shard, not needed, or pulled first
      }
      if (!ManifestFiles.FLATBUFFERS.equals(f.format())) {
        withAttempts(f, () -> fetch(f));
        continue;
      }
      Optional<ManifestFiles.File> columnar =
          bfbs.isPresent() ? manifest.columnarCopyOf(f) : Optional.empty();
      Optional<ManifestFiles.File> zst = manifest.zstdCopyOf(f);
      if (columnar.isPresent()) {
        try {
          withAttempts(columnar.get(), () -> shardThroughColumnar(f, columnar.get(), bfbs.get()));
        } catch (PullException refused) {
          if (zst.isEmpty()) {
            throw refused;
          }
          // Refused at every attempt: the shard comes through its zstd copy instead, and the
          // local export lacks the columnar copy rather than the zstd one.
          progress.accept(
              name
                  + "/"
                  + f.name()
                  + ": "
                  + refused.getMessage()
                  + "; pulled through "
                  + zst.get().name()
                  + " instead");
          deleteQuietly(staging.resolve(columnar.get().name()));
          deleteQuietly(ObjectDownload.partOf(staging.resolve(columnar.get().name())));
          skipped.remove(zst.get().name());
          skipped.add(columnar.get().name());
          withAttempts(zst.get(), () -> shardThroughCopy(f, zst.get()));
        }
      } else if (zst.isPresent()) {
        withAttempts(zst.get(), () -> shardThroughCopy(f, zst.get()));
      } else {
        withAttempts(f, () -> fetch(f));
      }
    }
    if (!skipped.isEmpty()) {
      progress.accept(
          name
              + ": "
              + skipped.size()
              + (skipped.size() == 1 ? " copy" : " copies")
              + " of shards not downloaded (each shard came through one copy alone);"
              + " the local export lacks them");
    }
    return transferred;
  }

  /**
   * The listed copies this download left out: the other copies (gzip, zstd) of each shard rebuilt
   * from its columnar copy. The published export lacks exactly these.
   */
  Set<String> skipped() {
    return Collections.unmodifiableSet(skipped);
  }

  private void shardThroughColumnar(
      ManifestFiles.File shard, ManifestFiles.File copy, ManifestFiles.File bfbs) {
    fetch(copy);
    Path raw = staging.resolve(shard.name());
    try {
      if (isComplete(raw, shard)) {
        progress.accept(name + "/" + shard.name() + ": already rebuilt");
        return; // rebuilt by an earlier run
      }
      ColumnarShard.rebuild(
          staging.resolve(copy.name()),
          staging.resolve(bfbs.name()),
          raw,
          shard.bytes(),
          shard.sha256());
    } catch (ObjectDownload.CorruptObject e) {
      // the copy matched the manifest, its content does not rebuild the shard: download it again
      deleteQuietly(staging.resolve(copy.name()));
      throw e;
    } catch (IOException e) {
      throw new PullException("cannot write " + raw + ": " + e.getMessage(), e);
    }
    progress.accept(name + "/" + shard.name() + ": rebuilt from the columnar copy and checked");
  }

  private static boolean isComplete(Path file, ManifestFiles.File listed) throws IOException {
    return java.nio.file.Files.isRegularFile(file)
        && java.nio.file.Files.size(file) == listed.bytes()
        && listed.sha256().equals(ObjectDownload.sha256Of(file));
  }

  private void shardThroughCopy(ManifestFiles.File shard, ManifestFiles.File zst) {
    fetch(zst);
    Path raw = staging.resolve(shard.name());
    try {
      if (isComplete(raw, shard)) {
        return; // decompressed by an earlier run
      }
      ZstdShard.decompress(staging.resolve(zst.name()), raw, shard.bytes(), shard.sha256());
    } catch (ObjectDownload.CorruptObject e) {
      // the copy matched the manifest, its content does not: download it again
      deleteQuietly(staging.resolve(zst.name()));
      throw e;
    } catch (IOException e) {
      throw new PullException("cannot write " + raw + ": " + e.getMessage(), e);
    }
    progress.accept(name + "/" + shard.name() + ": decompressed and checked");
  }

  private void fetch(ManifestFiles.File f) {
    String relative = LocalExports.EXPORTS + "/" + name + "/" + f.name();
    ObjectDownload.Fetched got =
        objects.fetch(
            root.key(relative),
            root.uriOf(relative),
            staging.resolve(f.name()),
            f.bytes(),
            f.sha256());
    transferred += got.transferred();
    if (got.resumedAt() < 0) {
      progress.accept(name + "/" + f.name() + ": already downloaded");
    } else if (got.resumedAt() > 0) {
      progress.accept(
          name
              + "/"
              + f.name()
              + ": "
              + got.transferred()
              + " bytes downloaded, resumed at byte "
              + got.resumedAt());
    } else {
      progress.accept(name + "/" + f.name() + ": " + got.transferred() + " bytes downloaded");
    }
  }

  private void withAttempts(ManifestFiles.File object, Runnable download) {
    String uri = root.uriOf(LocalExports.EXPORTS + "/" + name + "/" + object.name());
    for (int attempt = 1; ; attempt++) {
      try {
        download.run();
        return;
      } catch (ObjectDownload.MissingObject e) {
        throw new ExportGone(e.getMessage());
      } catch (ObjectDownload.CorruptObject e) {
        if (!manifestUnchanged.getAsBoolean()) {
          throw new ExportGone(
              uri
                  + " did not match the manifest, which changed meanwhile ("
                  + e.getMessage()
                  + ")");
        }
        if (attempt >= objectAttempts) {
          throw new PullException(
              "cannot pull "
                  + uri
                  + ": "
                  + e.getMessage()
                  + " (refused "
                  + attempt
                  + " time"
                  + (attempt == 1 ? "" : "s")
                  + "; the local current export is unchanged)");
        }
        progress.accept(
            name
                + "/"
                + object.name()
                + ": refused ("
                + e.getMessage()
                + "), deleted; attempt "
                + (attempt + 1)
                + " of "
                + objectAttempts);
      }
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      java.nio.file.Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // the next attempt replaces it
    }
  }
}
