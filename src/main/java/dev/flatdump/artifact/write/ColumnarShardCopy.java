package dev.flatdump.artifact.write;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.AtomicFiles;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.columnar.ColumnarCopy;
import dev.flatdump.columnar.ColumnarException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a finished shard's columnar copy ({@code NAME.fbc}) next to it, atomically, after
 * rebuilding the shard from it: a copy that would not give the shard's bytes back is never written.
 */
public final class ColumnarShardCopy {

  /** The format a manifest lists the copy with. */
  public static final String FORMAT = ColumnarCopy.FORMAT;

  private ColumnarShardCopy() {}

  /**
   * @param shard the finished shard
   * @param sha256 its SHA-256, taken as it was written
   * @param bfbs the binary schema it follows
   * @param level the zstd level of the copy's streams
   * @throws ArtifactException when the shard cannot be read or the copy cannot be made
   */
  public static ArtifactFile write(
      Path shard, String sha256, byte[] bfbs, int level, Integer index, Long records) {
    Path target = shard.resolveSibling(ColumnarCopy.copyName(shard.getFileName().toString()));
    byte[] copy;
    try {
      byte[] fb = Files.readAllBytes(shard);
      copy = ColumnarCopy.writeChecked(fb, sha256, bfbs, level);
    } catch (IOException e) {
      throw new ArtifactException("cannot read " + shard + ": " + e.getMessage(), e);
    } catch (ColumnarException e) {
      throw new ArtifactException(
          "cannot write the columnar copy of " + shard.getFileName() + ": " + e.getMessage(), e);
    }
    AtomicFiles.write(target, ByteBuffer.wrap(copy));
    return new ArtifactFile(
        target.getFileName().toString(),
        FORMAT,
        copy.length,
        Checksums.sha256(copy),
        index,
        records);
  }
}
