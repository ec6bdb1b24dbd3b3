package dev.flatdump.artifact;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 of files, bytes and streams, as lowercase hex: the one place that names the algorithm and
 * formats a digest. Static and stateless; a {@link MessageDigest} it hands out is the caller's, not
 * thread-safe.
 */
public final class Checksums {

  private static final int BUFFER = 1 << 16;

  private Checksums() {}

  /** Streams the file through SHA-256; never holds it in memory. */
  public static String sha256(Path file) {
    MessageDigest md = newDigest();
    byte[] buf = new byte[BUFFER];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
    } catch (IOException e) {
      throw new ArtifactException("cannot read " + file + ": " + e.getMessage(), e);
    }
    return hex(md);
  }

  /** SHA-256 of bytes. */
  public static String sha256(byte[] bytes) {
    return hex(newDigest().digest(bytes));
  }

  /** SHA-256 of a buffer's remaining bytes; its position is kept. */
  public static String sha256(ByteBuffer bytes) {
    MessageDigest md = newDigest();
    md.update(bytes.duplicate());
    return hex(md);
  }

  /** A new SHA-256 digest, for a caller that feeds it bytes its own way. */
  public static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** A digest's bytes as lowercase hex, two digits a byte. */
  public static String hex(byte[] digest) {
    return HexFormat.of().formatHex(digest);
  }

  /** Finishes {@code md} (which resets it) and returns its digest as lowercase hex. */
  public static String hex(MessageDigest md) {
    return hex(md.digest());
  }

  /** A stream that digests what passes through it into {@code out}. */
  public static DigestOutputStream digesting(OutputStream out) {
    return new DigestOutputStream(out, newDigest());
  }

  /** A stream that digests what is read through it from {@code in}. */
  public static DigestInputStream digesting(InputStream in) {
    return new DigestInputStream(in, newDigest());
  }
}
