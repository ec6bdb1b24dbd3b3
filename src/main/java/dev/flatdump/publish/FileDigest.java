package dev.flatdump.publish;

import dev.flatdump.artifact.Checksums;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The SHA-256 of a local file, and of each of its parts when it goes up in parts, from one read. S3
 * checks each part against its digest on arrival, and reports a multipart object's checksum as the
 * SHA-256 of the parts' digests followed by {@code -} and the number of parts.
 *
 * @param size the file's size in bytes
 * @param sha256 the whole file's digest
 * @param partSize the size of every part but the last; 0 when the file goes up in one piece
 * @param partSha256 each part's digest, in order; empty when the file goes up in one piece
 */
record FileDigest(long size, byte[] sha256, long partSize, List<byte[]> partSha256) {

  private static final int BUFFER_SIZE = 1 << 16;

  FileDigest {
    partSha256 = List.copyOf(partSha256);
  }

  /** Reads {@code file} once; {@code partSize} 0 digests it whole only. */
  static FileDigest of(Path file, long partSize) throws IOException {
    MessageDigest whole = Checksums.newDigest();
    MessageDigest part = Checksums.newDigest();
    List<byte[]> parts = new ArrayList<>();
    long size = 0;
    long inPart = 0;
    byte[] buf = new byte[BUFFER_SIZE];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buf)) > 0; ) {
        whole.update(buf, 0, n);
        size += n;
        int off = 0;
        while (partSize > 0 && off < n) {
          int take = (int) Math.min(n - off, partSize - inPart);
          part.update(buf, off, take);
          off += take;
          inPart += take;
          if (inPart == partSize) {
            parts.add(part.digest());
            inPart = 0;
          }
        }
      }
    }
    if (inPart > 0) {
      parts.add(part.digest());
    }
    return new FileDigest(size, whole.digest(), parts.isEmpty() ? 0 : partSize, parts);
  }

  boolean multipart() {
    return !partSha256.isEmpty();
  }

  int parts() {
    return partSha256.size();
  }

  /** Where part {@code index} (from 0) starts. */
  long partOffset(int index) {
    return index * partSize;
  }

  /** The length of part {@code index} (from 0). */
  long partLength(int index) {
    return Math.min(partSize, size - partOffset(index));
  }

  /** The whole file's digest as the manifest lists it: lowercase hex. */
  String hex() {
    return Checksums.hex(sha256);
  }

  /** The whole file's digest as S3 writes a single object's checksum: base64. */
  String base64() {
    return Base64.getEncoder().encodeToString(sha256);
  }

  String partBase64(int index) {
    return Base64.getEncoder().encodeToString(partSha256.get(index));
  }

  /**
   * The checksum S3 reports for this file uploaded in these parts: base64 of the SHA-256 of the
   * concatenated part digests, then {@code -} and the number of parts; null for a single object.
   */
  String compositeBase64() {
    if (!multipart()) {
      return null;
    }
    MessageDigest md = Checksums.newDigest();
    partSha256.forEach(md::update);
    return Base64.getEncoder().encodeToString(md.digest()) + "-" + partSha256.size();
  }
}
