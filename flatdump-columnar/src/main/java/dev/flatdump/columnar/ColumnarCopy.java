package dev.flatdump.columnar;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

/**
 * The columnar copy of a shard ({@value #EXTENSION}): the shard's objects stored by column, from
 * which {@link #rebuild} writes the shard's bytes again, exactly, checked against the SHA-256 the
 * copy carries. The format is in docs/format.md, "The columnar copy". Static and thread-safe.
 */
public final class ColumnarCopy {

  /** The copy's file-name suffix, after the shard's name without its {@code .fb}. */
  public static final String EXTENSION = ".fbc";

  /** Its format's name in a manifest. */
  public static final String FORMAT = "columnar";

  /** The media type it is uploaded with. */
  public static final String MEDIA_TYPE = "application/vnd.flatdump.columnar";

  /** The zstd level each stream is compressed at unless told. */
  public static final int DEFAULT_LEVEL = 3;

  static final byte[] MAGIC = {'F', 'B', 'C', '1'};

  /** The CRC-32C of a copy's bytes after its magic and its CRC. */
  static int crc(byte[] copy) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(copy, 8, copy.length - 8);
    return (int) crc.getValue();
  }

  private ColumnarCopy() {}

  /**
   * The columnar copy of {@code shard}, whose binary schema is {@code bfbs} (the copy carries its
   * SHA-256, not the schema: the export ships it).
   *
   * @param level the zstd level of its streams
   * @throws ColumnarException when the shard holds a byte the copy would not rebuild: an object its
   *     root does not reach, non-zero padding, a field the schema does not name
   */
  public static byte[] write(byte[] shard, byte[] bfbs, int level) {
    return ColumnarEncoder.encode(shard, ColumnarEncoder.sha256(shard), bfbs, level);
  }

  /**
   * The columnar copy of {@code shard}, rebuilt once to check that it gives the shard's bytes back:
   * what an export writes. {@code sha256} is the shard's, known already (lowercase hex).
   *
   * @throws ColumnarException as {@link #write}, or when the copy would not rebuild the shard
   */
  public static byte[] writeChecked(byte[] shard, String sha256, byte[] bfbs, int level) {
    byte[] sha = HexFormat.of().parseHex(sha256);
    // The copy carries this SHA-256 and every rebuild is checked against it: a copy of bytes that
    // are not those it names would pass the comparison below and then never rebuild.
    if (!java.util.Arrays.equals(ColumnarEncoder.sha256(shard), sha)) {
      throw new ColumnarException(
          "the shard's bytes do not have the SHA-256 " + sha256 + " they were written with");
    }
    byte[] copy = ColumnarEncoder.encode(shard, sha, bfbs, level);
    if (!java.util.Arrays.equals(new ColumnarDecoder(copy, bfbs).rebuildUnchecked(), shard)) {
      throw new ColumnarException("the copy rebuilds other bytes than the shard's");
    }
    return copy;
  }

  /**
   * The shard the copy was made from, byte for byte.
   *
   * @throws ColumnarException for a damaged copy or a rebuild whose SHA-256 is not the copy's
   */
  public static byte[] rebuild(byte[] copy, byte[] bfbs) {
    return new ColumnarDecoder(copy, bfbs).rebuild();
  }

  /** The rebuilt shard of the copy at {@code copy}, made with the binary schema at {@code bfbs}. */
  public static byte[] rebuild(Path copy, Path bfbs) throws IOException {
    return rebuild(Files.readAllBytes(copy), Files.readAllBytes(bfbs));
  }

  /** The SHA-256 (lowercase hex) of the shard a copy rebuilds, from its header alone. */
  public static String sha256(byte[] copy) {
    ByteSource in = new ByteSource(copy);
    byte[] magic = in.bytes(MAGIC.length);
    if (!java.util.Arrays.equals(magic, MAGIC)) {
      throw new ColumnarException("not a columnar copy: no FBC1 magic");
    }
    in.fixed(4);
    in.count();
    return HexFormat.of().formatHex(in.bytes(32));
  }

  /** The shard's file name for a copy's: {@code shard-00000.fbc} to {@code shard-00000.fb}. */
  public static String shardName(String copyName) {
    if (!copyName.endsWith(EXTENSION)) {
      throw new IllegalArgumentException("not a columnar copy's name: " + copyName);
    }
    return copyName.substring(0, copyName.length() - EXTENSION.length()) + ".fb";
  }

  /** The copy's file name for a shard's: {@code shard-00000.fb} to {@code shard-00000.fbc}. */
  public static String copyName(String shardName) {
    String base =
        shardName.endsWith(".fb") ? shardName.substring(0, shardName.length() - 3) : shardName;
    return base + EXTENSION;
  }
}
