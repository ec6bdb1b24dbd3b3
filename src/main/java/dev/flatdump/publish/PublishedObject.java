package dev.flatdump.publish;

/**
 * One file of an export as {@link ArtifactUploader} left it in S3.
 *
 * @param name the file name, as the manifest lists it
 * @param uri where it is, {@code s3://bucket/key}
 * @param bytes its size in bytes
 * @param skipped true when the object already held the file and nothing was sent
 */
public record PublishedObject(String name, String uri, long bytes, boolean skipped) {

  /**
   * The progress line: {@code name: N bytes uploaded to uri} or {@code ... skipped, unchanged at}.
   */
  public String describe() {
    return name
        + ": "
        + bytes
        + " bytes "
        + (skipped ? "skipped, unchanged at " : "uploaded to ")
        + uri;
  }
}
