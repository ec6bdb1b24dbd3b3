package dev.flatdump.artifact.check;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.compress.Compression;
import dev.flatdump.columnar.ColumnarCopy;
import dev.flatdump.columnar.ColumnarException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.util.List;
import java.util.Map;

/**
 * The part of {@link ExportChecker} that checks a shard's copies. A compressed copy must
 * decompress, as a stream, and a columnar copy must rebuild, to exactly the bytes of the shard it
 * copies: the same size and the SHA-256 that the manifest lists for that shard.
 */
final class ExportCheckCopies {

  private static final int BUFFER = 1 << 16;

  private ExportCheckCopies() {}

  static boolean isCompressed(ArtifactFile f) {
    return Compression.NAMES.contains(f.format());
  }

  static boolean isColumnar(ArtifactFile f) {
    return ColumnarCopy.FORMAT.equals(f.format());
  }

  /**
   * A columnar copy must rebuild, with the export's binary schema, exactly the bytes of the shard
   * it copies.
   */
  static void checkColumnar(
      Path file,
      ArtifactFile copy,
      Map<String, ArtifactFile> listed,
      byte[] bfbs,
      List<ExportChecker.Problem> problems) {
    ArtifactFile shard = copied(copy, ColumnarCopy.EXTENSION, ".fb", listed, problems);
    if (shard == null) {
      return;
    }
    byte[] rebuilt;
    String sha;
    try {
      byte[] bytes = Files.readAllBytes(file);
      rebuilt = ColumnarCopy.rebuild(bytes, bfbs);
      sha = ColumnarCopy.sha256(bytes); // the rebuild checked its bytes against it
    } catch (IOException e) {
      problems.add(new ExportChecker.Problem(copy.name(), "cannot be read: " + e.getMessage()));
      return;
    } catch (ColumnarException e) {
      problems.add(
          new ExportChecker.Problem(copy.name(), "does not rebuild its shard: " + e.getMessage()));
      return;
    }
    compare(copy, "rebuilds", rebuilt.length, sha, shard, problems);
  }

  static void check(
      Path file,
      ArtifactFile copy,
      Map<String, ArtifactFile> listed,
      List<ExportChecker.Problem> problems) {
    Compression compression = Compression.create(copy.format(), null);
    String extension = compression.extension();
    ArtifactFile shard = copied(copy, extension, "", listed, problems);
    if (shard == null) {
      return;
    }
    long bytes = 0;
    String sha;
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), BUFFER);
        DigestInputStream in = Checksums.digesting(compression.unwrap(raw))) {
      byte[] buf = new byte[BUFFER];
      for (int n; (n = in.read(buf)) >= 0; ) {
        bytes += n;
      }
      sha = Checksums.hex(in.getMessageDigest());
    } catch (IOException e) {
      problems.add(
          new ExportChecker.Problem(
              copy.name(), "does not decompress (" + copy.format() + "): " + e.getMessage()));
      return;
    }
    compare(copy, "decompresses to", bytes, sha, shard, problems);
  }

  /**
   * The shard a copy copies: named as the copy without {@code extension}, plus {@code suffix}, and
   * listed as a shard; else null, the problem added.
   */
  private static ArtifactFile copied(
      ArtifactFile copy,
      String extension,
      String suffix,
      Map<String, ArtifactFile> listed,
      List<ExportChecker.Problem> problems) {
    if (!copy.name().endsWith(extension)) {
      problems.add(
          new ExportChecker.Problem(
              copy.name(),
              "is a " + copy.format() + " copy whose name does not end in " + extension));
      return null;
    }
    String shardName = copy.name().substring(0, copy.name().length() - extension.length()) + suffix;
    ArtifactFile shard = listed.get(shardName);
    if (shard == null || !ExportChecker.FLATBUFFERS.equals(shard.format())) {
      problems.add(
          new ExportChecker.Problem(
              copy.name(),
              "copies " + shardName + ", which the manifest does not list as a shard"));
      return null;
    }
    return shard;
  }

  /** Adds a problem when what the copy gives back is not the listed shard's bytes. */
  private static void compare(
      ArtifactFile copy,
      String gives,
      long bytes,
      String sha,
      ArtifactFile shard,
      List<ExportChecker.Problem> problems) {
    if (bytes != shard.bytes() || !sha.equals(shard.sha256())) {
      problems.add(
          new ExportChecker.Problem(
              copy.name(),
              gives
                  + " "
                  + bytes
                  + " bytes with sha256 "
                  + sha
                  + ", but the manifest lists "
                  + shard.name()
                  + " as "
                  + shard.bytes()
                  + " bytes with sha256 "
                  + shard.sha256()));
    }
  }
}
