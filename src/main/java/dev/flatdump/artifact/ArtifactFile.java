package dev.flatdump.artifact;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One file of an export, as the manifest lists it.
 *
 * @param name file name, relative to the output directory
 * @param format {@code flatbuffers}, {@code gzip}, {@code zstd}, {@code jsonl}, {@code json},
 *     {@code markdown} or {@code html}
 * @param bytes size in bytes
 * @param sha256 SHA-256 of the file's bytes, lowercase hex
 * @param shard the shard index for data files, else null
 * @param records records in the file for data files, rejects for the rejects file, else null
 */
public record ArtifactFile(
    String name, String format, long bytes, String sha256, Integer shard, Long records) {

  public ArtifactFile {
    Objects.requireNonNull(name, "ArtifactFile.name");
    Objects.requireNonNull(format, "ArtifactFile.format");
    Objects.requireNonNull(sha256, "ArtifactFile.sha256");
    if (bytes < 0) {
      throw new IllegalArgumentException("ArtifactFile.bytes must be >= 0, got " + bytes);
    }
  }

  /**
   * Describes a finished file by reading it: its size and SHA-256 (streamed).
   *
   * @param file the file; its name becomes {@link #name}
   */
  public static ArtifactFile of(Path file, String format, Integer shard, Long records) {
    long bytes;
    try {
      bytes = Files.size(file);
    } catch (IOException e) {
      throw new ArtifactException("cannot stat " + file + ": " + e.getMessage(), e);
    }
    return new ArtifactFile(
        file.getFileName().toString(), format, bytes, Checksums.sha256(file), shard, records);
  }
}
