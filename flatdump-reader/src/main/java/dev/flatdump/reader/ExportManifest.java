package dev.flatdump.reader;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the reader takes from an export's {@code manifest.json}: the data shards, in order, and the
 * schema's file names. Everything else in the manifest is ignored. Immutable.
 *
 * @param schemaFile the schema's file ({@code .fbs}, or {@code .bfbs} when the export had only
 *     that)
 * @param binarySchemaFile the binary schema's file name
 * @param fileIdentifier the shards' file identifier, or null when the schema declares none
 * @param shards the data shards ({@code "format": "flatbuffers"}), in order
 */
public record ExportManifest(
    String schemaFile, String binarySchemaFile, String fileIdentifier, List<Shard> shards) {

  /** The manifest's file name in an export's directory. */
  public static final String FILE_NAME = "manifest.json";

  public ExportManifest {
    Objects.requireNonNull(schemaFile, "ExportManifest.schemaFile");
    Objects.requireNonNull(binarySchemaFile, "ExportManifest.binarySchemaFile");
    shards = List.copyOf(shards);
  }

  /**
   * One data shard as the manifest lists it.
   *
   * @param name the file name in the export's directory
   * @param bytes its size in bytes
   * @param sha256 its SHA-256, lowercase hex
   * @param records the records it holds
   */
  public record Shard(String name, long bytes, String sha256, long records) {
    public Shard {
      Objects.requireNonNull(name, "Shard.name");
      Objects.requireNonNull(sha256, "Shard.sha256");
      if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.startsWith(".")) {
        throw new IllegalArgumentException("not a file name of the export: '" + name + "'");
      }
      if (bytes < 0 || bytes > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(name + ": bytes out of range: " + bytes);
      }
      if (!sha256.matches("[0-9a-f]{64}")) {
        throw new IllegalArgumentException(name + ": not a SHA-256: '" + sha256 + "'");
      }
      if (records < 0) {
        throw new IllegalArgumentException(name + ": records out of range: " + records);
      }
    }
  }

  /** The total of the shards' records. */
  public long records() {
    return shards.stream().mapToLong(Shard::records).sum();
  }

  /**
   * Reads {@code dir/manifest.json}.
   *
   * @throws ReaderException naming the file when it is missing, unreadable, not JSON (or not
   *     UTF-8), or lacks a field the reader needs
   */
  public static ExportManifest read(Path dir) {
    Path file = dir.resolve(FILE_NAME);
    String text;
    try {
      byte[] bytes = Files.readAllBytes(file);
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(java.nio.ByteBuffer.wrap(bytes))
              .toString();
    } catch (NoSuchFileException e) {
      throw new ReaderException(file + " is missing: " + dir + " is not a published export", e);
    } catch (CharacterCodingException e) {
      throw new ReaderException(file + " is not UTF-8 text", e);
    } catch (IOException e) {
      throw new ReaderException("cannot read " + file + ": " + e, e);
    }
    try {
      return of(ManifestJson.parse(text));
    } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
      throw new ReaderException(file + " is not a valid manifest: " + e.getMessage(), e);
    }
  }

  static ExportManifest of(Object json) {
    Map<?, ?> root = object(json, "the manifest");
    Map<?, ?> schema = object(root.get("schema"), "schema");
    List<Shard> shards = new ArrayList<>();
    List<?> files = list(root.get("files"), "files");
    for (int i = 0; i < files.size(); i++) {
      Map<?, ?> f = object(files.get(i), "files[" + i + "]");
      if (!"flatbuffers".equals(f.get("format"))) {
        continue;
      }
      String where = "files[" + i + "]";
      Object shard = f.get("shard");
      if (shard instanceof Long n && n != shards.size()) {
        throw new IllegalArgumentException(
            where + ".shard is " + n + ", expected " + shards.size() + " (shards out of order)");
      }
      shards.add(
          new Shard(
              string(f.get("name"), where + ".name"),
              number(f.get("bytes"), where + ".bytes"),
              string(f.get("sha256"), where + ".sha256"),
              number(f.get("records"), where + ".records")));
    }
    Object identifier = schema.get("fileIdentifier");
    return new ExportManifest(
        string(schema.get("file"), "schema.file"),
        string(schema.get("binary"), "schema.binary"),
        identifier == null ? null : string(identifier, "schema.fileIdentifier"),
        shards);
  }

  private static Map<?, ?> object(Object value, String what) {
    if (value instanceof Map<?, ?> m) {
      return m;
    }
    throw new IllegalArgumentException(what + " is not an object: " + value);
  }

  private static List<?> list(Object value, String what) {
    if (value instanceof List<?> l) {
      return l;
    }
    throw new IllegalArgumentException(what + " is not an array: " + value);
  }

  private static String string(Object value, String what) {
    if (value instanceof String s) {
      return s;
    }
    throw new IllegalArgumentException(what + " is not a string: " + value);
  }

  private static long number(Object value, String what) {
    if (value instanceof Long n) {
      return n;
    }
    throw new IllegalArgumentException(what + " is not an integer: " + value);
  }
}
