package dev.flatdump.artifact;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Writes files so that a file appears under its final name only when it is complete: the bytes go
 * to a temporary sibling ({@code .NAME.tmp}), are forced to disk, and the temporary is renamed over
 * the final name. A crash leaves at most a temporary file, which the next write replaces.
 *
 * <p>Every rename is followed by an {@code fsync} of the directories it changed, so that a rename
 * that returned also survives a power loss, not only a killed process.
 */
public final class AtomicFiles {

  private AtomicFiles() {}

  /** The most bytes one {@code FileChannel.write} is given by {@link #write(Path, ByteBuffer)}. */
  static final int WRITE_SLICE_BYTES = 8 << 20;

  /** The temporary sibling a write of {@code target} goes through. */
  public static Path temporaryFor(Path target) {
    return target.resolveSibling("." + target.getFileName() + ".tmp");
  }

  /**
   * Writes the buffer's remaining bytes to {@code target} atomically; the buffer's position is
   * kept.
   *
   * <p>A heap buffer is written {@value #WRITE_SLICE_BYTES} bytes at a time: the JDK copies what
   * one {@code write} is given into a native buffer of that size, which it then keeps for the
   * thread. Written whole, a 128 MiB shard left 128 MiB of native memory held by the main thread
   * until the JVM's exit.
   */
  public static void write(Path target, ByteBuffer data) {
    Path tmp = temporaryFor(target);
    ByteBuffer rest = data.duplicate();
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      while (rest.hasRemaining()) {
        ByteBuffer slice = rest.slice();
        slice.limit(Math.min(slice.limit(), WRITE_SLICE_BYTES));
        while (slice.hasRemaining()) {
          ch.write(slice);
        }
        rest.position(rest.position() + slice.position());
      }
      ch.force(true);
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw new ArtifactException("cannot write " + target + ": " + e.getMessage(), e);
    }
    moveOrDelete(tmp, target);
  }

  /** Something that writes a file's content to a stream. */
  @FunctionalInterface
  public interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  /** Writes {@code content} to {@code target} atomically. */
  public static void write(Path target, Content content) {
    Path tmp = temporaryFor(target);
    try (FileChannel ch =
            FileChannel.open(
                tmp,
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16)) {
      content.writeTo(out);
      out.flush();
      ch.force(true);
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw new ArtifactException("cannot write " + target + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      deleteQuietly(tmp);
      throw e;
    }
    moveOrDelete(tmp, target);
  }

  /** Renames the finished temporary into place; if that fails, the temporary goes too. */
  private static void moveOrDelete(Path tmp, Path target) {
    try {
      move(tmp, target);
    } catch (ArtifactException e) {
      deleteQuietly(tmp);
      throw e;
    }
  }

  /**
   * Renames {@code source} to {@code target} atomically, replacing it (a file, a symbolic link, or
   * an empty directory), then forces the directories that changed to disk.
   */
  public static void move(Path source, Path target) {
    try {
      Files.move(
          source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new ArtifactException(
          "cannot rename " + source + " to " + target + " atomically (different file systems?)", e);
    } catch (IOException e) {
      throw new ArtifactException(
          "cannot rename " + source + " to " + target + ": " + e.getMessage(), e);
    }
    Path from = parentOf(source);
    Path to = parentOf(target);
    syncDirectory(to);
    if (!from.equals(to)) {
      syncDirectory(from);
    }
  }

  /**
   * Forces a directory's entries to disk ({@code fsync} of the directory), so that files created,
   * renamed or removed in it stay so after a power loss. A no-op where the platform cannot open a
   * directory for it (Windows).
   */
  public static void syncDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      if (isWindows()) {
        return; // directories cannot be opened there; NTFS journals its metadata
      }
      throw new ArtifactException("cannot sync directory " + dir + ": " + e.getMessage(), e);
    }
  }

  private static Path parentOf(Path p) {
    Path parent = p.toAbsolutePath().getParent();
    return parent == null ? p.toAbsolutePath() : parent;
  }

  private static boolean isWindows() {
    return System.getProperty("os.name", "").startsWith("Windows");
  }

  public static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // best effort: a leftover temporary is replaced by the next write
    }
  }

  /** Deletes {@code dir} and everything in it; what is already gone is no error. */
  public static void deleteTree(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new ArtifactException("cannot remove " + dir + ": " + e.getMessage(), e);
    }
  }
}
