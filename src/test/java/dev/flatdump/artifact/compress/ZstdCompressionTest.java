package dev.flatdump.artifact.compress;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class ZstdCompressionTest extends CompressionContract {

  @Override
  String name() {
    return "zstd";
  }

  @Override
  String alias() {
    return "zst";
  }

  @Override
  String extension() {
    return ".zst";
  }

  @Override
  int minLevel() {
    return 1;
  }

  @Override
  int maxLevel() {
    return 22;
  }

  @Override
  int defaultLevel() {
    return 3;
  }

  @Override
  Compression withLevel(int level) {
    return new ZstdCompression(level);
  }

  @Override
  InputStream decompressing(InputStream in) throws IOException {
    return new ZstdInputStream(in);
  }

  @Test
  void framesCarryAContentChecksum() throws IOException {
    byte[] compressed = compress(withLevel(3), new byte[] {1, 2, 3});

    // RFC 8878: magic 0xFD2FB528 (little-endian), then the frame header descriptor, whose bit 2 is
    // the Content_Checksum_flag.
    assertThat(compressed).startsWith((byte) 0x28, (byte) 0xb5, (byte) 0x2f, (byte) 0xfd);
    assertThat(compressed[4] & 0b100).isNotZero();
  }
}
