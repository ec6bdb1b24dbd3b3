package dev.flatdump.publish;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import software.amazon.awssdk.http.ContentStreamProvider;

/**
 * A byte range of a file as a request body that the SDK may read more than once (to sign it, and
 * again on each retry). Streams from disk; holds no more than the SDK's read buffer in memory.
 * Opening a new stream closes the previous one; {@link #close()} closes the last.
 */
final class FileRegion implements ContentStreamProvider, AutoCloseable {

  private final Path file;
  private final long offset;
  private final long length;
  private InputStream current;

  FileRegion(Path file, long offset, long length) {
    this.file = file;
    this.offset = offset;
    this.length = length;
  }

  @Override
  public InputStream newStream() {
    close();
    try {
      FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
      channel.position(offset);
      current = new RegionStream(channel, length);
      return current;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String name() {
    return "FileRegion";
  }

  @Override
  public void close() {
    if (current != null) {
      try {
        current.close();
      } catch (IOException e) {
        // a read-only channel: nothing was lost
      }
      current = null;
    }
  }

  /** Reads at most {@code remaining} bytes from the channel's position. */
  private static final class RegionStream extends InputStream {

    private final FileChannel channel;
    private long remaining;

    RegionStream(FileChannel channel, long remaining) {
      this.channel = channel;
      this.remaining = remaining;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (remaining <= 0) {
        return -1;
      }
      int n = channel.read(ByteBuffer.wrap(b, off, (int) Math.min(len, remaining)));
      if (n < 0) {
        throw new IOException("file shrank while being uploaded: " + remaining + " bytes short");
      }
      remaining -= n;
      return n;
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
