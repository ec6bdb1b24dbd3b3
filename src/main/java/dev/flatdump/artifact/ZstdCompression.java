package dev.flatdump.artifact;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** Zstandard through zstd-jni, levels 1..22; frames carry a content checksum. */
public record ZstdCompression(int level) implements Compression {

  static final int DEFAULT_LEVEL = 9;

  public ZstdCompression {
    if (level < 1 || level > Zstd.maxCompressionLevel()) {
      throw new IllegalArgumentException(
          "zstd level must be 1.." + Zstd.maxCompressionLevel() + ", got " + level);
    }
  }

  @Override
  public String name() {
    return "zstd";
  }

  @Override
  public String extension() {
    return ".zst";
  }

  @Override
  public OutputStream wrap(OutputStream out) throws IOException {
    ZstdOutputStream zos = new ZstdOutputStream(out, level);
    zos.setChecksum(true);
    return zos;
  }
}
