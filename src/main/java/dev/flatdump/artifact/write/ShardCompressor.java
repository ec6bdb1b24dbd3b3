package dev.flatdump.artifact.write;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.AtomicFiles;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.compress.Compression;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;

/**
 * Compresses a finished file as a stream into {@code NAME + extension}, written atomically, and
 * returns its size and checksum. The input is never held in memory.
 */
public final class ShardCompressor {

  private ShardCompressor() {}

  public static ArtifactFile compress(
      Path source, Compression compression, Integer shard, Long records) {
    Path target = source.resolveSibling(source.getFileName() + compression.extension());
    String[] sha = new String[1];
    AtomicFiles.write(
        target,
        out -> {
          DigestOutputStream digesting = Checksums.digesting(out);
          try (InputStream in = Files.newInputStream(source);
              OutputStream z = compression.wrap(new NonClosing(digesting))) {
            in.transferTo(z);
          }
          sha[0] = Checksums.hex(digesting.getMessageDigest());
        });
    try {
      return new ArtifactFile(
          target.getFileName().toString(),
          compression.name(),
          Files.size(target),
          sha[0],
          shard,
          records);
    } catch (IOException e) {
      throw new ArtifactException("cannot stat " + target + ": " + e.getMessage(), e);
    }
  }

  /**
   * Lets the compressor finish its frame without closing the file, which AtomicFiles forces first.
   */
  private static final class NonClosing extends java.io.FilterOutputStream {
    NonClosing(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
