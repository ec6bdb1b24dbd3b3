package dev.flatdump.artifact;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/** gzip (RFC 1952) through the JDK's deflater, levels 1..9. */
public record GzipCompression(int level) implements Compression {

  static final int DEFAULT_LEVEL = 6;
  private static final int BUFFER = 1 << 16;

  public GzipCompression {
    if (level < Deflater.BEST_SPEED || level > Deflater.BEST_COMPRESSION) {
      throw new IllegalArgumentException("gzip level must be 1..9, got " + level);
    }
  }

  @Override
  public String name() {
    return "gzip";
  }

  @Override
  public String extension() {
    return ".gz";
  }

  @Override
  public OutputStream wrap(OutputStream out) throws IOException {
    int lvl = level;
    return new GZIPOutputStream(out, BUFFER) {
      {
        def.setLevel(lvl);
      }
    };
  }
}
