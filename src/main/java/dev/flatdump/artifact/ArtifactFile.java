package dev.flatdump.artifact;

import com.fasterxml.jackson.annotation.JsonInclude;
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
 * @param firstKey for a shard whose records have a key ({@link Manifest.Lookup}) and that holds at
 *     least one: its first record's key, a {@link String} or a {@link Long} (a {@link
 *     java.math.BigInteger} for a {@code ulong} of 2^63 or more); else null (and absent from the
 *     manifest)
 * @param lastKey its last record's key, likewise
 */
public record ArtifactFile(
    String name,
    String format,
    long bytes,
    String sha256,
    Integer shard,
    Long records,
    @JsonInclude(JsonInclude.Include.NON_NULL) Object firstKey,
    @JsonInclude(JsonInclude.Include.NON_NULL) Object lastKey) {

  public ArtifactFile {
    Objects.requireNonNull(name, "ArtifactFile.name");
    Objects.requireNonNull(format, "ArtifactFile.format");
    Objects.requireNonNull(sha256, "ArtifactFile.sha256");
    if (bytes < 0) {
      throw new IllegalArgumentException("ArtifactFile.bytes must be >= 0, got " + bytes);
    }
    firstKey = key(firstKey, "firstKey");
    lastKey = key(lastKey, "lastKey");
    if ((firstKey == null) != (lastKey == null)) {
      throw new IllegalArgumentException(name + ": a first key without a last, or the reverse");
    }
  }

  /** A file without keys: every file but a keyed export's shards. */
  public ArtifactFile(
      String name, String format, long bytes, String sha256, Integer shard, Long records) {
    this(name, format, bytes, sha256, shard, records, null, null);
  }

  /** The same file with its shard's key range. */
  public ArtifactFile withKeys(Object first, Object last) {
    return new ArtifactFile(name, format, bytes, sha256, shard, records, first, last);
  }

  /**
   * A key as the manifest holds it: a string, or an integer as a Long (JSON reads back ints), or a
   * BigInteger for a {@code ulong} of 2^63 or more.
   */
  private static Object key(Object key, String what) {
    if (key == null || key instanceof String || key instanceof Long) {
      return key;
    }
    if (key instanceof Integer || key instanceof Short || key instanceof Byte) {
      return ((Number) key).longValue();
    }
    if (key instanceof java.math.BigInteger big) {
      if (big.bitLength() < 64) {
        return big.longValue();
      }
      if (big.signum() > 0 && big.bitLength() == 64) {
        return big; // a ulong of 2^63 or more
      }
    }
    throw new IllegalArgumentException(what + " is neither a string nor an integer: " + key);
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
