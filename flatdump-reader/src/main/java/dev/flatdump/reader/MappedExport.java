package dev.flatdump.reader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One opened export: its manifest checked, its shards mapped read-only, and the count of {@link
 * Snapshot}s that hold it. The mappings are released when the count falls to 0, and never touched
 * again. Thread-safe.
 */
final class MappedExport {

  private final Path dir;
  private final ExportManifest manifest;
  private final List<MappedByteBuffer> maps;
  private final AtomicInteger holders = new AtomicInteger(1);

  /** The records by key, or null when they have none. */
  private final KeyIndex keys;

  private MappedExport(Path dir, ExportManifest manifest, List<MappedByteBuffer> maps) {
    this.dir = dir;
    this.manifest = manifest;
    this.maps = List.copyOf(maps);
    ByteBuffer[] views = new ByteBuffer[maps.size()];
    for (int i = 0; i < views.length; i++) {
      views[i] = shard(i);
    }
    this.keys = manifest.lookup() == null ? null : new KeyIndex(manifest, views);
  }

  /**
   * Opens the export in {@code dir}: reads its manifest, then maps each shard and checks its size,
   * its SHA-256 (every byte) and the file identifier the manifest names. Held once, by the caller.
   *
   * @throws ReaderException naming the file and what is wrong with it; nothing stays mapped
   */
  static MappedExport open(Path dir, ExportReader.Verify verify) {
    ExportManifest manifest = ExportManifest.read(dir);
    StructureCheck structure =
        verify == ExportReader.Verify.FULL ? new StructureCheck(binarySchema(dir, manifest)) : null;
    List<MappedByteBuffer> maps = new ArrayList<>();
    try {
      for (ExportManifest.Shard shard : manifest.shards()) {
        Path file = dir.resolve(shard.name());
        MappedByteBuffer map =
            mapChecked(file, shard, manifest.fileIdentifier(), verify != ExportReader.Verify.SIZES);
        maps.add(map);
        if (structure != null) {
          String broken = structure.check(map.duplicate().order(ByteOrder.LITTLE_ENDIAN));
          if (broken != null) {
            throw new ReaderException(
                file
                    + " is not a FlatBuffer of its schema "
                    + manifest.binarySchemaFile()
                    + ": "
                    + broken);
          }
        }
      }
    } catch (RuntimeException e) {
      maps.forEach(Unmapper::unmap);
      throw e;
    }
    MappedExport export = new MappedExport(dir, manifest, maps);
    String mismatch = export.keys == null ? null : export.keys.mismatch(manifest.shards());
    if (mismatch != null) {
      maps.forEach(Unmapper::unmap);
      throw new ReaderException(dir + java.io.File.separator + mismatch);
    }
    return export;
  }

  /** The export's binary schema, its SHA-256 checked against the manifest's. */
  static BinarySchema binarySchema(Path dir, ExportManifest manifest) {
    Path file = dir.resolve(manifest.binarySchemaFile());
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new ReaderException(
          file + " is missing: the manifest names it as the binary schema", e);
    } catch (IOException e) {
      throw new ReaderException("cannot read " + file + ": " + e, e);
    }
    String sha = sha256(ByteBuffer.wrap(bytes));
    if (manifest.binarySchemaSha256() != null && !sha.equals(manifest.binarySchemaSha256())) {
      throw new ReaderException(
          file
              + " is corrupt: its SHA-256 is "
              + sha
              + ", the manifest says "
              + manifest.binarySchemaSha256());
    }
    try {
      return BinarySchema.read(ByteBuffer.wrap(bytes));
    } catch (ReaderException e) {
      throw new ReaderException(file + ": " + e.getMessage(), e);
    }
  }

  private static MappedByteBuffer mapChecked(
      Path file, ExportManifest.Shard shard, String ident, boolean checksum) {
    MappedByteBuffer map;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size != shard.bytes()) {
        throw new ReaderException(
            file
                + " is "
                + size
                + " bytes, the manifest says "
                + shard.bytes()
                + (size < shard.bytes() ? ": a short (truncated) shard" : ": a changed shard"));
      }
      map = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
    } catch (NoSuchFileException e) {
      throw new ReaderException(file + " is missing: the manifest lists it as a shard", e);
    } catch (IOException e) {
      throw new ReaderException("cannot map " + file + ": " + e, e);
    }
    try {
      String sha = checksum ? sha256(map) : shard.sha256();
      if (!sha.equals(shard.sha256())) {
        throw new ReaderException(
            file + " is corrupt: its SHA-256 is " + sha + ", the manifest says " + shard.sha256());
      }
      if (ident != null && !hasIdentifier(map, ident)) {
        throw new ReaderException(
            file + " is not a FlatBuffer with the file identifier '" + ident + "'");
      }
    } catch (RuntimeException e) {
      Unmapper.unmap(map);
      throw e;
    }
    return map;
  }

  private static String sha256(ByteBuffer map) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(map.duplicate());
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private static boolean hasIdentifier(ByteBuffer map, String ident) {
    byte[] expected = ident.getBytes(StandardCharsets.UTF_8);
    // a FlatBuffer: the root's uoffset (4 bytes), then the 4-byte file identifier
    if (expected.length != 4 || map.capacity() < 8) {
      return false;
    }
    for (int i = 0; i < 4; i++) {
      if (map.get(4 + i) != expected[i]) {
        return false;
      }
    }
    return true;
  }

  Path dir() {
    return dir;
  }

  ExportManifest manifest() {
    return manifest;
  }

  /** Shard {@code i}, a read-only little-endian duplicate; only while held. */
  ByteBuffer shard(int i) {
    return maps.get(i).duplicate().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The records by key, or null when they have none. */
  KeyIndex keys() {
    return keys;
  }

  int shardCount() {
    return maps.size();
  }

  /** One more holder, unless the mappings are already released. */
  boolean tryAcquire() {
    for (int n = holders.get(); n > 0; n = holders.get()) {
      if (holders.compareAndSet(n, n + 1)) {
        return true;
      }
    }
    return false;
  }

  /** One holder fewer; the last one releases the mappings. */
  void release() {
    int n = holders.decrementAndGet();
    if (n == 0) {
      maps.forEach(Unmapper::unmap);
    } else if (n < 0) {
      throw new IllegalStateException(dir + " released more often than acquired");
    }
  }

  int holders() {
    return Math.max(0, holders.get());
  }
}
