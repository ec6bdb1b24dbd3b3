package dev.flatdump.publish;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How {@link ArtifactUploader} talks to S3. Immutable; start from {@link #defaults()} and change
 * what differs with the {@code with*} methods.
 *
 * <p>Credentials are deliberately not part of the settings: the uploader always takes them from the
 * AWS SDK's default chain (the environment variables {@code AWS_ACCESS_KEY_ID} and {@code
 * AWS_SECRET_ACCESS_KEY}, the system properties {@code aws.accessKeyId} and {@code
 * aws.secretAccessKey}, the shared profile files, container and instance roles), so that they never
 * appear on a command line, in a job parameter or in a log.
 *
 * @param endpointOverride an {@code http} or {@code https} endpoint to use instead of AWS's, e.g.
 *     an S3-compatible store such as MinIO or S3Mock; null for AWS
 * @param region the signing region, e.g. {@code eu-west-1}; null to take it from the SDK's region
 *     chain ({@code AWS_REGION}, {@code aws.region}, the profile), or {@value #OVERRIDE_REGION}
 *     when an endpoint override is set
 * @param pathStyleAccess address buckets as {@code endpoint/bucket/key} rather than {@code
 *     bucket.endpoint/key}; most S3-compatible stores need it
 * @param multipartThresholdBytes files larger than this go up in parts; at most 5 GiB, the largest
 *     single PUT
 * @param partSizeBytes the size of each part but the last, 5 MiB to 5 GiB; grown for a file that
 *     would otherwise need more than 10,000 parts
 * @param maxAttempts attempts per request, the first included, with the SDK's exponential backoff
 *     and jitter in between; 1 to 20
 */
public record S3Settings(
    URI endpointOverride,
    String region,
    boolean pathStyleAccess,
    long multipartThresholdBytes,
    long partSizeBytes,
    int maxAttempts) {

  public static final long MIB = 1024L * 1024;

  /** The smallest part S3 accepts, except for the last part of an upload. */
  public static final long MIN_PART_SIZE = 5 * MIB;

  /** The largest part, and the largest object a single PUT may create. */
  public static final long MAX_PART_SIZE = 5 * 1024 * MIB;

  /** The most parts one multipart upload may have. */
  static final int MAX_PARTS = 10_000;

  public static final long DEFAULT_PART_SIZE = 64 * MIB;
  public static final long DEFAULT_MULTIPART_THRESHOLD = 64 * MIB;
  public static final int DEFAULT_MAX_ATTEMPTS = 5;
  public static final int MAX_ATTEMPTS_LIMIT = 20;

  /** The region used with an endpoint override when none is given. */
  public static final String OVERRIDE_REGION = "us-east-1";

  private static final Pattern REGION = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

  public S3Settings {
    if (endpointOverride != null) {
      String scheme = endpointOverride.getScheme();
      if (scheme == null
          || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
          || endpointOverride.getHost() == null) {
        throw new IllegalArgumentException(
            "S3Settings.endpointOverride must be an http or https URI with a host, got '"
                + endpointOverride
                + "'");
      }
      if (endpointOverride.getRawUserInfo() != null
          || endpointOverride.getRawQuery() != null
          || endpointOverride.getRawFragment() != null) {
        // user info could be a credential: never echo it back
        throw new IllegalArgumentException(
            "S3Settings.endpointOverride must not have user info, a query or a fragment, got"
                + " one for host '"
                + endpointOverride.getHost()
                + "'");
      }
    }
    if (region != null) {
      region = region.strip().toLowerCase(Locale.ROOT);
      if (!REGION.matcher(region).matches()) {
        throw new IllegalArgumentException(
            "S3Settings.region must be a region name such as eu-west-1, got '" + region + "'");
      }
    }
    if (multipartThresholdBytes < 0 || multipartThresholdBytes > MAX_PART_SIZE) {
      throw new IllegalArgumentException(
          "S3Settings.multipartThresholdBytes must be 0 to "
              + MAX_PART_SIZE
              + " (5 GiB), got "
              + multipartThresholdBytes);
    }
    if (partSizeBytes < MIN_PART_SIZE || partSizeBytes > MAX_PART_SIZE) {
      throw new IllegalArgumentException(
          "S3Settings.partSizeBytes must be "
              + MIN_PART_SIZE
              + " (5 MiB) to "
              + MAX_PART_SIZE
              + " (5 GiB), got "
              + partSizeBytes);
    }
    if (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS_LIMIT) {
      throw new IllegalArgumentException(
          "S3Settings.maxAttempts must be 1 to " + MAX_ATTEMPTS_LIMIT + ", got " + maxAttempts);
    }
  }

  /** AWS, the region from the SDK's chain, virtual-hosted style, 64 MiB parts, 5 attempts. */
  public static S3Settings defaults() {
    return new S3Settings(
        null, null, false, DEFAULT_MULTIPART_THRESHOLD, DEFAULT_PART_SIZE, DEFAULT_MAX_ATTEMPTS);
  }

  public S3Settings withEndpointOverride(URI endpointOverride) {
    return new S3Settings(
        endpointOverride,
        region,
        pathStyleAccess,
        multipartThresholdBytes,
        partSizeBytes,
        maxAttempts);
  }

  public S3Settings withRegion(String region) {
    return new S3Settings(
        endpointOverride,
        region,
        pathStyleAccess,
        multipartThresholdBytes,
        partSizeBytes,
        maxAttempts);
  }

  public S3Settings withPathStyleAccess(boolean pathStyleAccess) {
    return new S3Settings(
        endpointOverride,
        region,
        pathStyleAccess,
        multipartThresholdBytes,
        partSizeBytes,
        maxAttempts);
  }

  public S3Settings withMultipart(long multipartThresholdBytes, long partSizeBytes) {
    return new S3Settings(
        endpointOverride,
        region,
        pathStyleAccess,
        multipartThresholdBytes,
        partSizeBytes,
        maxAttempts);
  }

  public S3Settings withMaxAttempts(int maxAttempts) {
    return new S3Settings(
        endpointOverride,
        region,
        pathStyleAccess,
        multipartThresholdBytes,
        partSizeBytes,
        maxAttempts);
  }

  /**
   * The region to configure explicitly: the given one, else {@value #OVERRIDE_REGION} with an
   * endpoint override, else empty, meaning the SDK's region chain decides.
   */
  public Optional<String> effectiveRegion() {
    if (region != null) {
      return Optional.of(region);
    }
    return endpointOverride != null ? Optional.of(OVERRIDE_REGION) : Optional.empty();
  }

  /** Whether a file of {@code bytes} goes up in parts. */
  boolean multipart(long bytes) {
    return bytes > multipartThresholdBytes;
  }

  /**
   * The part size for a file of {@code bytes}: {@link #partSizeBytes}, grown in whole MiB when the
   * file would otherwise need more than 10,000 parts, the most S3 accepts.
   */
  long partSizeFor(long bytes) {
    long minimum = (bytes + MAX_PARTS - 1) / MAX_PARTS;
    if (minimum <= partSizeBytes) {
      return partSizeBytes;
    }
    return (minimum + MIB - 1) / MIB * MIB;
  }
}
