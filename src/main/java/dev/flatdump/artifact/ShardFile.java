package dev.flatdump.artifact;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One completed FlatBuffers shard in the staging directory.
 *
 * @param index the shard's position, from 0
 * @param fileName its file name in the staging directory
 * @param records organizations in the shard
 * @param bytes the file's size in bytes
 * @param sha256 SHA-256 of the file's bytes, lowercase hex, taken as the shard was written; null
 *     for a shard that an earlier build recorded without it (a restart's job state), whose file is
 *     hashed when the manifest needs it
 */
public record ShardFile(int index, String fileName, long records, long bytes, String sha256) {
  public ShardFile {
    if (index < 0) {
      throw new IllegalArgumentException("ShardFile.index must be >= 0, got " + index);
    }
    Objects.requireNonNull(fileName, "ShardFile.fileName");
    if (records < 0 || bytes < 0) {
      throw new IllegalArgumentException(
          "ShardFile records and bytes must be >= 0, got " + records + ", " + bytes);
    }
  }

  /** The same shard under another file name (the bytes, and so the checksum, are the same). */
  public ShardFile named(String name) {
    return new ShardFile(index, name, records, bytes, sha256);
  }

  /**
   * Maps this shard's file in {@code dir} read-only, unchecked: for the shards this run staged. The
   * mapping lives until it is garbage collected.
   *
   * @throws ArtifactException when the file cannot be opened or mapped
   */
  public MappedByteBuffer map(Path dir) {
    Path file = dir.resolve(fileName);
    try (FileChannel ch = FileChannel.open(file)) {
      return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
    } catch (IOException e) {
      throw new ArtifactException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }
}
