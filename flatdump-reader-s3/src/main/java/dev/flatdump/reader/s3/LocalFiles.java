package dev.flatdump.reader.s3;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The file operations of a local publish, as flatdump's own ({@code artifact.AtomicFiles}, kept the
 * same by hand: this library imports nothing of the application): a file appears under its final
 * name only complete, through a forced temporary sibling {@code .NAME.tmp} and a rename, and every
 * rename is followed by an {@code fsync} of the directories it changed. Stateless.
 */
final class LocalFiles {

  private LocalFiles() {}

  /** The temporary sibling a write of {@code target} goes through. */
  static Path temporaryFor(Path target) {
    return target.resolveSibling("." + target.getFileName() + ".tmp");
  }

  /** Writes {@code bytes} to {@code target} atomically. */
  static void write(Path target, byte[] bytes) throws IOException {
    Path tmp = temporaryFor(target);
    try (FileOutputStream out = new FileOutputStream(tmp.toFile())) {
      out.write(bytes);
      out.getFD().sync();
    } catch (IOException e) {
      Files.deleteIfExists(tmp);
      throw e;
    }
    move(tmp, target);
  }

  /** Renames atomically, replacing {@code target}, then forces both directories to disk. */
  static void move(Path source, Path target) throws IOException {
    try {
      Files.move(
          source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException(
          "cannot rename " + source + " to " + target + " atomically (different file systems?)", e);
    }
    Path from = source.toAbsolutePath().getParent();
    Path to = target.toAbsolutePath().getParent();
    syncDirectory(to);
    if (!from.equals(to)) {
      syncDirectory(from);
    }
  }

  /** Forces a directory's entries to disk; a no-op where directories cannot be opened. */
  static void syncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      if (System.getProperty("os.name", "").startsWith("Windows")) {
        return;
      }
      throw e;
    }
  }

  /** Deletes a directory and everything in it, not following links; a missing one is fine. */
  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(dir)) {
      paths = walk.sorted(Comparator.reverseOrder()).toList();
    }
    for (Path p : paths) {
      Files.deleteIfExists(p);
    }
  }
}
