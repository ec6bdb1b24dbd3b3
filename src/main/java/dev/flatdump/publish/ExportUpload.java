package dev.flatdump.publish;

import dev.flatdump.FlatdumpException;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.compress.Compression;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * One run of {@link ArtifactUploader#upload}: one export to one target. See there for the order,
 * the checks and the skipping; every failure becomes an {@link UploadException} that names the
 * object, the target and the endpoint.
 */
final class ExportUpload {

  private static final Map<String, String> CONTENT_TYPES =
      Map.of(
          "flatbuffers", "application/octet-stream",
          "jsonl", "application/x-ndjson",
          "json", "application/json",
          "markdown", "text/markdown; charset=utf-8",
          "html", "text/html; charset=utf-8",
          "fbs", "text/plain; charset=utf-8");

  private final S3Objects objects;
  private final S3Settings settings;
  private final S3Location target;
  private final String endpoint;
  private final Consumer<String> progress;

  /**
   * @param endpoint how messages name the endpoint, e.g. {@code endpoint http://127.0.0.1:9000}
   */
  ExportUpload(
      S3Objects objects,
      S3Settings settings,
      S3Location target,
      String endpoint,
      Consumer<String> progress) {
    this.objects = objects;
    this.settings = settings;
    this.target = target;
    this.endpoint = endpoint;
    this.progress = progress;
  }

  List<PublishedObject> run(Path exportDir, Manifest manifest) {
    checkLocalFiles(exportDir, manifest);
    Path manifestFile = exportDir.resolve(Manifest.FILE_NAME);
    FileDigest manifestDigest = digest(manifestFile, 0, Manifest.FILE_NAME);

    List<PublishedObject> published = new ArrayList<>();
    boolean remoteManifestChecked = false;
    for (ArtifactFile file : manifest.files()) {
      Path path = exportDir.resolve(file.name());
      long partSize = settings.multipart(file.bytes()) ? settings.partSizeFor(file.bytes()) : 0;
      FileDigest digest = digest(path, partSize, file.name());
      if (!digest.hex().equals(file.sha256())) {
        throw failure(
            file.name(),
            path + " has SHA-256 " + digest.hex() + " but the manifest says " + file.sha256(),
            null);
      }
      boolean unchanged = unchanged(file.name(), digest);
      if (!unchanged && !remoteManifestChecked) {
        retractRemoteManifest(manifestDigest);
        remoteManifestChecked = true;
      }
      published.add(publish(file.name(), path, digest, contentType(file), unchanged));
    }
    published.add(
        publish(
            Manifest.FILE_NAME,
            manifestFile,
            manifestDigest,
            CONTENT_TYPES.get("json"),
            unchanged(Manifest.FILE_NAME, manifestDigest)));
    return List.copyOf(published);
  }

  /**
   * Writes a small object, such as the {@code CURRENT} pointer, from bytes (through a temporary
   * file, so that it goes up, is verified and skipped when unchanged as the export's files are).
   */
  PublishedObject pointer(String name, byte[] content) {
    Path tmp;
    try {
      tmp = Files.createTempFile("flatdump-" + name, ".txt");
    } catch (IOException e) {
      throw failure(name, "cannot create a temporary file: " + e.getMessage(), e);
    }
    try {
      Files.write(tmp, content);
      FileDigest digest = digest(tmp, 0, name);
      return publish(name, tmp, digest, "text/plain; charset=utf-8", unchanged(name, digest));
    } catch (IOException e) {
      throw failure(name, "cannot write " + tmp + ": " + e.getMessage(), e);
    } finally {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // a few bytes in the temporary directory
      }
    }
  }

  private PublishedObject publish(
      String name, Path path, FileDigest digest, String contentType, boolean unchanged) {
    String key = target.key(name);
    PublishedObject result;
    if (unchanged) {
      result = new PublishedObject(name, target.uriOf(name), digest.size(), true);
    } else {
      call(name, "sending it", () -> objects.upload(key, path, digest, contentType));
      verify(name, digest);
      result = new PublishedObject(name, target.uriOf(name), digest.size(), false);
    }
    progress.accept(result.describe());
    return result;
  }

  private boolean unchanged(String name, FileDigest digest) {
    String key = target.key(name);
    return call(name, "checking the existing object", () -> objects.head(key))
        .filter(head -> S3Objects.holds(head, digest))
        .isPresent();
  }

  /** After an upload, the object must hold the file; if it does not, it goes. */
  private void verify(String name, FileDigest digest) {
    String key = target.key(name);
    Optional<HeadObjectResponse> head =
        call(name, "checking what arrived", () -> objects.head(key));
    if (head.isPresent() && S3Objects.holds(head.get(), digest)) {
      return;
    }
    String found =
        head.map(
                h ->
                    "it holds "
                        + h.contentLength()
                        + " bytes, SHA-256 metadata "
                        + h.metadata().get(S3Objects.SHA256_METADATA)
                        + ", checksum "
                        + h.checksumSHA256())
            .orElse("it is missing");
    UploadException e =
        failure(
            name,
            "after the upload "
                + found
                + "; expected "
                + digest.size()
                + " bytes, SHA-256 "
                + digest.hex(),
            null);
    try {
      objects.delete(key);
    } catch (SdkException deleteFailed) {
      e.addSuppressed(deleteFailed);
    }
    throw e;
  }

  /**
   * Called before the first object changes: a remote manifest of another export must not outlive
   * the objects it describes. An identical one (a re-run repairing an object) stays.
   */
  private void retractRemoteManifest(FileDigest manifestDigest) {
    String name = Manifest.FILE_NAME;
    Optional<HeadObjectResponse> remote =
        call(name, "checking the existing object", () -> objects.head(target.key(name)));
    if (remote.isPresent() && !S3Objects.holds(remote.get(), manifestDigest)) {
      call(name, "deleting the previous manifest", () -> objects.delete(target.key(name)));
      progress.accept(name + ": previous manifest deleted from " + target + " before replacing");
    }
  }

  /** Every file present with the manifest's size, and the manifest on disk equal to the given. */
  private void checkLocalFiles(Path exportDir, Manifest manifest) {
    Set<String> names = new HashSet<>();
    for (ArtifactFile file : manifest.files()) {
      String name = file.name();
      if (name.equals(Manifest.FILE_NAME)) {
        throw exportFailure("the manifest lists itself as one of its files", null);
      }
      if (!names.add(name)) {
        throw exportFailure("the manifest lists " + name + " twice", null);
      }
      try {
        target.key(name);
      } catch (IllegalArgumentException e) {
        throw exportFailure(e.getMessage(), e);
      }
      Path path = exportDir.resolve(name);
      long size = size(path, name);
      if (size != file.bytes()) {
        throw failure(
            name, path + " has " + size + " bytes but the manifest says " + file.bytes(), null);
      }
    }
    Path manifestFile = exportDir.resolve(Manifest.FILE_NAME);
    Manifest onDisk;
    try {
      onDisk = Manifest.read(manifestFile);
    } catch (FlatdumpException e) {
      throw failure(Manifest.FILE_NAME, e.getMessage(), e);
    }
    if (!onDisk.equals(manifest)) {
      throw failure(
          Manifest.FILE_NAME,
          manifestFile + " is not the manifest given; publish the export first",
          null);
    }
  }

  private long size(Path path, String name) {
    try {
      return Files.size(path);
    } catch (IOException e) {
      throw failure(name, "cannot read " + path + ": " + e, e);
    }
  }

  private FileDigest digest(Path path, long partSize, String name) {
    try {
      return FileDigest.of(path, partSize);
    } catch (IOException e) {
      throw failure(name, "cannot read " + path + ": " + e, e);
    }
  }

  private interface S3Call<T> {
    T run();
  }

  private interface S3Action {
    void run();
  }

  private void call(String name, String step, S3Action request) {
    call(
        name,
        step,
        () -> {
          request.run();
          return null;
        });
  }

  /** Runs one S3 operation (already retried by the SDK); its failure names the object. */
  private <T> T call(String name, String step, S3Call<T> request) {
    try {
      return request.run();
    } catch (SdkException | UncheckedIOException e) {
      throw failure(name, step + ": " + e.getMessage(), e);
    }
  }

  /** {@code cannot upload NAME to s3://bucket/key via ENDPOINT: WHY}. */
  private UploadException failure(String name, String why, Throwable cause) {
    return new UploadException(
        "cannot upload " + name + " to " + target.uriOf(name) + " via " + endpoint + ": " + why,
        target,
        target.key(name),
        cause);
  }

  /** {@code cannot upload the export to s3://bucket/prefix/ via ENDPOINT: WHY}. */
  private UploadException exportFailure(String why, Throwable cause) {
    return new UploadException(
        "cannot upload the export to " + target + " via " + endpoint + ": " + why,
        target,
        null,
        cause);
  }

  static String contentType(ArtifactFile file) {
    if (Compression.NAMES.contains(file.format())) {
      return Compression.create(file.format(), null).mediaType();
    }
    if (dev.flatdump.columnar.ColumnarCopy.FORMAT.equals(file.format())) {
      return dev.flatdump.columnar.ColumnarCopy.MEDIA_TYPE;
    }
    return CONTENT_TYPES.getOrDefault(file.format(), "application/octet-stream");
  }
}
