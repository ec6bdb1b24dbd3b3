package dev.flatdump.artifact.compress;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Zstandard through zstd-jni, levels 1..22, in zstd's multi-threaded mode; frames carry a content
 * checksum.
 */
public record ZstdCompression(int level, int threads) implements Compression {

  /**
   * zstd's own default level, and the export's. On a de-duplicated artifact the higher levels buy
   * little for their CPU (docs/benchmarks.md, "Size").
   */
  public static final int DEFAULT_LEVEL = 3;

  // zstd's own job size at the higher levels is 16 MiB, which makes a stream's native memory grow
  // with it; 4 MiB jobs keep it small and the files as small.
  private static final int JOB_SIZE = 4 << 20;

  public ZstdCompression {
    if (level < 1 || level > Zstd.maxCompressionLevel()) {
      throw new IllegalArgumentException(
          "zstd level must be 1.." + Zstd.maxCompressionLevel() + ", got " + level);
    }
    Compression.requireThreads(threads);
  }

  /** At {@code level}, on {@link Compression#defaultThreads()} threads. */
  public ZstdCompression(int level) {
    this(level, Compression.defaultThreads());
  }

  @Override
  public ZstdCompression withThreads(int threads) {
    return new ZstdCompression(level, threads);
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
  public String mediaType() {
    return "application/zstd";
  }

  @Override
  public OutputStream wrap(OutputStream out) throws IOException {
    ZstdOutputStream zos = new ZstdOutputStream(out, level);
    zos.setChecksum(true);
    // zstd's multi-threaded mode writes the same bytes with one worker or many (but not the same
    // as with none), so always at least one: the output does not depend on the machine.
    zos.setWorkers(threads);
    zos.setJobSize(JOB_SIZE);
    return zos;
  }

  @Override
  public InputStream unwrap(InputStream in) throws IOException {
    return new ZstdInputStream(in); // the frames' checksums are checked as they are read
  }
}
