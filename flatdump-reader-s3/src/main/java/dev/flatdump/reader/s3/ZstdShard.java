package dev.flatdump.reader.s3;

import com.github.luben.zstd.ZstdInputStream;
import java.io.BufferedInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Turns a downloaded {@code .zst} copy back into its data shard: decompressed through a temporary
 * file, which must then hold exactly the raw shard the manifest lists (size and SHA-256) before it
 * is renamed to the shard's name. Stateless.
 */
final class ZstdShard {

  private static final int BUFFER = 1 << 16;

  private ZstdShard() {}

  /**
   * Decompresses {@code zst} into {@code shard}.
   *
   * @throws ObjectDownload.CorruptObject when the copy does not decompress to the shard's bytes (or
   *     not at all); nothing is left under {@code shard}
   * @throws IOException when the local disk fails
   */
  static void decompress(Path zst, Path shard, long bytes, String sha256) throws IOException {
    Path tmp = LocalFiles.temporaryFor(shard);
    MessageDigest digest = ObjectDownload.newDigest();
    long size = 0;
    try (InputStream in =
            new ZstdInputStream(new BufferedInputStream(Files.newInputStream(zst), BUFFER));
        FileOutputStream out = new FileOutputStream(tmp.toFile())) {
      byte[] buf = new byte[BUFFER];
      for (int n; (n = in.read(buf)) > 0; ) {
        size += n;
        if (size > bytes) {
          throw new ObjectDownload.CorruptObject(
              "it decompresses to more than the " + bytes + " bytes of " + shard.getFileName());
        }
        out.write(buf, 0, n);
        digest.update(buf, 0, n);
      }
      out.getFD().sync();
    } catch (ObjectDownload.CorruptObject e) {
      Files.deleteIfExists(tmp);
      throw e;
    } catch (RuntimeException e) {
      Files.deleteIfExists(tmp);
      if (e.getClass().getName().startsWith("com.github.luben.zstd")) {
        throw new ObjectDownload.CorruptObject("it is not valid zstd: " + e.getMessage());
      }
      throw e;
    } catch (IOException e) {
      Files.deleteIfExists(tmp);
      if (e.getClass().getName().startsWith("com.github.luben.zstd")) {
        throw new ObjectDownload.CorruptObject("it is not valid zstd: " + e.getMessage());
      }
      throw e;
    }
    String hex = HexFormat.of().formatHex(digest.digest());
    if (size != bytes || !hex.equals(sha256)) {
      Files.deleteIfExists(tmp);
      throw mismatch("it decompresses to", size, hex, shard, bytes, sha256);
    }
    LocalFiles.move(tmp, shard);
  }

  /** A copy that gives back other bytes than the manifest lists for its shard. */
  static ObjectDownload.CorruptObject mismatch(
      String gives, long size, String hex, Path shard, long bytes, String sha256) {
    return new ObjectDownload.CorruptObject(
        gives
            + " "
            + size
            + " bytes with SHA-256 "
            + hex
            + ", but the manifest lists "
            + shard.getFileName()
            + " with "
            + bytes
            + " bytes and SHA-256 "
            + sha256);
  }
}
