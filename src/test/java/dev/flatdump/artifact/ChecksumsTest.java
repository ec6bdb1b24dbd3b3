package dev.flatdump.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChecksumsTest {

  // FIPS 180-2 test vectors
  private static final String SHA256_ABC =
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  private static final String SHA256_EMPTY =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  @TempDir Path dir;

  @Test
  void hashesBytesAsLowercaseHex() {
    assertThat(Checksums.sha256("abc".getBytes(StandardCharsets.US_ASCII))).isEqualTo(SHA256_ABC);
  }

  @Test
  void hashesEmptyBytes() {
    assertThat(Checksums.sha256(new byte[0])).isEqualTo(SHA256_EMPTY);
  }

  @Test
  void hashesAFile() throws IOException {
    assertThat(Checksums.sha256(Files.writeString(dir.resolve("abc"), "abc")))
        .isEqualTo(SHA256_ABC);
    assertThat(Checksums.sha256(Files.write(dir.resolve("empty"), new byte[0])))
        .isEqualTo(SHA256_EMPTY);
  }

  @Test
  void aFileLargerThanTheReadBufferHashesLikeItsBytes() throws IOException {
    byte[] data = new byte[300_001];
    new Random(7).nextBytes(data);

    assertThat(Checksums.sha256(Files.write(dir.resolve("data"), data)))
        .isEqualTo(Checksums.sha256(data));
  }

  @Test
  void hashesABuffersRemainingBytesAndKeepsItsPosition() {
    ByteBuffer buffer = ByteBuffer.wrap("xxabc".getBytes(StandardCharsets.US_ASCII));
    buffer.position(2);

    assertThat(Checksums.sha256(buffer)).isEqualTo(SHA256_ABC);
    assertThat(buffer.position()).isEqualTo(2);
    assertThat(Checksums.sha256(buffer.position(5))).isEqualTo(SHA256_EMPTY);
  }

  @Test
  void aDigestingStreamHashesWhatPassesThrough() throws IOException {
    var out = new ByteArrayOutputStream();
    DigestOutputStream digesting = Checksums.digesting(out);

    digesting.write("ab".getBytes(StandardCharsets.US_ASCII));
    digesting.write('c');

    assertThat(Checksums.hex(digesting.getMessageDigest())).isEqualTo(SHA256_ABC);
    assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo("abc");
  }

  @Test
  void aDigestingInputStreamHashesWhatIsReadThroughIt() throws IOException {
    DigestInputStream digesting =
        Checksums.digesting(new ByteArrayInputStream("abc".getBytes(StandardCharsets.US_ASCII)));

    assertThat(digesting.readAllBytes()).asString(StandardCharsets.US_ASCII).isEqualTo("abc");
    assertThat(Checksums.hex(digesting.getMessageDigest())).isEqualTo(SHA256_ABC);
  }

  @Test
  void aNewDigestIsSha256AndItsBytesFormatAsLowercaseHex() {
    MessageDigest md = Checksums.newDigest();
    md.update("ab".getBytes(StandardCharsets.US_ASCII));
    md.update((byte) 'c');

    assertThat(md.getAlgorithm()).isEqualTo("SHA-256");
    assertThat(Checksums.hex(md.digest())).isEqualTo(SHA256_ABC);
    assertThat(Checksums.hex(new byte[] {0x00, 0x0f, (byte) 0xab, (byte) 0xff}))
        .isEqualTo("000fabff");
  }

  @Test
  void aMissingFileIsAnArtifactExceptionNamingIt() {
    Path missing = dir.resolve("missing");

    assertThatThrownBy(() -> Checksums.sha256(missing))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining(missing.toString());
  }
}
