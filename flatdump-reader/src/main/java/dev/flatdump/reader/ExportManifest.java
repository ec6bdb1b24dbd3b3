package dev.flatdump.reader;

import static dev.flatdump.reader.ManifestJson.list;
import static dev.flatdump.reader.ManifestJson.number;
import static dev.flatdump.reader.ManifestJson.object;
import static dev.flatdump.reader.ManifestJson.string;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
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
 * @param binarySchemaSha256 its SHA-256 as the manifest's list of files gives it, or null
 * @param fileIdentifier the shards' file identifier, or null when the schema declares none
 * @param shards the data shards ({@code "format": "flatbuffers"}), in order
 * @param lookup how records are found by key, or null when they have no key
 */
public record ExportManifest(
    String schemaFile,
    String binarySchemaFile,
    String binarySchemaSha256,
    String fileIdentifier,
    List<Shard> shards,
    Lookup lookup) {

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
   * @param firstKey its first record's key (a {@link String} or a {@link Long}; a {@code ulong} key
   *     of 2^63 or more as the Long of the same 64 bits, which the reader compares unsigned) when
   *     the records have a key and the shard holds any, else null
   * @param lastKey its last record's key, likewise
   */
  public record Shard(
      String name, long bytes, String sha256, long records, Object firstKey, Object lastKey) {
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
      if ((firstKey == null) != (lastKey == null)
          || (firstKey != null
              && (!keyed(firstKey) || firstKey.getClass() != lastKey.getClass()))) {
        throw new IllegalArgumentException(
            name + ": firstKey and lastKey must be both strings or both integers");
      }
    }
  }

  /**
   * What a lookup by key needs, from the manifest's {@code schema.lookup}: the root table's records
   * vector and the records' key field, each by name and vtable offset.
   *
   * @param keyType {@code string}, or an integer kind ({@code byte} ... {@code ulong})
   * @param keyDefault an integer key's default (what a record omitting the field holds), else 0
   */
  public record Lookup(
      String recordsField,
      int recordsVoffset,
      String keyField,
      String keyType,
      int keyVoffset,
      long keyDefault) {
    static final List<String> KEY_TYPES =
        List.of("string", "byte", "ubyte", "short", "ushort", "int", "uint", "long", "ulong");

    public Lookup {
      Objects.requireNonNull(recordsField, "Lookup.recordsField");
      Objects.requireNonNull(keyField, "Lookup.keyField");
      if (!KEY_TYPES.contains(keyType)) {
        throw new IllegalArgumentException("lookup.keyType is not a key type: " + keyType);
      }
      if (!voffset(recordsVoffset) || !voffset(keyVoffset)) {
        throw new IllegalArgumentException(
            "lookup: not vtable offsets: " + recordsVoffset + ", " + keyVoffset);
      }
    }

    private static boolean voffset(int v) {
      return v >= 4 && v % 2 == 0 && v < 0x10000;
    }

    /** Whether the key is a string (else an integer). */
    public boolean stringKey() {
      return keyType.equals("string");
    }
  }

  private static boolean keyed(Object key) {
    return key instanceof String || key instanceof Long;
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
      text = ManifestJson.utf8(bytes);
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
    boolean ulong = schema.get("lookup") instanceof Map<?, ?> l && "ulong".equals(l.get("keyType"));
    String binary = string(schema.get("binary"), "schema.binary");
    String binarySha256 = null;
    for (int i = 0; i < files.size(); i++) {
      Map<?, ?> f = object(files.get(i), "files[" + i + "]");
      if (binary.equals(f.get("name"))) {
        binarySha256 = string(f.get("sha256"), "files[" + i + "].sha256");
      }
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
              number(f.get("records"), where + ".records"),
              key(f.get("firstKey"), ulong, where + ".firstKey"),
              key(f.get("lastKey"), ulong, where + ".lastKey")));
    }
    Object identifier = schema.get("fileIdentifier");
    Lookup lookup = null;
    if (schema.get("lookup") != null) {
      Map<?, ?> l = object(schema.get("lookup"), "schema.lookup");
      Object keyDefault = l.get("keyDefault");
      lookup =
          new Lookup(
              string(l.get("recordsField"), "schema.lookup.recordsField"),
              (int) number(l.get("recordsVoffset"), "schema.lookup.recordsVoffset"),
              string(l.get("keyField"), "schema.lookup.keyField"),
              string(l.get("keyType"), "schema.lookup.keyType"),
              (int) number(l.get("keyVoffset"), "schema.lookup.keyVoffset"),
              keyDefault == null
                  ? 0
                  : number(key(keyDefault, ulong, "schema.lookup.keyDefault"), "keyDefault"));
      for (Shard s : shards) {
        if (s.records() > 0
            && (s.firstKey() == null || (s.firstKey() instanceof String) != lookup.stringKey())) {
          throw new IllegalArgumentException(
              s.name() + ": no firstKey/lastKey of the lookup's key type " + lookup.keyType());
        }
      }
    }
    return new ExportManifest(
        string(schema.get("file"), "schema.file"),
        binary,
        binarySha256,
        identifier == null ? null : string(identifier, "schema.fileIdentifier"),
        shards,
        lookup);
  }

  /**
   * A key as JSON gives it; a {@code ulong} of 2^63 or more (a {@link java.math.BigInteger}) as the
   * Long of its 64 bits.
   */
  private static Object key(Object value, boolean ulong, String what) {
    if (value instanceof java.math.BigInteger big) {
      if (ulong && big.signum() > 0 && big.bitLength() <= 64) {
        return big.longValue();
      }
      throw new IllegalArgumentException(what + " is out of range: " + big);
    }
    return value;
  }
}
