package dev.flatdump.artifact;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The output directory's layout. Every published export has a directory of its own, {@code
 * OUT/exports/NAME/}, which holds its files and its {@code manifest.json}; one pointer names the
 * current export, in two forms that always name the same directory once a publish has ended:
 *
 * <ul>
 *   <li>{@code OUT/current}, a symbolic link to {@code exports/NAME}, replaced by a rename;
 *   <li>{@code OUT/CURRENT}, a one-line text file, {@code exports/NAME}, replaced by a rename, for
 *       tools and file systems without symbolic links.
 * </ul>
 *
 * A consumer that resolves the pointer once, then reads from the directory it names, reads one
 * complete export: an export directory never changes after it is published. Stateless.
 */
public final class OutputLayout {

  /** The directory, inside the output directory, that holds one directory per export. */
  public static final String EXPORTS = "exports";

  /** The symbolic link to the current export's directory. */
  public static final String CURRENT_LINK = "current";

  /** The text file naming the current export's directory, relative to the output directory. */
  public static final String CURRENT_FILE = "CURRENT";

  /** An export's directory name: a run date and the job instance, e.g. {@code 2026-11-26-3}. */
  private static final Pattern EXPORT_NAME = Pattern.compile("[0-9A-Za-z][0-9A-Za-z._-]{0,99}");

  private OutputLayout() {}

  /**
   * An export's name, checked to be one plain directory name.
   *
   * @throws IllegalArgumentException if it is not
   */
  public static String requireExportName(String name) {
    if (name == null || !EXPORT_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "not an export name (letters, digits, '.', '_', '-'): " + name);
    }
    return name;
  }

  /** Where the export named {@code name} is published inside {@code out}. */
  public static Path exportDir(Path out, String name) {
    return out.resolve(EXPORTS).resolve(requireExportName(name));
  }

  /** What the pointer holds for the export named {@code name}: {@code exports/NAME}. */
  public static String pointerText(String name) {
    return EXPORTS + "/" + requireExportName(name);
  }

  /**
   * The export directory that {@code path} names: the current export when {@code path} is an output
   * directory with a pointer ({@code current}, else {@code CURRENT}), else {@code path} itself (an
   * export's own directory). The symbolic link is resolved to the real directory, so that later
   * reads do not follow a pointer that has moved on.
   *
   * @throws ArtifactException when the pointer is there but names nothing readable
   */
  public static Path resolve(Path path) {
    Path link = path.resolve(CURRENT_LINK);
    if (Files.isSymbolicLink(link)) {
      try {
        return link.toRealPath();
      } catch (NoSuchFileException e) {
        throw new ArtifactException(
            link + " names " + target(link) + ", which does not exist: a broken export pointer", e);
      } catch (IOException e) {
        throw new ArtifactException("cannot follow " + link + ": " + e.getMessage(), e);
      }
    }
    Optional<String> named = currentName(path);
    return named.map(n -> exportDir(path, n)).orElse(path);
  }

  /** How often {@link #open} follows a pointer again when the export it named was removed. */
  private static final int POINTER_ATTEMPTS = 5;

  /**
   * Opens what {@code path} names with {@code opener}: an output directory's current export
   * (following its pointer), an export's own directory, or a file. Should the export that the
   * pointer named be removed while it is being opened (newer exports published meanwhile), the
   * pointer is followed again.
   */
  public static <T> T open(Path path, java.util.function.Function<Path, T> opener) {
    for (int attempt = 1; ; attempt++) {
      Path dir = Files.isDirectory(path) ? resolve(path) : path;
      try {
        return opener.apply(dir);
      } catch (ArtifactException e) {
        boolean followedPointer = !dir.equals(path);
        if (!followedPointer || Files.isDirectory(dir) || attempt == POINTER_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  /**
   * The name of the current export according to {@code OUT/CURRENT}, or empty when there is none.
   *
   * @throws ArtifactException when the file is there but does not name an export directory
   */
  public static Optional<String> currentName(Path out) {
    Path file = out.resolve(CURRENT_FILE);
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new ArtifactException("cannot read " + file + ": " + e.getMessage(), e);
    }
    String prefix = EXPORTS + "/";
    if (!text.startsWith(prefix)) {
      throw new ArtifactException(
          file + " does not name a directory under " + prefix + ": " + text);
    }
    try {
      return Optional.of(requireExportName(text.substring(prefix.length())));
    } catch (IllegalArgumentException e) {
      throw new ArtifactException(file + ": " + e.getMessage(), e);
    }
  }

  private static String target(Path link) {
    try {
      return Files.readSymbolicLink(link).toString();
    } catch (IOException e) {
      return "?";
    }
  }
}
