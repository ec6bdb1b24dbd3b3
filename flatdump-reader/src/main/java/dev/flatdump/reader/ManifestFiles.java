package dev.flatdump.reader;

import static dev.flatdump.reader.ManifestJson.number;
import static dev.flatdump.reader.ManifestJson.string;

import java.nio.charset.CharacterCodingException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Every file an export's {@code manifest.json} lists, as a tool that copies an export needs them
 * (the pull from object storage): name, format, size, SHA-256 and shard. {@link ExportManifest} is
 * the reader's narrower view, the data shards only. Immutable.
 *
 * @param files every listed file, in the manifest's order (data shards first); the manifest itself
 *     is never one of them
 * @param finishedAt when the export's manifest was written, or null when it does not say
 */
public record ManifestFiles(List<File> files, Instant finishedAt) {

  /** The format of a data shard. */
  public static final String FLATBUFFERS = "flatbuffers";

  /** The format of a shard's zstd copy. */
  public static final String ZSTD = "zstd";

  /**
   * The format of a shard's columnar copy ({@code NAME.fbc} for {@code NAME.fb}), which rebuilds
   * the shard's bytes with the export's binary schema (flatdump-columnar).
   */
  public static final String COLUMNAR = "columnar";

  /** The format of the export's binary schema. */
  public static final String BFBS = "bfbs";

  public ManifestFiles {
    files = List.copyOf(files);
    Set<String> names = new HashSet<>();
    for (File f : files) {
      if (f.name().equals(ExportManifest.FILE_NAME)) {
        throw new IllegalArgumentException("the manifest lists itself as one of its files");
      }
      if (!names.add(f.name())) {
        throw new IllegalArgumentException("the manifest lists " + f.name() + " twice");
      }
    }
  }

  /**
   * One listed file.
   *
   * @param name its plain file name in the export's directory
   * @param format {@code flatbuffers}, {@code gzip}, {@code zstd}, {@code json}, ...
   * @param bytes its size in bytes
   * @param sha256 its SHA-256, lowercase hex
   * @param shard the shard it holds or is a copy of, or null
   */
  public record File(String name, String format, long bytes, String sha256, Long shard) {
    public File {
      Objects.requireNonNull(name, "File.name");
      Objects.requireNonNull(format, "File.format");
      Objects.requireNonNull(sha256, "File.sha256");
      if (name.isEmpty()
          || name.contains("/")
          || name.contains("\\")
          || name.startsWith(".")
          || name.chars().anyMatch(Character::isISOControl)) {
        throw new IllegalArgumentException("not a file name of the export: '" + name + "'");
      }
      if (bytes < 0) {
        throw new IllegalArgumentException(name + ": bytes out of range: " + bytes);
      }
      if (!sha256.matches("[0-9a-f]{64}")) {
        throw new IllegalArgumentException(name + ": not a SHA-256: '" + sha256 + "'");
      }
    }
  }

  /**
   * The zstd copy of the data shard {@code shard}, when the manifest lists one: format {@code
   * zstd}, the same shard index, named after the shard with {@code .zst} appended.
   */
  public Optional<File> zstdCopyOf(File shard) {
    return files.stream()
        .filter(f -> ZSTD.equals(f.format()))
        .filter(f -> Objects.equals(f.shard(), shard.shard()))
        .filter(f -> f.name().equals(shard.name() + ".zst"))
        .findFirst();
  }

  /**
   * The columnar copy of the data shard {@code shard}, when the manifest lists one: format {@code
   * columnar}, the same shard index, named after the shard with its {@code .fb} replaced by {@code
   * .fbc} ({@code .fbc} appended when it has none).
   */
  public Optional<File> columnarCopyOf(File shard) {
    String name = shard.name();
    String copy = (name.endsWith(".fb") ? name.substring(0, name.length() - 3) : name) + ".fbc";
    return files.stream()
        .filter(f -> COLUMNAR.equals(f.format()))
        .filter(f -> Objects.equals(f.shard(), shard.shard()))
        .filter(f -> f.name().equals(copy))
        .findFirst();
  }

  /** The export's binary schema ({@code "format": "bfbs"}), when the manifest lists one. */
  public Optional<File> binarySchema() {
    return files.stream().filter(f -> BFBS.equals(f.format())).findFirst();
  }

  /**
   * Parses a manifest's bytes.
   *
   * @param source how an error names the manifest, e.g. its path or URI
   * @throws ReaderException naming {@code source} when the bytes are not UTF-8, not JSON, or lack a
   *     field of a listed file
   */
  public static ManifestFiles parse(byte[] json, String source) {
    String text;
    try {
      text = ManifestJson.utf8(json);
    } catch (CharacterCodingException e) {
      throw new ReaderException(source + " is not UTF-8 text", e);
    }
    try {
      return of(ManifestJson.parse(text));
    } catch (IllegalArgumentException
        | ClassCastException
        | NullPointerException
        | DateTimeParseException e) {
      throw new ReaderException(source + " is not a valid manifest: " + e.getMessage(), e);
    }
  }

  private static ManifestFiles of(Object json) {
    if (!(json instanceof Map<?, ?> root)) {
      throw new IllegalArgumentException("the manifest is not an object");
    }
    if (!(root.get("files") instanceof List<?> listed)) {
      throw new IllegalArgumentException("files is not an array: " + root.get("files"));
    }
    List<File> files = new ArrayList<>();
    for (int i = 0; i < listed.size(); i++) {
      String where = "files[" + i + "]";
      if (!(listed.get(i) instanceof Map<?, ?> f)) {
        throw new IllegalArgumentException(where + " is not an object");
      }
      Object shard = f.get("shard");
      if (shard != null && !(shard instanceof Long)) {
        throw new IllegalArgumentException(where + ".shard is not an integer: " + shard);
      }
      files.add(
          new File(
              string(f.get("name"), where + ".name"),
              string(f.get("format"), where + ".format"),
              number(f.get("bytes"), where + ".bytes"),
              string(f.get("sha256"), where + ".sha256"),
              (Long) shard));
    }
    Object finished = root.get("finishedAt");
    return new ManifestFiles(
        files, finished == null ? null : Instant.parse(string(finished, "finishedAt")));
  }
}
