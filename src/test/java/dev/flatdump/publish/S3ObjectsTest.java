package dev.flatdump.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import dev.flatdump.artifact.Checksums;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

class S3ObjectsTest {

  private static final String TEXT = "0123456789abcdefghij-tail"; // 25 bytes: 3 parts of 10

  @TempDir Path dir;

  @Nested
  class Multipart {

    @Test
    void sendsEveryPartWithItsSha256AndCompletesInOrder() throws IOException {
      RecordingS3 s3 = new RecordingS3(0);
      Path file = file();

      new S3Objects(s3, "b").upload("k", file, FileDigest.of(file, 10), "application/zstd");

      assertThat(s3.create.checksumAlgorithm()).isEqualTo(ChecksumAlgorithm.SHA256);
      assertThat(s3.create.metadata()).containsEntry("sha256", Checksums.sha256(file));
      assertThat(s3.create.contentType()).isEqualTo("application/zstd");
      assertThat(s3.partBodies).containsExactly("0123456789", "abcdefghij", "-tail");
      for (int i = 0; i < 3; i++) {
        UploadPartRequest part = s3.parts.get(i);
        assertThat(part.partNumber()).isEqualTo(i + 1);
        assertThat(part.checksumSHA256()).isEqualTo(base64Sha256(s3.partBodies.get(i)));
      }
      assertThat(s3.complete.multipartUpload().parts())
          .extracting(CompletedPart::partNumber, CompletedPart::checksumSHA256)
          .containsExactly(
              tuple(1, base64Sha256("0123456789")),
              tuple(2, base64Sha256("abcdefghij")),
              tuple(3, base64Sha256("-tail")));
      assertThat(s3.aborts).isEmpty();
    }

    @Test
    void abortsTheUploadWhenAPartFails() throws IOException {
      RecordingS3 s3 = new RecordingS3(2);
      Path file = file();

      SdkClientException e =
          catchThrowableOfType(
              SdkClientException.class,
              () -> new S3Objects(s3, "b").upload("k", file, FileDigest.of(file, 10), "x/y"));

      assertThat(e).hasMessage("part 2 refused");
      assertThat(s3.aborts)
          .extracting(AbortMultipartUploadRequest::uploadId)
          .containsExactly("u-1");
      assertThat(s3.complete).isNull();
    }

    @Test
    void keepsThePartFailureWhenTheAbortFailsToo() throws IOException {
      RecordingS3 s3 = new RecordingS3(1);
      s3.abortFails = true;
      Path file = file();

      SdkClientException e =
          catchThrowableOfType(
              SdkClientException.class,
              () -> new S3Objects(s3, "b").upload("k", file, FileDigest.of(file, 10), "x/y"));

      assertThat(e).hasMessage("part 1 refused");
      assertThat(e.getSuppressed())
          .extracting(Throwable::getMessage)
          .containsExactly("abort refused");
    }
  }

  @Nested
  class Holds {

    private final FileDigest digest =
        new FileDigest(25, HexFormat.of().parseHex(Checksums.sha256(bytes())), 0, List.of());

    @Test
    void whenSizeMetadataAndChecksumMatch() {
      assertThat(S3Objects.holds(head(25, Checksums.sha256(bytes()), digest.base64()), digest))
          .isTrue();
    }

    @Test
    void whenTheServerReportsNoChecksum() {
      assertThat(S3Objects.holds(head(25, Checksums.sha256(bytes()), null), digest)).isTrue();
    }

    @Test
    void whenTheChecksumIsTheCompositeOfTheSameParts() throws IOException {
      Path file = file();
      FileDigest parts = FileDigest.of(file, 10);

      assertThat(parts.compositeBase64()).endsWith("-3");
      assertThat(S3Objects.holds(head(25, parts.hex(), parts.compositeBase64()), parts)).isTrue();
    }

    @Test
    void notWhenTheSizeDiffers() {
      assertThat(S3Objects.holds(head(24, Checksums.sha256(bytes()), null), digest)).isFalse();
    }

    @Test
    void notWithoutOurMetadata() {
      assertThat(S3Objects.holds(head(25, null, digest.base64()), digest)).isFalse();
    }

    @Test
    void notWhenTheChecksumDiffers() {
      String other = Base64.getEncoder().encodeToString(new byte[32]);

      assertThat(S3Objects.holds(head(25, Checksums.sha256(bytes()), other), digest)).isFalse();
    }

    private static HeadObjectResponse head(long size, String sha256, String checksum) {
      return HeadObjectResponse.builder()
          .contentLength(size)
          .metadata(sha256 == null ? Map.of() : Map.of("sha256", sha256))
          .checksumSHA256(checksum)
          .build();
    }
  }

  private Path file() throws IOException {
    Path file = dir.resolve("shard.fb");
    Files.write(file, bytes());
    return file;
  }

  private static byte[] bytes() {
    return TEXT.getBytes(StandardCharsets.US_ASCII);
  }

  private static String base64Sha256(String text) {
    byte[] sha =
        HexFormat.of().parseHex(Checksums.sha256(text.getBytes(StandardCharsets.US_ASCII)));
    return Base64.getEncoder().encodeToString(sha);
  }

  /** Records the multipart calls; refuses part {@code failingPart} (1-based; 0: none). */
  private static final class RecordingS3 implements S3Client {

    private final int failingPart;
    private boolean abortFails;
    private CreateMultipartUploadRequest create;
    private final List<UploadPartRequest> parts = new ArrayList<>();
    private final List<String> partBodies = new ArrayList<>();
    private CompleteMultipartUploadRequest complete;
    private final List<AbortMultipartUploadRequest> aborts = new ArrayList<>();

    RecordingS3(int failingPart) {
      this.failingPart = failingPart;
    }

    @Override
    public CreateMultipartUploadResponse createMultipartUpload(
        CreateMultipartUploadRequest request) {
      create = request;
      return CreateMultipartUploadResponse.builder().uploadId("u-1").build();
    }

    @Override
    public UploadPartResponse uploadPart(UploadPartRequest request, RequestBody body) {
      if (request.partNumber() == failingPart) {
        throw SdkClientException.create("part " + failingPart + " refused");
      }
      parts.add(request);
      try (InputStream in = body.contentStreamProvider().newStream()) {
        partBodies.add(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return UploadPartResponse.builder()
          .eTag("e" + request.partNumber())
          .checksumSHA256(request.checksumSHA256())
          .build();
    }

    @Override
    public CompleteMultipartUploadResponse completeMultipartUpload(
        CompleteMultipartUploadRequest request) {
      complete = request;
      return CompleteMultipartUploadResponse.builder().build();
    }

    @Override
    public AbortMultipartUploadResponse abortMultipartUpload(AbortMultipartUploadRequest request) {
      aborts.add(request);
      if (abortFails) {
        throw SdkClientException.create("abort refused");
      }
      return AbortMultipartUploadResponse.builder().build();
    }

    @Override
    public String serviceName() {
      return "s3";
    }

    @Override
    public void close() {}
  }
}
