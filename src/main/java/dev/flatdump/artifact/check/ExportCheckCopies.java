package dev.flatdump.artifact.check;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.compress.Compression;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.util.List;
import java.util.Map;

/**
 * The part of {@link ExportChecker} that checks compressed copies. A copy must decompress, as a
 * stream, to exactly the bytes of the shard it copies: the same size and the SHA-256 that the
 * manifest lists for that shard.
 */
final class ExportCheckCopies {

  private static final int BUFFER = 1 << 16;

  private ExportCheckCopies() {}

  static boolean isCompressed(ArtifactFile f) {
    return Compression.NAMES.contains(f.format());
  }

  static void check(
      Path file,
      ArtifactFile copy,
      Map<String, ArtifactFile> listed,
      List<ExportChecker.Problem> problems) {
    Compression compression = Compression.create(copy.format(), null);
    String extension = compression.extension();
    if (!copy.name().endsWith(extension)) {
      problems.add(
          new ExportChecker.Problem(
              copy.name(),
              "is a " + copy.format() + " copy whose name does not end in " + extension));
      return;
    }
    String shardName = copy.name().substring(0, copy.name().length() - extension.length());
    ArtifactFile shard = listed.get(shardName);
    if (shard == null || !ExportChecker.FLATBUFFERS.equals(shard.format())) {
      problems.add(
          new ExportChecker.Problem(
              copy.name(),
              "copies " + shardName + ", which the manifest does not list as a shard"));
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
    if (bytes != shard.bytes() || !sha.equals(shard.sha256())) {
      problems.add(
          new ExportChecker.Problem(
              copy.name(),
              "decompresses to "
                  + bytes
                  + " bytes with sha256 "
                  + sha
                  + ", but the manifest lists "
                  + shardName
                  + " as "
                  + shard.bytes()
                  + " bytes with sha256 "
                  + shard.sha256()));
    }
  }
}
