package dev.flatdump.reader.s3;

import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * Builds the S3 clients flatdump uses, the {@link ExportPuller}'s and the upload's: over the JDK's
 * {@code HttpURLConnection}, with bounded timeouts and the SDK's standard retries.
 */
public final class PullClients {

  /** Bounds how long an unreachable endpoint can hold one attempt. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  /** Bounds a stalled transfer: no byte for this long fails the attempt. */
  static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(60);

  private PullClients() {}

  /**
   * A client over the JDK's {@code HttpURLConnection}, each request retried up to {@link
   * PullSettings#requestAttempts()} times with the SDK's standard backoff.
   *
   * @throws software.amazon.awssdk.core.exception.SdkClientException when no region is set and the
   *     SDK's region chain finds none
   */
  static S3Client create(PullSettings settings, AwsCredentialsProvider credentials) {
    return create(
        settings.endpointOverride(),
        settings.effectiveRegion(),
        settings.pathStyleAccess(),
        settings.requestAttempts(),
        credentials);
  }

  /**
   * A client for {@code endpoint} (null: AWS's), in {@code region} (null: the SDK's region chain),
   * path-style or not, each request tried up to {@code attempts} times.
   */
  public static S3Client create(
      java.net.URI endpoint,
      String region,
      boolean pathStyle,
      int attempts,
      AwsCredentialsProvider credentials) {
    S3ClientBuilder builder =
        S3Client.builder()
            .httpClientBuilder(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(CONNECT_TIMEOUT)
                    .socketTimeout(SOCKET_TIMEOUT))
            .credentialsProvider(credentials)
            .forcePathStyle(pathStyle)
            .overrideConfiguration(
                o ->
                    o.retryStrategy(
                        AwsRetryStrategy.standardRetryStrategy().toBuilder()
                            .maxAttempts(attempts)
                            .build()));
    if (region != null) {
      builder.region(Region.of(region));
    }
    if (endpoint != null) {
      builder.endpointOverride(endpoint);
    }
    return builder.build();
  }
}
