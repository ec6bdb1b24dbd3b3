package dev.flatdump.artifact;

import java.util.Objects;

/**
 * One completed FlatBuffers shard in the staging directory.
 *
 * @param index the shard's position, from 0
 * @param fileName its file name in the staging directory
 * @param records organizations in the shard
 * @param bytes the file's size in bytes
 */
public record ShardFile(int index, String fileName, long records, long bytes) {
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
}
