package dev.flatdump.artifact.write;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.AtomicFiles;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OutputLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Publishes a finished export with one atomic switch (see {@link OutputLayout}):
 *
 * <ol>
 *   <li>{@code manifest.json} is written into the staging directory, which then holds the whole
 *       export, and the staging directory is renamed to {@code OUT/exports/NAME}: the export
 *       appears complete or not at all;
 *   <li>the pointer is switched to it: the {@code current} link, then the {@code CURRENT} file,
 *       each replaced by a rename;
 *   <li>exports beyond the newest {@code keep} are removed, never the current one; each is first
 *       renamed out of {@code exports/}, so that no reader finds a half-removed export under its
 *       name.
 * </ol>
 *
 * Every rename is forced to disk with its directories. Each stage can be repeated: a publish
 * interrupted anywhere (a killed process) is completed by calling {@link #publish} again with the
 * same name, whether the staging directory was already renamed or not. The staging directory must
 * be on the output directory's file system.
 */
public final class LocalPublisher {

  /** Prefix of an export directory being removed, renamed out of the way first. */
  static final String REMOVING = ".removing-";

  private LocalPublisher() {}

  /**
   * Publishes the export staged in {@code staging} as {@code OUT/exports/NAME} and makes it the
   * current one.
   *
   * @param manifest the export's manifest, written into the staging directory before the rename;
   *     not written again when the rename already happened
   * @param keep how many exports to keep, the new one included; at least 1
   * @return the export's directory
   * @throws ArtifactException when neither the staging directory nor a published {@code
   *     exports/NAME} is there, or when {@code exports/NAME} already holds another export
   */
  public static Path publish(Path staging, Path out, String name, Manifest manifest, int keep) {
    if (keep < 1) {
      throw new IllegalArgumentException("keep must be >= 1, got " + keep);
    }
    Path exportDir = OutputLayout.exportDir(out, name);
    if (Files.isDirectory(staging)) {
      requireListedFiles(staging, manifest);
      if (Files.exists(exportDir, LinkOption.NOFOLLOW_LINKS)) {
        throw new ArtifactException(
            "cannot publish into "
                + exportDir
                + ": it already holds another export (was the job repository reset?); move it"
                + " away and run the same command again");
      }
      removeUnlisted(staging, manifest);
      manifest.write(staging);
      AtomicFiles.syncDirectory(staging);
      createDirectory(exportDir.getParent());
      AtomicFiles.move(staging, exportDir);
      CrashPoint.reached("publish.renamed");
    } else if (!Files.isRegularFile(exportDir.resolve(Manifest.FILE_NAME))) {
      throw new ArtifactException(
          "cannot publish "
              + name
              + ": neither the staged export ("
              + staging
              + ") nor a published "
              + exportDir
              + " is there; run with --new-run to export again");
    }
    point(out, name);
    CrashPoint.reached("publish.pointed");
    removeOldExports(out, name, keep);
    return exportDir;
  }

  /** Makes {@code exports/NAME} the current export: the link first, then the text file. */
  static void point(Path out, String name) {
    String text = OutputLayout.pointerText(name);
    Path link = out.resolve(OutputLayout.CURRENT_LINK);
    Path tmpLink = AtomicFiles.temporaryFor(link);
    try {
      Files.deleteIfExists(tmpLink);
      Files.createSymbolicLink(tmpLink, Path.of(OutputLayout.EXPORTS, name));
      AtomicFiles.move(tmpLink, link);
      CrashPoint.reached("publish.linked");
    } catch (UnsupportedOperationException | IOException e) {
      // no symbolic links here: CURRENT alone names the export
      AtomicFiles.deleteQuietly(tmpLink);
    }
    byte[] bytes = (text + "\n").getBytes(StandardCharsets.UTF_8);
    AtomicFiles.write(out.resolve(OutputLayout.CURRENT_FILE), o -> o.write(bytes));
  }

  /**
   * Removes every export but the newest {@code keep} (by the manifests' {@code finishedAt}), never
   * {@code current}. A directory under {@code exports/} without a manifest is not ours: it stays.
   */
  static void removeOldExports(Path out, String current, int keep) {
    Path exports = out.resolve(OutputLayout.EXPORTS);
    record Published(Path dir, Instant finishedAt) {}
    List<Published> others = new ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(exports)) {
      for (Path dir : dirs) {
        String n = dir.getFileName().toString();
        if (n.startsWith(REMOVING)) {
          AtomicFiles.deleteTree(dir); // left by a removal that was interrupted
          continue;
        }
        Path manifest = dir.resolve(Manifest.FILE_NAME);
        if (n.equals(current) || !Files.isRegularFile(manifest)) {
          continue;
        }
        others.add(new Published(dir, finishedAt(manifest)));
      }
    } catch (IOException e) {
      throw new ArtifactException("cannot list " + exports + ": " + e.getMessage(), e);
    }
    others.sort(Comparator.comparing(Published::finishedAt).reversed());
    for (Published old : others.subList(Math.min(keep - 1, others.size()), others.size())) {
      Path removing = exports.resolve(REMOVING + old.dir().getFileName());
      AtomicFiles.move(old.dir(), removing);
      AtomicFiles.deleteTree(removing);
    }
  }

  private static void requireListedFiles(Path staging, Manifest manifest) {
    for (ArtifactFile f : manifest.files()) {
      if (!Files.isRegularFile(staging.resolve(f.name()))) {
        throw new ArtifactException("cannot publish " + f.name() + ": missing from " + staging);
      }
    }
  }

  /**
   * What the staging directory holds besides the listed files goes before it is published: the
   * temporary files of a killed run that this run resumed.
   */
  private static void removeUnlisted(Path staging, Manifest manifest) {
    java.util.Set<String> listed = new java.util.HashSet<>();
    manifest.files().forEach(f -> listed.add(f.name()));
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(staging)) {
      for (Path p : entries) {
        if (!listed.contains(p.getFileName().toString())) {
          if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            AtomicFiles.deleteTree(p);
          } else {
            Files.delete(p);
          }
        }
      }
    } catch (IOException e) {
      throw new ArtifactException("cannot clean " + staging + ": " + e.getMessage(), e);
    }
  }

  private static Instant finishedAt(Path manifest) {
    try {
      Instant t = Manifest.read(manifest).finishedAt();
      return t == null ? Instant.EPOCH : t;
    } catch (ArtifactException e) {
      return Instant.EPOCH; // unreadable: the oldest, so the first to go
    }
  }

  private static void createDirectory(Path dir) {
    if (Files.isDirectory(dir)) {
      return;
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new ArtifactException("cannot create " + dir + ": " + e.getMessage(), e);
    }
    AtomicFiles.syncDirectory(dir.getParent());
  }
}
