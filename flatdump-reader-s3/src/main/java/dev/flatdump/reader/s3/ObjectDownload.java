package dev.flatdump.reader.s3;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Downloads one object into a file, resumably: the bytes go to {@code FILE.part}, appended; a part
 * left by an interrupted run is continued with a {@code Range: bytes=SIZE-} request from its size.
 * Once the part holds the manifest's size it must have the manifest's SHA-256, then it is forced to
 * disk and renamed to {@code FILE}. A read that fails midway (a dropped connection) is resumed the
 * same way, up to the request attempts. Not thread-safe: one download at a time.
 */
final class ObjectDownload {

  /** The suffix of a file being downloaded. */
  static final String PART = ".part";

  private static final int BUFFER = 1 << 16;

  /** The object arrived with other bytes than the manifest lists; the part is deleted. */
  static final class CorruptObject extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CorruptObject(String reason) {
      super(reason);
    }
  }

  /** The object is not there (404): the export was removed or is being replaced. */
  static final class MissingObject extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MissingObject(String uri) {
      super(uri + " is missing");
    }
  }

  /**
   * What one {@link #fetch} did.
   *
   * @param transferred bytes received from S3 by this call
   * @param resumedAt the size of the part this call continued, 0 when it started from the
   *     beginning; -1 when the file was already complete
   */
  record Fetched(long transferred, long resumedAt) {}

  private final S3Client s3;
  private final String bucket;
  private final int requestAttempts;
  private final StopSignal stop;

  ObjectDownload(S3Client s3, String bucket, int requestAttempts, StopSignal stop) {
    this.s3 = s3;
    this.bucket = bucket;
    this.requestAttempts = requestAttempts;
    this.stop = stop;
  }

  /**
   * Makes {@code target} hold the object {@code key}, which must be {@code bytes} long with SHA-256
   * {@code sha256}. A {@code target} already there with them is kept.
   *
   * @throws CorruptObject when the object's bytes differ from that; nothing is left for it
   * @throws MissingObject when there is no such object
   * @throws PullException when S3 or the local disk keeps failing, or when stopped
   */
  Fetched fetch(String key, String uri, Path target, long bytes, String sha256) {
    try {
      if (Files.isRegularFile(target)) {
        if (Files.size(target) == bytes && sha256.equals(sha256Of(target))) {
          return new Fetched(0, -1);
        }
        Files.delete(target);
      }
      Path part = partOf(target);
      long have = Files.isRegularFile(part) ? Files.size(part) : 0;
      if (have > bytes) {
        Files.delete(part);
        have = 0;
      }
      if (!Files.exists(part)) {
        Files.createFile(part); // an empty object needs no request, but a file all the same
      }
      long resumedAt = have;
      MessageDigest digest = newDigest();
      if (have > 0) {
        update(digest, part);
      }
      long transferred = 0;
      int failures = 0;
      while (have < bytes) {
        stop.check("downloading " + uri);
        try (ResponseInputStream<GetObjectResponse> in = get(key, uri, have, part);
            FileOutputStream out = new FileOutputStream(part.toFile(), true)) {
          if (have > 0 && in.response().contentRange() == null) {
            // the server sent the whole object, not the range: start the part again
            out.getChannel().truncate(0);
            digest.reset();
            have = 0;
          }
          byte[] buf = new byte[BUFFER];
          for (int n; (n = in.read(buf)) > 0; ) {
            if (have + n > bytes) {
              in.abort();
              throw corrupt(part, "it is longer than the manifest's " + bytes + " bytes");
            }
            out.write(buf, 0, n);
            digest.update(buf, 0, n);
            have += n;
            transferred += n;
            if (stop.stopped()) {
              in.abort();
              out.getFD().sync();
              stop.check("downloading " + uri + " (" + have + " of " + bytes + " bytes kept)");
            }
          }
          out.getFD().sync();
          if (have < bytes) {
            throw corrupt(
                part, "it holds " + have + " bytes, the manifest says " + bytes + " bytes");
          }
        } catch (IOException | SdkClientException e) {
          // a transfer that broke off midway: continue from what arrived
          stop.check(
              "downloading " + uri + " (" + Files.size(part) + " of " + bytes + " bytes kept)");
          if (++failures >= requestAttempts) {
            throw new PullException(
                "cannot download " + uri + ": " + e.getMessage() + " (" + failures + " attempts)",
                e);
          }
          have = Files.size(part);
          digest = newDigest();
          update(digest, part);
        }
      }
      String hex = HexFormat.of().formatHex(digest.digest());
      if (!hex.equals(sha256)) {
        throw corrupt(part, "it has SHA-256 " + hex + ", the manifest says " + sha256);
      }
      LocalFiles.move(part, target);
      return new Fetched(transferred, resumedAt);
    } catch (IOException e) {
      throw new PullException("cannot write " + target + ": " + e.getMessage(), e);
    }
  }

  private ResponseInputStream<GetObjectResponse> get(String key, String uri, long from, Path part)
      throws IOException {
    try {
      return s3.getObject(
          b -> {
            b.bucket(bucket).key(key);
            if (from > 0) {
              b.range("bytes=" + from + "-");
            }
          });
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        throw new MissingObject(uri);
      }
      if (e.statusCode() == 416) {
        throw corrupt(part, "it is shorter than the " + from + " bytes already downloaded");
      }
      throw e;
    }
  }

  private static CorruptObject corrupt(Path part, String reason) {
    try {
      Files.deleteIfExists(part);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new CorruptObject(reason);
  }

  /** The file a download of {@code target} appends to. */
  static Path partOf(Path target) {
    return target.resolveSibling(target.getFileName() + PART);
  }

  static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }

  /** The SHA-256 of a file's bytes, lowercase hex. */
  static String sha256Of(Path file) throws IOException {
    MessageDigest digest = newDigest();
    update(digest, file);
    return HexFormat.of().formatHex(digest.digest());
  }

  private static void update(MessageDigest digest, Path file) throws IOException {
    byte[] buf = new byte[BUFFER];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buf)) > 0; ) {
        digest.update(buf, 0, n);
      }
    }
  }
}
