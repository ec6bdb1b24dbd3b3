package dev.flatdump.artifact;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 of files and streams, as lowercase hex. */
public final class Checksums {

  private Checksums() {}

  /** Streams the file through SHA-256; never holds it in memory. */
  public static String sha256(Path file) {
    MessageDigest md = newDigest();
    byte[] buf = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
    } catch (IOException e) {
      throw new ArtifactException("cannot read " + file + ": " + e.getMessage(), e);
    }
    return HexFormat.of().formatHex(md.digest());
  }

  /** SHA-256 of bytes. */
  public static String sha256(byte[] bytes) {
    return HexFormat.of().formatHex(newDigest().digest(bytes));
  }

  /** SHA-256 of a buffer's remaining bytes; its position is kept. */
  public static String sha256(ByteBuffer bytes) {
    MessageDigest md = newDigest();
    md.update(bytes.duplicate());
    return hex(md);
  }

  /** A stream that digests what passes through it into {@code out}. */
  static DigestOutputStream digesting(OutputStream out) {
    return new DigestOutputStream(out, newDigest());
  }

  static String hex(MessageDigest md) {
    return HexFormat.of().formatHex(md.digest());
  }

  private static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
