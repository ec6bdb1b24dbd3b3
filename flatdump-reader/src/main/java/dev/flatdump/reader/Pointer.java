package dev.flatdump.reader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The output directory's pointer, followed as {@code artifact.OutputLayout.resolve} follows it
 * (kept the same by hand: the reader imports nothing of flatdump): the {@code current} symbolic
 * link when there is one, resolved to the real directory; else the {@code CURRENT} file, one line
 * {@code exports/NAME}; else the path itself, an export's own directory. Stateless.
 */
final class Pointer {

  static final String CURRENT_LINK = "current";
  static final String CURRENT_FILE = "CURRENT";
  static final String EXPORTS = "exports";

  /** An export's directory name, as the publish checks it. */
  private static final Pattern EXPORT_NAME = Pattern.compile("[0-9A-Za-z][0-9A-Za-z._-]{0,99}");

  private Pointer() {}

  /**
   * The export directory {@code path} names now.
   *
   * @throws ReaderException when a pointer is there but names nothing readable
   */
  static Path resolve(Path path) {
    Path link = path.resolve(CURRENT_LINK);
    if (Files.isSymbolicLink(link)) {
      try {
        return link.toRealPath();
      } catch (NoSuchFileException e) {
        throw new ReaderException(link + " names a directory that does not exist", e);
      } catch (IOException e) {
        throw new ReaderException("cannot follow " + link + ": " + e, e);
      }
    }
    Path file = path.resolve(CURRENT_FILE);
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return path;
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new ReaderException("cannot read " + file + ": " + e, e);
    }
    String prefix = EXPORTS + "/";
    String name = text.startsWith(prefix) ? text.substring(prefix.length()) : "";
    if (!EXPORT_NAME.matcher(name).matches()) {
      throw new ReaderException(file + " does not name a directory under " + prefix + ": " + text);
    }
    return path.resolve(EXPORTS).resolve(name);
  }

  /** Whether {@code path} holds a pointer, i.e. is an output directory rather than an export. */
  static boolean isOutputDirectory(Path path) {
    return Files.isSymbolicLink(path.resolve(CURRENT_LINK))
        || Files.isRegularFile(path.resolve(CURRENT_FILE), LinkOption.NOFOLLOW_LINKS);
  }
}
