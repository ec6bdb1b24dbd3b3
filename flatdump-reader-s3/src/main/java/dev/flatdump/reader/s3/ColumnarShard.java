package dev.flatdump.reader.s3;

import dev.flatdump.columnar.ColumnarCopy;
import dev.flatdump.columnar.ColumnarException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Turns a downloaded columnar copy ({@code .fbc}) back into its data shard: rebuilt with the
 * export's binary schema, in memory, then written through a temporary file, which must hold exactly
 * the raw shard the manifest lists (size and SHA-256) before it is renamed to the shard's name.
 * Stateless.
 */
final class ColumnarShard {

  private ColumnarShard() {}

  /**
   * Rebuilds {@code copy} into {@code shard} with the binary schema {@code bfbs}.
   *
   * @throws ObjectDownload.CorruptObject when the copy does not rebuild (damaged, made with another
   *     binary schema, or rebuilding to another SHA-256 than it carries) or rebuilds to other bytes
   *     than the manifest lists for the shard; nothing is left under {@code shard}
   * @throws IOException when the local disk fails
   */
  static void rebuild(Path copy, Path bfbs, Path shard, long bytes, String sha256)
      throws IOException {
    byte[] rebuilt;
    String hex;
    try {
      byte[] bytesOfCopy = Files.readAllBytes(copy);
      rebuilt = ColumnarCopy.rebuild(bytesOfCopy, Files.readAllBytes(bfbs));
      // the rebuild checked its bytes against the SHA-256 the copy carries
      hex = ColumnarCopy.sha256(bytesOfCopy);
    } catch (ColumnarException e) {
      throw new ObjectDownload.CorruptObject("it does not rebuild its shard: " + e.getMessage());
    } catch (RuntimeException e) {
      // a damaged copy the decoder did not foresee (an index out of range, a zstd error)
      throw new ObjectDownload.CorruptObject(
          "it does not rebuild its shard: " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    if (rebuilt.length != bytes || !hex.equals(sha256)) {
      throw ZstdShard.mismatch("it rebuilds", rebuilt.length, hex, shard, bytes, sha256);
    }
    Path tmp = LocalFiles.temporaryFor(shard);
    try (FileOutputStream out = new FileOutputStream(tmp.toFile())) {
      out.write(rebuilt);
      out.getFD().sync();
    } catch (IOException e) {
      Files.deleteIfExists(tmp);
      throw e;
    }
    LocalFiles.move(tmp, shard);
  }
}
