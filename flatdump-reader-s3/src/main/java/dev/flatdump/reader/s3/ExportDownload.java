package dev.flatdump.reader.s3;

import dev.flatdump.reader.ManifestFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One attempt at downloading one export into its staging directory: every file its manifest lists,
 * data shards first, a data shard through its {@code .zst} copy when the manifest lists one (kept
 * too, and decompressed into the shard). Every file is checked against the manifest; a corrupt one
 * is deleted and downloaded again, up to {@link PullSettings#objectAttempts()} times. Not
 * thread-safe.
 */
final class ExportDownload {

  /** The export disappeared or changed while it was downloaded: start again from CURRENT. */
  static final class ExportGone extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ExportGone(String message) {
      super(message);
    }
  }

  private final ObjectDownload objects;
  private final S3Prefix root;
  private final String name;
  private final ManifestFiles manifest;
  private final Path staging;
  private final int objectAttempts;
  private final BooleanSupplier manifestUnchanged;
  private final Consumer<String> progress;
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
   * Downloads every listed file into the staging directory.
   *
   * @return the bytes received from S3
   * @throws ExportGone when an object is missing or the manifest changed meanwhile
   * @throws PullException when an object stays corrupt after the last attempt, naming it and why
   */
  long run() {
    Set<String> copies = new HashSet<>();
    for (ManifestFiles.File f : manifest.files()) {
      if (ManifestFiles.FLATBUFFERS.equals(f.format())) {
        manifest.zstdCopyOf(f).ifPresent(z -> copies.add(z.name()));
      }
    }
    for (ManifestFiles.File f : manifest.files()) {
      if (copies.contains(f.name())) {
        continue; // pulled with its shard
      }
      Optional<ManifestFiles.File> zst =
          ManifestFiles.FLATBUFFERS.equals(f.format()) ? manifest.zstdCopyOf(f) : Optional.empty();
      if (zst.isPresent()) {
        withAttempts(zst.get(), () -> shardThroughCopy(f, zst.get()));
      } else {
        withAttempts(f, () -> fetch(f));
      }
    }
    return transferred;
  }

  private void shardThroughCopy(ManifestFiles.File shard, ManifestFiles.File zst) {
    fetch(zst);
    Path raw = staging.resolve(shard.name());
    try {
      if (java.nio.file.Files.isRegularFile(raw)
          && java.nio.file.Files.size(raw) == shard.bytes()
          && shard.sha256().equals(ObjectDownload.sha256Of(raw))) {
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
