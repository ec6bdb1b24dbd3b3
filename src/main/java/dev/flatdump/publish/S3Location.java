package dev.flatdump.publish;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where an export goes in S3: a bucket and a key prefix that acts as a directory. Written {@code
 * s3://bucket} or {@code s3://bucket/some/prefix}; a file {@code name} of the export is stored
 * under the key {@code prefix + name}.
 *
 * <p>The prefix is normalized: no leading slash, and a trailing slash unless it is empty, so {@code
 * s3://b/exports/2024-05-01} and {@code s3://b/exports/2024-05-01/} are the same location.
 *
 * @param bucket a bucket name that follows the S3 naming rules for general purpose buckets
 * @param prefix the key prefix, empty or ending in {@code /}
 */
public record S3Location(String bucket, String prefix) {

  /** S3 refuses longer keys; counted in UTF-8 bytes. */
  static final int MAX_KEY_BYTES = 1024;

  private static final String SCHEME = "s3://";
  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
  private static final Pattern IP_ADDRESS = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final String[] RESERVED_BUCKET_PREFIXES = {"xn--", "sthree-", "amzn-s3-demo-"};
  private static final String[] RESERVED_BUCKET_SUFFIXES = {
    "-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"
  };

  public S3Location {
    Objects.requireNonNull(bucket, "S3Location.bucket must not be null");
    Objects.requireNonNull(prefix, "S3Location.prefix must not be null");
    checkBucket(bucket);
    prefix = normalizePrefix(prefix);
  }

  /**
   * Parses {@code s3://bucket[/prefix]}.
   *
   * @throws IllegalArgumentException naming the bad part when {@code uri} is not such a location
   */
  public static S3Location parse(String uri) {
    Objects.requireNonNull(uri, "S3 location must not be null");
    if (!uri.startsWith(SCHEME)) {
      throw new IllegalArgumentException(
          "S3 location must look like s3://bucket/prefix, got '" + uri + "'");
    }
    String rest = uri.substring(SCHEME.length());
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    String prefix = slash < 0 ? "" : rest.substring(slash + 1);
    if (bucket.isEmpty()) {
      throw new IllegalArgumentException("S3 location '" + uri + "' has no bucket name");
    }
    return new S3Location(bucket, prefix);
  }

  /** The key of the export's file {@code name}: the prefix followed by the name. */
  public String key(String name) {
    Objects.requireNonNull(name, "name must not be null");
    if (name.isEmpty() || name.startsWith("/") || name.endsWith("/")) {
      throw new IllegalArgumentException(
          "file name must be a non-empty relative name, got '" + name + "'");
    }
    checkSegments(name, "file name");
    String key = prefix + name;
    int bytes = key.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          "S3 key '" + key + "' is " + bytes + " bytes; S3 allows " + MAX_KEY_BYTES);
    }
    return key;
  }

  /** The location {@code relative} (one or more segments) below this one's prefix. */
  public S3Location child(String relative) {
    Objects.requireNonNull(relative, "relative must not be null");
    checkSegments(relative, "relative prefix");
    return new S3Location(bucket, prefix + relative);
  }

  /** The location of the export's file {@code name}, as {@code s3://bucket/key}. */
  public String uriOf(String name) {
    return SCHEME + bucket + "/" + key(name);
  }

  /** {@code s3://bucket/prefix}, which {@link #parse} reads back to an equal location. */
  @Override
  public String toString() {
    return SCHEME + bucket + "/" + prefix;
  }

  private static void checkBucket(String bucket) {
    if (!BUCKET.matcher(bucket).matches()) {
      throw new IllegalArgumentException(
          "S3Location.bucket must be 3 to 63 characters of lowercase letters, digits, '.' and"
              + " '-', beginning and ending with a letter or digit, got '"
              + bucket
              + "'");
    }
    if (bucket.contains("..")) {
      throw new IllegalArgumentException(
          "S3Location.bucket must not contain two adjacent periods, got '" + bucket + "'");
    }
    if (IP_ADDRESS.matcher(bucket).matches()) {
      throw new IllegalArgumentException(
          "S3Location.bucket must not look like an IP address, got '" + bucket + "'");
    }
    for (String reserved : RESERVED_BUCKET_PREFIXES) {
      if (bucket.startsWith(reserved)) {
        throw new IllegalArgumentException(
            "S3Location.bucket must not start with the reserved '"
                + reserved
                + "', got '"
                + bucket
                + "'");
      }
    }
    for (String reserved : RESERVED_BUCKET_SUFFIXES) {
      if (bucket.endsWith(reserved)) {
        throw new IllegalArgumentException(
            "S3Location.bucket must not end with the reserved '"
                + reserved
                + "', got '"
                + bucket
                + "'");
      }
    }
  }

  private static String normalizePrefix(String prefix) {
    String p = prefix;
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    if (p.isEmpty()) {
      return "";
    }
    checkSegments(p, "S3Location.prefix");
    return p + "/";
  }

  /** Rejects empty, {@code .} and {@code ..} segments and control characters. */
  private static void checkSegments(String path, String what) {
    for (int i = 0; i < path.length(); i++) {
      if (Character.isISOControl(path.charAt(i))) {
        throw new IllegalArgumentException(
            what + " must not contain control characters, got '" + path.strip() + "'");
      }
    }
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException(
            what + " must not contain empty, '.' or '..' segments, got '" + path + "'");
      }
    }
  }
}
