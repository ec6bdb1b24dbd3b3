package dev.flatdump.reader.s3;

import java.net.URI;
import java.util.Locale;

/**
 * How an {@link ExportPuller} talks to S3 and what it keeps locally. Immutable; start from {@link
 * #defaults()} and change what differs with the {@code with*} methods.
 *
 * <p>Credentials are not part of the settings: they come from the AWS SDK's default chain ({@code
 * AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY}, the {@code aws.accessKeyId} system properties,
 * profiles, instance roles), as for flatdump's upload.
 *
 * @param endpointOverride an {@code http} or {@code https} S3-compatible server (MinIO, ...)
 *     instead of AWS; null for AWS
 * @param region the signing region; null for the SDK's region chain, or {@code us-east-1} with an
 *     endpoint override
 * @param pathStyleAccess address buckets as {@code endpoint/bucket/key}, as MinIO needs
 * @param requestAttempts attempts per S3 request (the SDK's retries with backoff), 1 to 20
 * @param objectAttempts how often an object that arrives corrupt (wrong size or SHA-256) is deleted
 *     and downloaded again before the pull fails, 1 to 20
 * @param restarts how often a pull starts again from {@code CURRENT} when the export it named
 *     disappears while it is downloaded, 0 to 100
 * @param keep how many exports the local output directory keeps, the current one included; at least
 *     1
 */
public record PullSettings(
    URI endpointOverride,
    String region,
    boolean pathStyleAccess,
    int requestAttempts,
    int objectAttempts,
    int restarts,
    int keep) {

  public static final int DEFAULT_REQUEST_ATTEMPTS = 5;
  public static final int DEFAULT_OBJECT_ATTEMPTS = 3;
  public static final int DEFAULT_RESTARTS = 10;

  /** The same default as {@code flatdump export --keep}. */
  public static final int DEFAULT_KEEP = 2;

  public PullSettings {
    if (endpointOverride != null) {
      String scheme = endpointOverride.getScheme();
      if (scheme == null
          || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
          || endpointOverride.getHost() == null) {
        throw new IllegalArgumentException(
            "PullSettings.endpointOverride must be an http or https URI with a host, got '"
                + endpointOverride
                + "'");
      }
      if (endpointOverride.getRawUserInfo() != null) {
        throw new IllegalArgumentException(
            "PullSettings.endpointOverride must not carry user info (host '"
                + endpointOverride.getHost()
                + "'): credentials come from the AWS SDK's default chain");
      }
    }
    if (region != null) {
      region = region.strip().toLowerCase(Locale.ROOT);
      if (!region.matches("[a-z0-9]+(-[a-z0-9]+)*")) {
        throw new IllegalArgumentException(
            "PullSettings.region must be a region name such as eu-west-1, got '" + region + "'");
      }
    }
    requireRange("requestAttempts", requestAttempts, 1, 20);
    requireRange("objectAttempts", objectAttempts, 1, 20);
    requireRange("restarts", restarts, 0, 100);
    requireRange("keep", keep, 1, Integer.MAX_VALUE);
  }

  private static void requireRange(String field, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          "PullSettings."
              + field
              + " must be "
              + (max == Integer.MAX_VALUE ? ">= " + min : min + " to " + max)
              + ", got "
              + value);
    }
  }

  /** AWS, the SDK's region chain, 5 attempts per request, 3 per object, 10 restarts, keep 2. */
  public static PullSettings defaults() {
    return new PullSettings(
        null,
        null,
        false,
        DEFAULT_REQUEST_ATTEMPTS,
        DEFAULT_OBJECT_ATTEMPTS,
        DEFAULT_RESTARTS,
        DEFAULT_KEEP);
  }

  public PullSettings withEndpointOverride(URI endpointOverride) {
    return new PullSettings(
        endpointOverride, region, pathStyleAccess, requestAttempts, objectAttempts, restarts, keep);
  }

  public PullSettings withRegion(String region) {
    return new PullSettings(
        endpointOverride, region, pathStyleAccess, requestAttempts, objectAttempts, restarts, keep);
  }

  public PullSettings withPathStyleAccess(boolean pathStyleAccess) {
    return new PullSettings(
        endpointOverride, region, pathStyleAccess, requestAttempts, objectAttempts, restarts, keep);
  }

  public PullSettings withObjectAttempts(int objectAttempts) {
    return new PullSettings(
        endpointOverride, region, pathStyleAccess, requestAttempts, objectAttempts, restarts, keep);
  }

  public PullSettings withKeep(int keep) {
    return new PullSettings(
        endpointOverride, region, pathStyleAccess, requestAttempts, objectAttempts, restarts, keep);
  }

  /** The region to configure: the given one, else {@code us-east-1} with an endpoint override. */
  String effectiveRegion() {
    if (region != null) {
      return region;
    }
    return endpointOverride != null ? "us-east-1" : null;
  }

  /** How messages name the server: {@code endpoint URI} or {@code AWS S3}. */
  String describeEndpoint() {
    return endpointOverride != null ? "endpoint " + endpointOverride : "AWS S3";
  }
}
