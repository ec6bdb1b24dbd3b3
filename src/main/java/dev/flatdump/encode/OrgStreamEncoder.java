package dev.flatdump.encode;

import dev.flatdump.Org;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Writes orgs one at a time to an output stream in a {@link StreamFormat}, buffering internally and
 * never holding more than one org.
 *
 * <p>The encoder owns the stream it was given: {@link #close()} flushes and closes it. Use it in
 * try-with-resources. Not thread-safe.
 */
public interface OrgStreamEncoder extends Closeable {

  /**
   * An encoder for {@code format} that takes ownership of {@code out}. Pass an unbuffered stream if
   * you like: the encoder buffers.
   */
  static OrgStreamEncoder create(StreamFormat format, OutputStream out) {
    Objects.requireNonNull(format, "format must not be null");
    Objects.requireNonNull(out, "out must not be null");
    return switch (format) {
      case PROTOBUF -> new ProtobufOrgStreamEncoder(out);
      case JSON -> new JsonOrgStreamEncoder(out);
    };
  }

  /**
   * Appends one org.
   *
   * @throws IllegalStateException after {@link #close()}
   * @throws IOException if the stream fails
   */
  void write(Org org) throws IOException;

  /**
   * Flushes what is buffered and closes the stream. Idempotent: later calls do nothing. The stream
   * is closed even if the flush fails.
   */
  @Override
  void close() throws IOException;
}
