package dev.flatdump.artifact.check;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.ShardFile;
import dev.flatdump.encode.plan.SchemaPlan;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Checks an export directory on its own, without MongoDB.
 *
 * <ul>
 *   <li>{@code manifest.json} parses.
 *   <li>Every file it lists exists, with the listed size and SHA-256.
 *   <li>Every FlatBuffers shard passes {@link SchemaVerifier}, through the binary schema the export
 *       carries, and holds the listed number of records.
 *   <li>Every {@code .gz} and {@code .zst} copy decompresses to exactly its shard's bytes, and
 *       every columnar copy ({@code .fbc}) rebuilds them.
 *   <li>No shard file lies in the directory unlisted.
 *   <li>{@code counts.exported} is the sum of the shards' records.
 * </ul>
 *
 * <p>It collects every problem, each naming its file, rather than stopping at the first. Files are
 * streamed or memory-mapped, never held on the heap. Stateless and thread-safe.
 */
public final class ExportChecker {

  static final String FLATBUFFERS = "flatbuffers";

  /**
   * One thing wrong with an export.
   *
   * @param file the file's name in the export directory
   * @param message what is wrong, with the values found and expected
   */
  public record Problem(String file, String message) {
    public Problem {
      Objects.requireNonNull(file, "Problem.file");
      Objects.requireNonNull(message, "Problem.message");
    }

    @Override
    public String toString() {
      return file + ": " + message;
    }
  }

  /**
   * What a check found.
   *
   * @param problems every problem, in the order checked; empty for a sound export
   * @param files files the manifest lists
   * @param shards FlatBuffers shards the manifest lists
   * @param records records in the shards that passed verification
   * @param audit what its shards still hold more than once ({@link DedupAudit}), summed
   */
  public record Result(
      List<Problem> problems, int files, int shards, long records, List<DedupAudit.Count> audit) {
    public Result {
      problems = List.copyOf(problems);
      audit = List.copyOf(audit);
    }

    public Result(List<Problem> problems, int files, int shards, long records) {
      this(problems, files, shards, records, List.of());
    }

    public boolean clean() {
      return problems.isEmpty();
    }
  }

  private ExportChecker() {}

  /** Checks the export in {@code dir}, which must be a directory. */
  public static Result check(Path dir) {
    List<Problem> problems = new ArrayList<>();
    Path manifestFile = dir.resolve(Manifest.FILE_NAME);
    if (!Files.isRegularFile(manifestFile)) {
      problems.add(
          new Problem(Manifest.FILE_NAME, "missing: " + dir + " is not a finished export"));
      return new Result(problems, 0, 0, 0);
    }
    Manifest manifest;
    try {
      manifest = Manifest.read(manifestFile);
    } catch (ArtifactException e) {
      problems.add(new Problem(Manifest.FILE_NAME, "does not parse: " + causeOf(e)));
      return new Result(problems, 0, 0, 0);
    }
    if (manifest.formatVersion() != Manifest.FORMAT_VERSION) {
      problems.add(
          new Problem(
              Manifest.FILE_NAME,
              "formatVersion is "
                  + manifest.formatVersion()
                  + ", this flatdump reads "
                  + Manifest.FORMAT_VERSION));
    }
    Map<String, ArtifactFile> listed = new LinkedHashMap<>();
    for (ArtifactFile f : manifest.files()) {
      if (listed.putIfAbsent(f.name(), f) != null) {
        problems.add(new Problem(f.name(), "is listed more than once in the manifest"));
      }
    }
    SchemaPlan plan;
    byte[] binary;
    try {
      binary = SchemaFiles.exportBinary(dir, manifest);
      plan = SchemaFiles.exportPlan(dir, manifest, binary);
    } catch (ArtifactException e) {
      problems.add(new Problem(manifest.schema().binary(), e.getMessage()));
      return new Result(problems, listed.size(), 0, 0);
    }
    long recordsChecked = 0;
    long shardRecords = 0;
    int shards = 0;
    List<DedupAudit.Count> audit = List.of();
    for (ArtifactFile f : listed.values()) {
      if (!isPlainName(f.name())) {
        problems.add(new Problem(f.name(), "is not a plain file name inside the export directory"));
        continue;
      }
      Path file = dir.resolve(f.name());
      if (!Files.isRegularFile(file)) {
        problems.add(new Problem(f.name(), "is listed in the manifest but missing"));
        continue;
      }
      checkSizeAndSha256(file, f, problems);
      if (FLATBUFFERS.equals(f.format())) {
        shards++;
        shardRecords += f.records() == null ? 0 : f.records();
        long records = checkShard(file, f, plan, problems);
        recordsChecked += records;
        if (records > 0) {
          audit = DedupAudit.plus(audit, audit(file, plan, problems));
        }
      } else if (ExportCheckCopies.isCompressed(f)) {
        ExportCheckCopies.check(file, f, listed, problems);
      } else if (ExportCheckCopies.isColumnar(f)) {
        ExportCheckCopies.checkColumnar(file, f, listed, binary, problems);
      }
    }
    checkUnlisted(dir, listed, shardOrCopy(manifest), problems);
    Manifest.Counts counts = manifest.counts();
    if (counts.exported() != shardRecords) {
      problems.add(
          new Problem(
              Manifest.FILE_NAME,
              "counts.exported is "
                  + counts.exported()
                  + ", but its shards list "
                  + shardRecords
                  + " records"));
    }
    return new Result(problems, listed.size(), shards, recordsChecked, audit);
  }

  /** What a verified shard still holds more than once. */
  private static List<DedupAudit.Count> audit(Path file, SchemaPlan plan, List<Problem> problems) {
    try (FileChannel ch = FileChannel.open(file)) {
      return DedupAudit.audit(plan, ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()));
    } catch (IOException e) {
      problems.add(
          new Problem(file.getFileName().toString(), "cannot be mapped: " + e.getMessage()));
      return List.of();
    }
  }

  private static void checkSizeAndSha256(Path file, ArtifactFile f, List<Problem> problems) {
    try {
      long size = Files.size(file);
      if (size != f.bytes()) {
        problems.add(
            new Problem(f.name(), "is " + size + " bytes, the manifest says " + f.bytes()));
      }
      String sha256 = Checksums.sha256(file);
      if (!sha256.equals(f.sha256())) {
        problems.add(
            new Problem(f.name(), "has sha256 " + sha256 + ", the manifest says " + f.sha256()));
      }
    } catch (IOException | ArtifactException e) {
      problems.add(new Problem(f.name(), "cannot be read: " + e.getMessage()));
    }
  }

  /** The names of the export's shards and copies: its schema's name. */
  private static Pattern shardOrCopy(Manifest manifest) {
    String file = manifest.schema().binary();
    return ShardFile.shardOrCopy(file.substring(0, file.lastIndexOf('.')));
  }

  /**
   * Verifies one shard with the schema's plan; returns its records, or 0 when it did not verify.
   */
  private static long checkShard(
      Path file, ArtifactFile f, SchemaPlan plan, List<Problem> problems) {
    if (f.records() == null) {
      problems.add(new Problem(f.name(), "has no records count in the manifest"));
    }
    SchemaVerifier.Result result;
    try (FileChannel ch = FileChannel.open(file)) {
      long size = ch.size();
      if (size > Integer.MAX_VALUE) {
        problems.add(
            new Problem(f.name(), "is " + size + " bytes, more than a FlatBuffer can hold"));
        return 0;
      }
      MappedByteBuffer buf = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
      result = SchemaVerifier.verify(plan, buf);
    } catch (IOException e) {
      problems.add(new Problem(f.name(), "cannot be mapped: " + e.getMessage()));
      return 0;
    }
    if (!result.valid()) {
      problems.add(
          new Problem(f.name(), "is not a valid FlatBuffer of its schema: " + result.error()));
      return 0;
    }
    if (f.records() != null && result.records() != f.records()) {
      problems.add(
          new Problem(
              f.name(),
              "holds " + result.records() + " records, the manifest says " + f.records()));
    }
    return result.records();
  }

  /**
   * Shard files and their copies ({@link ShardFile#shardOrCopy}) that the manifest does not list.
   */
  private static void checkUnlisted(
      Path dir, Map<String, ArtifactFile> listed, Pattern shardOrCopy, List<Problem> problems) {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      List<String> names = new ArrayList<>();
      ds.forEach(p -> names.add(p.getFileName().toString()));
      names.stream()
          .sorted()
          .filter(n -> shardOrCopy.matcher(n).matches())
          .filter(n -> !listed.containsKey(n))
          .forEach(n -> problems.add(new Problem(n, "is a shard file the manifest does not list")));
    } catch (IOException e) {
      problems.add(new Problem(dir.toString(), "cannot be listed: " + e.getMessage()));
    }
  }

  /** A name that resolves to a file directly inside the directory: no separators, no dots. */
  private static boolean isPlainName(String name) {
    return !name.isEmpty()
        && !name.equals(".")
        && !name.equals("..")
        && name.indexOf('/') < 0
        && name.indexOf('\\') < 0
        && name.indexOf('\0') < 0;
  }

  private static String causeOf(ArtifactException e) {
    Throwable cause = e.getCause() == null ? e : e.getCause();
    String message = String.valueOf(cause.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
