package dev.flatdump.publish;

import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OutputLayout;
import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Uploads a finished export to S3: every file {@code manifest.json} lists, in the manifest's order
 * (data shards first), then {@code manifest.json} itself, last, so that a consumer that sees the
 * manifest sees a complete set.
 *
 * <p><b>Verified.</b> Before a file goes up, its SHA-256 must equal the manifest's. It goes up with
 * its SHA-256 (per part for multipart uploads), which S3 checks on arrival, and the object is then
 * checked with a HEAD: size, the {@code x-amz-meta-sha256} metadata and, when the server reports
 * one, the SHA-256 checksum. An object that fails the check is deleted.
 *
 * <p><b>Idempotent.</b> An object that already holds the file (same size, same SHA-256 metadata,
 * same checksum when reported) is skipped, so a re-run after a failure sends only what is missing
 * or different. Before the first object of a <i>different</i> export replaces one under the same
 * prefix, the remote {@code manifest.json} is deleted, so it never describes a mix of two exports;
 * the new one is uploaded at the end.
 *
 * <p>Files above {@link S3Settings#multipartThresholdBytes()} go up in parts, read from disk part
 * by part; nothing is held in memory beyond I/O buffers. Each request is retried by the SDK up to
 * {@link S3Settings#maxAttempts()} times with exponential backoff.
 *
 * <p>Credentials come from the SDK's default chain only (see {@link S3Settings}); no message this
 * class produces contains them. Progress goes to the {@code Consumer<String>} given at
 * construction, one line per file, e.g. {@code organizations.fb: 1048576 bytes uploaded to
 * s3://bucket/prefix/organizations.fb}, or {@code ... skipped, unchanged at ...}.
 *
 * <p>The uploader owns its S3 client: close it when done. {@link #upload} may be called many times,
 * also concurrently for different targets; the progress consumer must then be thread-safe.
 */
public final class ArtifactUploader implements Closeable {

  private final S3Settings settings;
  private final Consumer<String> progress;
  private final DefaultCredentialsProvider credentials;
  private final S3Client s3;
  private final String endpoint;

  /**
   * Builds the S3 client. No request is sent yet, so a wrong endpoint or missing credentials show
   * up at the first {@link #upload}.
   *
   * @param progress receives one line per file; use {@code line -> {}} to ignore it
   * @throws UploadException when no region is set and the SDK's region chain finds none
   */
  public ArtifactUploader(S3Settings settings, Consumer<String> progress) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.progress = Objects.requireNonNull(progress, "progress");
    this.credentials = DefaultCredentialsProvider.builder().build();
    try {
      this.s3 = S3Clients.create(settings, credentials);
    } catch (SdkException e) {
      credentials.close();
      throw new UploadException(
          "cannot configure the S3 client: "
              + e.getMessage()
              + " (set AWS_REGION, or the region in the S3 settings)",
          null,
          null,
          e);
    }
    this.endpoint =
        settings.endpointOverride() != null
            ? "endpoint " + settings.endpointOverride()
            : "AWS S3 in " + s3.serviceClientConfiguration().region();
  }

  /**
   * Uploads the export in {@code exportDir} that {@code manifest} describes to {@code target}.
   * {@code exportDir} must hold every listed file and a {@code manifest.json} equal to {@code
   * manifest}, as {@link dev.flatdump.artifact.write.LocalPublisher} leaves it. Nothing is sent
   * unless all of them are present with the manifest's sizes.
   *
   * @return one entry per object, in upload order, {@code manifest.json} last
   * @throws UploadException naming the object and the endpoint when a file does not match the
   *     manifest, or a request still fails after the last attempt, or an object does not hold what
   *     was sent; objects uploaded before stay, {@code manifest.json} is not uploaded
   */
  public List<PublishedObject> upload(Path exportDir, Manifest manifest, S3Location target) {
    Objects.requireNonNull(exportDir, "exportDir");
    Objects.requireNonNull(manifest, "manifest");
    Objects.requireNonNull(target, "target");
    return new ExportUpload(
            new S3Objects(s3, target.bucket()), settings, target, endpoint, progress)
        .run(exportDir, manifest);
  }

  /**
   * Publishes an export as {@link dev.flatdump.artifact.write.LocalPublisher} does locally: its
   * files go under {@code root/exports/NAME/} by {@link #upload} (manifest last), then the pointer
   * object {@code root/CURRENT}, holding {@code exports/NAME}, is written last. A consumer that
   * reads {@code CURRENT} and then the manifest it names sees one complete export. Idempotent as
   * {@link #upload} is; an unchanged pointer is skipped too.
   *
   * @return one entry per object, in upload order, {@code CURRENT} last
   * @throws UploadException as {@link #upload}; the pointer is not written then
   */
  public List<PublishedObject> publish(
      Path exportDir, String exportName, Manifest manifest, S3Location root) {
    Objects.requireNonNull(root, "root");
    String pointer = OutputLayout.pointerText(exportName);
    List<PublishedObject> objects =
        new ArrayList<>(upload(exportDir, manifest, root.child(pointer)));
    objects.add(
        new ExportUpload(new S3Objects(s3, root.bucket()), settings, root, endpoint, progress)
            .pointer(OutputLayout.CURRENT_FILE, (pointer + "\n").getBytes(StandardCharsets.UTF_8)));
    return List.copyOf(objects);
  }

  /** Closes the S3 client and the credentials chain. Idempotent. */
  @Override
  public void close() {
    s3.close();
    credentials.close();
  }
}
