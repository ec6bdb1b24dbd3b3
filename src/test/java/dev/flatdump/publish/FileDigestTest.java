package dev.flatdump.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.Checksums;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileDigestTest {

  @TempDir Path dir;

  @Test
  void digestsTheWholeFileLikeTheManifestDoes() throws IOException {
    Path file = write(200_000);

    FileDigest digest = FileDigest.of(file, 0);

    assertThat(digest.size()).isEqualTo(200_000);
    assertThat(digest.hex()).isEqualTo(Checksums.sha256(file));
    assertThat(digest.multipart()).isFalse();
    assertThat(digest.compositeBase64()).isNull();
  }

  @Test
  void splitsIntoPartsAcrossReadBuffers() throws IOException {
    // parts that straddle the 64 KiB read buffer, and a short last part
    Path file = write(3 * 70_000 + 17);
    byte[] bytes = Files.readAllBytes(file);

    FileDigest digest = FileDigest.of(file, 70_000);

    assertThat(digest.hex()).isEqualTo(Checksums.sha256(file));
    assertThat(digest.parts()).isEqualTo(4);
    for (int i = 0; i < 4; i++) {
      int from = (int) digest.partOffset(i);
      byte[] part = Arrays.copyOfRange(bytes, from, from + (int) digest.partLength(i));
      assertThat(HexFormat.of().formatHex(digest.partSha256().get(i)))
          .as("part %d", i)
          .isEqualTo(Checksums.sha256(part));
    }
    assertThat(digest.partLength(3)).isEqualTo(17);
  }

  @Test
  void makesOnePartOfAFileNoLargerThanAPart() throws IOException {
    Path file = write(70_000);

    FileDigest digest = FileDigest.of(file, 70_000);

    assertThat(digest.parts()).isEqualTo(1);
    assertThat(digest.compositeBase64()).endsWith("-1");
  }

  private Path write(int size) throws IOException {
    byte[] bytes = new byte[size];
    new Random(size).nextBytes(bytes);
    return Files.write(dir.resolve("f" + size), bytes);
  }
}
