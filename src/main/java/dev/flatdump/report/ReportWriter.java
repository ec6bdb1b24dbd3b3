package dev.flatdump.report;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.AtomicFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

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

  /**
   * The manifest's entry for a file {@link #writeAll} wrote, read back for its size and checksum:
   * its format is {@code json}, {@code markdown} or {@code html}.
   */
  public static ArtifactFile listed(Path written) {
    String name = written.getFileName().toString();
    String format = name.endsWith(".json") ? "json" : name.endsWith(".md") ? "markdown" : "html";
    return ArtifactFile.of(written, format, null, null);
  }

  private static Path write(Path target, String content) {
    try {
      AtomicFiles.write(target, ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8)));
      return target;
    } catch (ArtifactException e) {
      throw new ReportException("cannot write report " + target + ": " + e.getMessage(), target, e);
    }
  }
}
