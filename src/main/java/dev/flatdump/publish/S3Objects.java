package dev.flatdump.publish;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * The object operations of one upload, in one bucket: every object and every part goes up with its
 * SHA-256, which S3 checks on arrival, and with the whole file's SHA-256 as the metadata {@code
 * x-amz-meta-}{@value #SHA256_METADATA}, which tells a later run whether it may skip it. SDK
 * exceptions pass through; {@link ArtifactUploader} adds the context.
 *
 * <p>A PUT or a part carries the precomputed checksum only, never also a checksum algorithm: with
 * both, the SDK announces over plain http a trailing checksum ({@code x-amz-trailer}) that its
 * signed body never carries, beside the {@code x-amz-checksum-sha256} header, and a server that
 * checks checksums as S3 does (MinIO) refuses the request. The algorithm goes only on {@code
 * CreateMultipartUpload}, where it declares the parts' checksum type.
 */
final class S3Objects {

  /** User metadata holding the whole file's SHA-256 as lowercase hex. */
  static final String SHA256_METADATA = "sha256";

  private final S3Client s3;
  private final String bucket;

  S3Objects(S3Client s3, String bucket) {
    this.s3 = s3;
    this.bucket = bucket;
  }

  /** The object's size, metadata and checksum, or empty when there is no such object. */
  Optional<HeadObjectResponse> head(String key) {
    try {
      return Optional.of(
          s3.headObject(b -> b.bucket(bucket).key(key).checksumMode(ChecksumMode.ENABLED)));
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * Whether the object holds exactly the file: same size, our SHA-256 metadata equal to the file's,
   * and, when S3 reports a SHA-256 checksum, that checksum equal to the file's (whole, or composite
   * of the parts this upload would use).
   */
  static boolean holds(HeadObjectResponse head, FileDigest file) {
    if (head.contentLength() == null || head.contentLength() != file.size()) {
      return false;
    }
    if (!file.hex().equals(head.metadata().get(SHA256_METADATA))) {
      return false;
    }
    String checksum = head.checksumSHA256();
    return checksum == null
        || checksum.equals(file.base64())
        || checksum.equals(file.compositeBase64());
  }

  /** Uploads the file in one PUT, or in parts when its digest has parts. */
  void upload(String key, Path file, FileDigest digest, String contentType) {
    if (digest.multipart()) {
      uploadInParts(key, file, digest, contentType);
    } else {
      put(key, file, digest, contentType);
    }
  }

  void delete(String key) {
    s3.deleteObject(b -> b.bucket(bucket).key(key));
  }

  private void put(String key, Path file, FileDigest digest, String contentType) {
    try (FileRegion body = new FileRegion(file, 0, digest.size())) {
      s3.putObject(
          b ->
              b.bucket(bucket)
                  .key(key)
                  .contentLength(digest.size())
                  .checksumSHA256(digest.base64())
                  .metadata(Map.of(SHA256_METADATA, digest.hex())),
          RequestBody.fromContentProvider(body, digest.size(), contentType));
    }
  }

  /** Create, upload every part, complete; aborts the upload when any step fails. */
  private void uploadInParts(String key, Path file, FileDigest digest, String contentType) {
    String uploadId =
        s3.createMultipartUpload(
                b ->
                    b.bucket(bucket)
                        .key(key)
                        .contentType(contentType)
                        .checksumAlgorithm(ChecksumAlgorithm.SHA256)
                        .metadata(Map.of(SHA256_METADATA, digest.hex())))
            .uploadId();
    try {
      List<CompletedPart> parts = new ArrayList<>(digest.parts());
      for (int i = 0; i < digest.parts(); i++) {
        parts.add(uploadPart(key, uploadId, file, digest, i));
      }
      s3.completeMultipartUpload(
          b -> b.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(parts)));
    } catch (RuntimeException e) {
      try {
        s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
      } catch (RuntimeException abort) {
        // S3 drops the parts later if a lifecycle rule says so; the failure that matters is e
        e.addSuppressed(abort);
      }
      throw e;
    }
  }

  private CompletedPart uploadPart(
      String key, String uploadId, Path file, FileDigest digest, int index) {
    int partNumber = index + 1;
    long length = digest.partLength(index);
    String checksum = digest.partBase64(index);
    UploadPartResponse response;
    try (FileRegion body = new FileRegion(file, digest.partOffset(index), length)) {
      response =
          s3.uploadPart(
              b ->
                  b.bucket(bucket)
                      .key(key)
                      .uploadId(uploadId)
                      .partNumber(partNumber)
                      .contentLength(length)
                      .checksumSHA256(checksum),
              RequestBody.fromContentProvider(body, length, "application/octet-stream"));
    }
    if (response.checksumSHA256() != null && !response.checksumSHA256().equals(checksum)) {
      throw SdkClientException.create(
          "part "
              + partNumber
              + " arrived with SHA-256 "
              + response.checksumSHA256()
              + ", sent "
              + checksum);
    }
    return CompletedPart.builder()
        .partNumber(partNumber)
        .eTag(response.eTag())
        .checksumSHA256(checksum)
        .build();
  }
}
