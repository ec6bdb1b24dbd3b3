package dev.flatdump.artifact;

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
}
