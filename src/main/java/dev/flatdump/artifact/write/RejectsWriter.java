package dev.flatdump.artifact.write;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.AtomicFiles;
import dev.flatdump.encode.Reject;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Appends rejected documents to {@code rejects.jsonl}, one JSON object per line with the document's
 * {@code _id}, the field and the reason.
 *
 * <p>Restartable: {@link #checkpoint()} forces the lines to disk and returns the file's length; a
 * restart opens the file truncated to that length, dropping lines written after the checkpoint,
 * which the restarted run writes again. Not thread-safe; the caller closes it.
 */
public final class RejectsWriter implements Closeable {

  public static final String FILE_NAME = "rejects.jsonl";

  private final Path file;
  private final FileChannel channel;
  private long count;

  /**
   * @param dir the staging directory
   * @param resumeAt the length from the last {@link #checkpoint()}, or 0 for a fresh run
   * @param countSoFar how many rejects those {@code resumeAt} bytes hold
   */
  public RejectsWriter(Path dir, long resumeAt, long countSoFar) {
    this.file = dir.resolve(FILE_NAME);
    try {
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      long length = channel.size();
      if (length < resumeAt) {
        channel.close();
        throw new ArtifactException(
            file
                + " is shorter ("
                + length
                + " bytes) than its checkpoint ("
                + resumeAt
                + " bytes): the staging directory was changed; re-run with a new run");
      }
      channel.truncate(resumeAt);
      channel.position(resumeAt);
    } catch (IOException e) {
      throw new ArtifactException("cannot open " + file + ": " + e.getMessage(), e);
    }
    this.count = countSoFar;
  }

  public void write(Reject reject) {
    ByteBuffer line =
        ByteBuffer.wrap((reject.toJsonLine() + "\n").getBytes(StandardCharsets.UTF_8));
    try {
      while (line.hasRemaining()) {
        channel.write(line);
      }
    } catch (IOException e) {
      throw new ArtifactException("cannot write " + file + ": " + e.getMessage(), e);
    }
    count++;
  }

  /** Rejects written, including those before a restart. */
  public long count() {
    return count;
  }

  /** Forces the lines to disk and returns the file's length in bytes. */
  public long checkpoint() {
    try {
      channel.force(false);
      return channel.position();
    } catch (IOException e) {
      throw new ArtifactException("cannot flush " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new ArtifactException("cannot close " + file + ": " + e.getMessage(), e);
    }
  }

  /** The rejects one writer left in {@code dir}: the first {@code length} bytes of its file. */
  public record Written(Path dir, long length) {}

  /**
   * Writes {@code dir}'s {@code rejects.jsonl} as the rejects of {@code parts} one after the other
   * (a partitioned export's), atomically: the file is whole or absent.
   */
  public static void join(Path dir, List<Written> parts) {
    AtomicFiles.write(
        dir.resolve(FILE_NAME),
        out -> {
          WritableByteChannel to = Channels.newChannel(out);
          for (Written p : parts) {
            if (p.length() == 0) {
              continue;
            }
            Path file = p.dir().resolve(FILE_NAME);
            try (FileChannel from = FileChannel.open(file)) {
              if (from.size() < p.length()) {
                throw new ArtifactException(
                    file + " is shorter than the " + p.length() + " bytes its partition saved");
              }
              // only the bytes up to the partition's checkpoint are its rejects
              for (long at = 0; at < p.length(); ) {
                at += from.transferTo(at, p.length() - at, to);
              }
            }
          }
        });
  }
}
