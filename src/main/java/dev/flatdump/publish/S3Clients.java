package dev.flatdump.publish;

import dev.flatdump.reader.s3.PullClients;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;

/** Builds the S3 client {@link ArtifactUploader} owns, from {@link S3Settings}. */
final class S3Clients {

  private S3Clients() {}

  /**
   * A client over the JDK's {@code HttpURLConnection}, retrying each request up to {@link
   * S3Settings#maxAttempts()} times with the SDK's standard backoff.
   *
   * @throws software.amazon.awssdk.core.exception.SdkClientException when no region is set and the
   *     SDK's region chain finds none
   */
  static S3Client create(S3Settings settings, AwsCredentialsProvider credentials) {
    return PullClients.create(
        settings.endpointOverride(),
        settings.effectiveRegion().orElse(null),
        settings.pathStyleAccess(),
        settings.maxAttempts(),
        credentials);
  }
}
