package dev.flatdump.reader.s3;

import dev.flatdump.reader.ManifestFiles;
import dev.flatdump.reader.ReaderException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The local output directory a pull publishes into, in the layout {@code flatdump export} writes
 * (its {@code artifact.write.LocalPublisher}, kept the same by hand):
 *
 * <ol>
 *   <li>an export is downloaded into {@code OUT/.pull/NAME/}; once every file is there and checked,
 *       {@code manifest.json} is written into it and it is renamed to {@code OUT/exports/NAME}: an
 *       export appears complete or not at all;
 *   <li>the pointer is switched to it: the {@code current} symbolic link, then the {@code CURRENT}
 *       file ({@code exports/NAME}), each replaced by a rename;
 *   <li>exports beyond the newest {@code keep} (by their manifests' {@code finishedAt}) are
 *       removed, never the current one, each renamed out of {@code exports/} first.
 * </ol>
 *
 * Each step can be repeated: a pull interrupted anywhere is completed by pulling again. Not
 * thread-safe; {@link #lock} keeps other pulls out of the directory.
 */
final class LocalExports {

  static final String EXPORTS = "exports";
  static final String CURRENT_LINK = "current";
  static final String CURRENT_FILE = "CURRENT";
  static final String MANIFEST = "manifest.json";

  /** The staging directory of downloads, inside the output directory. */
  static final String STAGING = ".pull";

  static final String LOCK = "lock";
  static final String REMOVING = ".removing-";

  private static final Pattern EXPORT_NAME = Pattern.compile("[0-9A-Za-z][0-9A-Za-z._-]{0,99}");

  private final Path out;

  LocalExports(Path out) {
    this.out = out;
  }

  /** Whether {@code name} is an export's directory name, as the publish checks it. */
  static boolean isExportName(String name) {
    return name != null && EXPORT_NAME.matcher(name).matches();
  }

  /**
   * Takes the lock of pulls into this directory ({@code OUT/.pull/lock}), creating the directories.
   *
   * @throws PullException when another pull holds it
   */
  FileLock lock() {
    Path file = out.resolve(STAGING).resolve(LOCK);
    try {
      Files.createDirectories(file.getParent());
      FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        ch.close();
        throw new PullException("another pull into " + out + " is running (it holds " + file + ")");
      }
      return lock;
    } catch (IOException e) {
      throw new PullException("cannot lock " + file + ": " + e.getMessage(), e);
    }
  }

  /** The current export's name, by {@code OUT/CURRENT}, or empty when there is none. */
  Optional<String> currentName() {
    Path file = out.resolve(CURRENT_FILE);
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8).strip();
      String name = text.startsWith(EXPORTS + "/") ? text.substring(EXPORTS.length() + 1) : "";
      return isExportName(name) ? Optional.of(name) : Optional.empty();
    } catch (IOException e) {
      throw new PullException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  Path exportDir(String name) {
    return out.resolve(EXPORTS).resolve(name);
  }

  /** Whether {@code exports/NAME} is published here with exactly this manifest. */
  boolean holds(String name, byte[] manifest) {
    Path file = exportDir(name).resolve(MANIFEST);
    try {
      return Files.isRegularFile(file) && Arrays.equals(Files.readAllBytes(file), manifest);
    } catch (IOException e) {
      throw new PullException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The staging directory of {@code name}, created, with what an earlier run left in it (to be
   * resumed); the staging directories of other exports go.
   */
  Path staging(String name) {
    Path root = out.resolve(STAGING);
    try {
      Files.createDirectories(root);
      try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root)) {
        for (Path dir : dirs) {
          String n = dir.getFileName().toString();
          if (!n.equals(name) && !n.equals(LOCK)) {
            LocalFiles.deleteTree(dir);
          }
        }
      }
      return Files.createDirectories(root.resolve(name));
    } catch (IOException e) {
      throw new PullException("cannot prepare " + root.resolve(name) + ": " + e.getMessage(), e);
    }
  }

  /**
   * Publishes the export downloaded into {@link #staging}({@code name}) as {@code exports/NAME},
   * makes it current and removes exports beyond the newest {@code keep}.
   *
   * @param manifest the remote manifest's bytes, written into the export last
   * @return the export's directory
   * @throws PullException when a listed file is missing, or {@code exports/NAME} holds another
   *     export
   */
  Path publish(String name, byte[] manifest, ManifestFiles files, int keep) {
    return publish(name, manifest, files, keep, Set.of());
  }

  /**
   * Publishes as {@link #publish(String, byte[], ManifestFiles, int)} does, with the listed files
   * {@code absent} left out: the copies a pull did not download because their shards were rebuilt
   * from their columnar copies ({@link ExportDownload#skipped()}). Any other listed file missing is
   * refused; one of {@code absent} that is there all the same is removed, as it was not checked.
   */
  Path publish(String name, byte[] manifest, ManifestFiles files, int keep, Set<String> absent) {
    Path staging = out.resolve(STAGING).resolve(name);
    Path exportDir = exportDir(name);
    try {
      if (!holds(name, manifest)) {
        if (Files.exists(exportDir, LinkOption.NOFOLLOW_LINKS)) {
          throw new PullException(
              "cannot publish "
                  + name
                  + ": "
                  + exportDir
                  + " already holds another export; move it away and pull again");
        }
        Set<String> listed = new HashSet<>();
        for (ManifestFiles.File f : files.files()) {
          if (absent.contains(f.name())) {
            continue; // not downloaded: removed below if there
          }
          listed.add(f.name());
          if (!Files.isRegularFile(staging.resolve(f.name()))) {
            throw new PullException("cannot publish " + f.name() + ": missing from " + staging);
          }
        }
        removeUnlisted(staging, listed);
        LocalFiles.write(staging.resolve(MANIFEST), manifest);
        LocalFiles.syncDirectory(staging);
        Files.createDirectories(exportDir.getParent());
        LocalFiles.move(staging, exportDir);
      } else {
        LocalFiles.deleteTree(staging);
      }
      point(name);
      removeOldExports(name, keep);
      return exportDir;
    } catch (IOException e) {
      throw new PullException("cannot publish " + exportDir + ": " + e.getMessage(), e);
    }
  }

  /** Makes {@code exports/NAME} current: the link first, then the text file. */
  void point(String name) throws IOException {
    Path link = out.resolve(CURRENT_LINK);
    Path tmpLink = LocalFiles.temporaryFor(link);
    try {
      Files.deleteIfExists(tmpLink);
      Files.createSymbolicLink(tmpLink, Path.of(EXPORTS, name));
      LocalFiles.move(tmpLink, link);
    } catch (UnsupportedOperationException | IOException e) {
      // no symbolic links here: CURRENT alone names the export
      Files.deleteIfExists(tmpLink);
    }
    LocalFiles.write(
        out.resolve(CURRENT_FILE), (EXPORTS + "/" + name + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Removes every export but the newest {@code keep}, never {@code current}; a directory under
   * {@code exports/} without a manifest is not one: it stays.
   */
  void removeOldExports(String current, int keep) throws IOException {
    Path exports = out.resolve(EXPORTS);
    record Published(Path dir, Instant finishedAt) {}
    List<Published> others = new ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(exports)) {
      for (Path dir : dirs) {
        String n = dir.getFileName().toString();
        if (n.startsWith(REMOVING)) {
          LocalFiles.deleteTree(dir); // left by a removal that was interrupted
          continue;
        }
        Path manifest = dir.resolve(MANIFEST);
        if (n.equals(current) || !Files.isRegularFile(manifest)) {
          continue;
        }
        others.add(new Published(dir, finishedAt(manifest)));
      }
    }
    others.sort(
        Comparator.comparing(Published::finishedAt)
            .thenComparing(p -> p.dir().getFileName().toString())
            .reversed());
    for (Published old : others.subList(Math.min(keep - 1, others.size()), others.size())) {
      Path removing = exports.resolve(REMOVING + old.dir().getFileName());
      LocalFiles.move(old.dir(), removing);
      LocalFiles.deleteTree(removing);
    }
  }

  private static void removeUnlisted(Path staging, Set<String> listed) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(staging)) {
      for (Path p : entries) {
        if (!listed.contains(p.getFileName().toString())) {
          LocalFiles.deleteTree(p);
        }
      }
    }
  }

  private static Instant finishedAt(Path manifest) {
    try {
      Instant t =
          ManifestFiles.parse(Files.readAllBytes(manifest), manifest.toString()).finishedAt();
      return t == null ? Instant.EPOCH : t;
    } catch (IOException | ReaderException e) {
      return Instant.EPOCH; // unreadable: the oldest, so the first to go
    }
  }
}
