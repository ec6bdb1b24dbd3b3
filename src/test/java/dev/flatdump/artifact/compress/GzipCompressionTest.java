package dev.flatdump.artifact.compress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class GzipCompressionTest extends CompressionContract {

  @Override
  String name() {
    return "gzip";
  }

  @Override
  String alias() {
    return "gz";
  }

  @Override
  String extension() {
    return ".gz";
  }

  @Override
  int minLevel() {
    return 1;
  }

  @Override
  int maxLevel() {
    return 9;
  }

  @Override
  int defaultLevel() {
    return 6;
  }

  @Override
  Compression withLevel(int level) {
    return new GzipCompression(level);
  }

  @Override
  InputStream decompressing(InputStream in) throws IOException {
    return new GZIPInputStream(in);
  }

  @Test
  void writesAGzipMember() throws IOException {
    byte[] compressed = compress(withLevel(6), new byte[] {1, 2, 3});

    // RFC 1952: ID1 ID2 CM=deflate
    assertThat(compressed).startsWith((byte) 0x1f, (byte) 0x8b, (byte) 8);
  }
}
