package dev.flatdump.bench.samples;

import dev.flatdump.FlatdumpException;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.bson.RawBsonDocument;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;

/**
 * Writes documents as relaxed MongoDB Extended JSON, one per line ({@code \n}), gzip-compressed
 * when the file name ends in {@code .gz}; the format {@link ExtendedJsonLoader} reads.
 *
 * <p>The file appears under its final name only when {@link #finish()} succeeds: until then it is a
 * hidden temporary file next to it, which {@link #close()} deletes if {@code finish} was not
 * called. The output is byte-for-byte deterministic (gzip headers carry no time stamp). Not
 * thread-safe; the caller closes it.
 */
public final class ExtendedJsonFileWriter implements Closeable {

  private static final JsonWriterSettings RELAXED =
      JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();

  private final Path file;
  private final Path temp;
  private final Writer out;
  private boolean finished;
  private boolean closed;

  public ExtendedJsonFileWriter(Path file) {
    this.file = file.toAbsolutePath();
    this.temp = this.file.resolveSibling("." + this.file.getFileName() + ".tmp");
    try {
      OutputStream stream = Files.newOutputStream(temp);
      if (file.getFileName().toString().endsWith(".gz")) {
        stream = new GZIPOutputStream(stream, 64 * 1024);
      }
      this.out =
          new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), 64 * 1024);
    } catch (IOException e) {
      throw new FlatdumpException("cannot create " + temp + ": " + e.getMessage(), e);
    }
  }

  /** Writes one document as one line. */
  public void write(RawBsonDocument document) {
    try {
      out.write(document.toJson(RELAXED));
      out.write('\n');
    } catch (IOException e) {
      throw new FlatdumpException("cannot write " + temp + ": " + e.getMessage(), e);
    }
  }

  /** Writes a batch; usable as a {@link SampleWriter} sink. */
  public void writeAll(List<RawBsonDocument> documents) {
    documents.forEach(this::write);
  }

  /** Completes the file and moves it to its final name, replacing any file there. */
  public void finish() {
    try {
      out.close();
      closed = true;
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      finished = true;
    } catch (IOException e) {
      throw new FlatdumpException("cannot complete " + file + ": " + e.getMessage(), e);
    }
  }

  /** Idempotent; without a successful {@link #finish()} it deletes the temporary file. */
  @Override
  public void close() {
    if (finished) {
      return;
    }
    finished = true; // abandoned: nothing more to do on a second close
    try {
      if (!closed) {
        closed = true;
        out.close();
      }
    } catch (IOException e) {
      // the file is being abandoned: a failed close changes nothing
    }
    try {
      Files.deleteIfExists(temp);
    } catch (IOException e) {
      throw new FlatdumpException("cannot delete " + temp + ": " + e.getMessage(), e);
    }
  }
}
