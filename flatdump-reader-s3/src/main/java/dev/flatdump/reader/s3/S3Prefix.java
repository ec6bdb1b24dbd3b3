package dev.flatdump.reader.s3;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where flatdump published exports in S3: a bucket and a key prefix that acts as a directory,
 * written {@code s3://bucket/prefix} (as {@code export --upload} takes it). The pointer is {@code
 * prefix/CURRENT}, an export's files are under {@code prefix/exports/NAME/}.
 *
 * @param bucket the bucket's name
 * @param prefix the key prefix, empty or ending in {@code /}
 */
public record S3Prefix(String bucket, String prefix) {

  private static final String SCHEME = "s3://";
  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

  public S3Prefix {
    Objects.requireNonNull(bucket, "S3Prefix.bucket");
    Objects.requireNonNull(prefix, "S3Prefix.prefix");
    if (!BUCKET.matcher(bucket).matches()) {
      throw new IllegalArgumentException(
          "S3Prefix.bucket must be 3 to 63 characters of lowercase letters, digits, '.' and '-',"
              + " got '"
              + bucket
              + "'");
    }
    String p = prefix;
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    for (String segment : p.split("/", -1)) {
      if (!p.isEmpty() && (segment.isEmpty() || segment.equals(".") || segment.equals(".."))) {
        throw new IllegalArgumentException(
            "S3Prefix.prefix must not contain empty, '.' or '..' segments, got '" + prefix + "'");
      }
    }
    if (p.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException("S3Prefix.prefix must not contain control characters");
    }
    prefix = p.isEmpty() ? "" : p + "/";
  }

  /**
   * Parses {@code s3://bucket[/prefix]}.
   *
   * @throws IllegalArgumentException naming the bad part
   */
  public static S3Prefix parse(String uri) {
    Objects.requireNonNull(uri, "S3 location");
    if (!uri.startsWith(SCHEME)) {
      throw new IllegalArgumentException(
          "S3 location must look like s3://bucket/prefix, got '" + uri + "'");
    }
    String rest = uri.substring(SCHEME.length());
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    if (bucket.isEmpty()) {
      throw new IllegalArgumentException("S3 location '" + uri + "' has no bucket name");
    }
    return new S3Prefix(bucket, slash < 0 ? "" : rest.substring(slash + 1));
  }

  /** The key of {@code relative} (e.g. {@code CURRENT}, {@code exports/NAME/FILE}) below it. */
  public String key(String relative) {
    return prefix + relative;
  }

  /** {@code s3://bucket/key} of {@code relative}. */
  public String uriOf(String relative) {
    return SCHEME + bucket + "/" + key(relative);
  }

  @Override
  public String toString() {
    return SCHEME + bucket + "/" + prefix;
  }
}
