package dev.flatdump.publish;

import dev.flatdump.FlatdumpException;
import java.util.Optional;

/**
 * An export could not be uploaded to S3, or what arrived does not match the manifest. The message
 * names the object ({@code s3://bucket/key}) and the endpoint; it never contains credentials.
 */
public final class UploadException extends FlatdumpException {

  private final transient S3Location target;
  private final String key;

  UploadException(String message, S3Location target, String key, Throwable cause) {
    super(message, cause);
    this.target = target;
    this.key = key;
  }

  /** Where the export was going; empty when the S3 client could not even be configured. */
  public Optional<S3Location> target() {
    return Optional.ofNullable(target);
  }

  /** The key of the object that failed, or empty when the failure concerns no single object. */
  public Optional<String> key() {
    return Optional.ofNullable(key);
  }
}
