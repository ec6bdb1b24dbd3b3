package dev.flatdump.artifact;

import dev.flatdump.columnar.ColumnarCopy;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One completed FlatBuffers shard in the staging directory.
 *
 * @param index the shard's position, from 0
 * @param fileName its file name in the staging directory
 * @param records records in the shard
 * @param bytes the file's size in bytes
 * @param sha256 SHA-256 of the file's bytes, lowercase hex, taken as the shard was written
 */
public record ShardFile(int index, String fileName, long records, long bytes, String sha256) {
  public ShardFile {
    if (index < 0) {
      throw new IllegalArgumentException("ShardFile.index must be >= 0, got " + index);
    }
    Objects.requireNonNull(fileName, "ShardFile.fileName");
    Objects.requireNonNull(sha256, "ShardFile.sha256");
    if (records < 0 || bytes < 0) {
      throw new IllegalArgumentException(
          "ShardFile records and bytes must be >= 0, got " + records + ", " + bytes);
    }
  }

  /** The same shard under another file name (the bytes, and so the checksum, are the same). */
  public ShardFile named(String name) {
    return new ShardFile(index, name, records, bytes, sha256);
  }

  /** A shard's file extension, after the schema's name: {@code BASE.fb}, {@code BASE-00000.fb}. */
  public static final String EXTENSION = ".fb";

  /**
   * The name of shard {@code index} of an export of {@code count} shards: {@code BASE.fb} for a
   * single shard, {@code BASE-00000.fb}, {@code BASE-00001.fb}, ... for several.
   */
  public static String fileName(String base, int index, int count) {
    return count == 1 ? base + EXTENSION : stagingName(base, index);
  }

  /**
   * The name of shard {@code index} while the export is written, before the number of shards is
   * known: always numbered.
   */
  public static String stagingName(String base, int index) {
    return String.format("%s-%05d%s", base, index, EXTENSION);
  }

  /**
   * The names a shard of base name {@code base} or one of its copies can have: {@code BASE.fb},
   * {@code BASE-00000.fb}, plus {@code .gz} or {@code .zst}; not {@code BASE.fbs}, the schema.
   */
  public static Pattern shardOrCopy(String base) {
    return Pattern.compile(
        Pattern.quote(base)
            + "(-\\d{5})?("
            + Pattern.quote(EXTENSION)
            + "(\\.gz|\\.zst)?|"
            + Pattern.quote(ColumnarCopy.EXTENSION)
            + ")");
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
