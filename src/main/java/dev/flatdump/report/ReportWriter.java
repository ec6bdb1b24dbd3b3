package dev.flatdump.report;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Writes a {@link SizeReport} as {@code report.json} (for machines), {@code report.md} (for reading
 * in a repository) and {@code report.html} (one self-contained page with a bar chart), and renders
 * the short terminal {@link #summary}.
 *
 * <p>Each file is written to a temporary file in the target directory, forced to disk and then
 * atomically renamed over the final name: a reader sees the old report or the new one, never a
 * partial one. Stateless and thread-safe, but two writers must not target the same directory at
 * once.
 */
public final class ReportWriter {

  /** The machine-readable report. */
  public static final String JSON_FILE = "report.json";

  /** The Markdown report. */
  public static final String MARKDOWN_FILE = "report.md";

  /** The self-contained HTML report. */
  public static final String HTML_FILE = "report.html";

  private static final Set<PosixFilePermission> READABLE =
      PosixFilePermissions.fromString("rw-r--r--");

  /**
   * Writes the three report files into {@code dir}, creating it if needed and replacing earlier
   * reports.
   *
   * @return the paths written: JSON, Markdown, HTML
   * @throws ReportException naming the file that could not be written; files already renamed stay
   */
  public List<Path> writeAll(SizeReport report, Path dir) {
    Objects.requireNonNull(report, "report must not be null");
    Objects.requireNonNull(dir, "dir must not be null");
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new ReportException("cannot create report directory " + dir + ": " + e, dir, e);
    }
    return List.of(
        write(dir.resolve(JSON_FILE), JsonReport.render(report)),
        write(dir.resolve(MARKDOWN_FILE), MarkdownReport.render(report)),
        write(dir.resolve(HTML_FILE), HtmlReport.render(report)));
  }

  /**
   * A plain-text summary of about ten lines for the terminal: records, MongoDB's sizes, each
   * artifact format's size and its ratio to MongoDB's size and storageSize, de-dup savings,
   * baselines, time and documents per second. Ends in a line break.
   */
  public String summary(SizeReport report) {
    Objects.requireNonNull(report, "report must not be null");
    return Lead.summary(report);
  }

  private static Path write(Path target, String content) {
    Path temp = null;
    try {
      temp = createTemp(target);
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        ByteBuffer bytes = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
          channel.write(bytes);
        }
        channel.force(true);
      }
      // On POSIX, an atomic rename replaces an existing target.
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
      return target;
    } catch (IOException e) {
      deleteQuietly(temp, e);
      throw new ReportException("cannot write report " + target + ": " + e, target, e);
    }
  }

  /** A hidden temporary file next to {@code target}, readable by all like a normal new file. */
  private static Path createTemp(Path target) throws IOException {
    Path dir = target.getParent();
    String prefix = "." + target.getFileName() + ".";
    if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      // createTempFile would make it owner-only (0600), and the rename keeps that.
      return Files.createTempFile(
          dir, prefix, ".tmp", PosixFilePermissions.asFileAttribute(READABLE));
    }
    return Files.createTempFile(dir, prefix, ".tmp");
  }

  private static void deleteQuietly(Path temp, IOException failure) {
    if (temp == null) {
      return;
    }
    try {
      Files.deleteIfExists(temp);
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }
}
