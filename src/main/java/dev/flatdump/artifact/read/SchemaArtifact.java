package dev.flatdump.artifact.read;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.check.SchemaVerifier;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.reader.ExportReader;
import dev.flatdump.reader.ReaderException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an export back, zero-copy, through the binary schema it carries: an export's shards are
 * opened by the reader library ({@link ExportReader}: the manifest's shards, each mapped read-only,
 * its size and file identifier checked), then each is checked once by {@link SchemaVerifier};
 * records are read through {@link RecordJson}. Opens an output directory (following its pointer),
 * an export's own directory, or one shard file inside an export's directory.
 *
 * <p>Thread-safe for reading once opened. The mappings live until the object is garbage collected.
 */
public final class SchemaArtifact {

  private final Manifest manifest;
  private final SchemaPlan plan;
  private final byte[] binary;
  private final List<Path> files;
  private final List<ByteBuffer> buffers;

  private SchemaArtifact(
      Manifest manifest,
      SchemaPlan plan,
      byte[] binary,
      List<Path> files,
      List<ByteBuffer> buffers) {
    this.manifest = manifest;
    this.plan = plan;
    this.binary = binary;
    this.files = files;
    this.buffers = buffers;
  }

  /**
   * Opens the export {@code path} names.
   *
   * @throws ArtifactException when it is not a finished export, or a shard does not verify
   */
  public static SchemaArtifact open(Path path) {
    return OutputLayout.open(path, SchemaArtifact::openResolved);
  }

  private static SchemaArtifact openResolved(Path path) {
    boolean oneFile = !Files.isDirectory(path);
    Path dir = oneFile ? path.toAbsolutePath().getParent() : path;
    Path manifestFile = dir.resolve(Manifest.FILE_NAME);
    if (!Files.isRegularFile(manifestFile)) {
      throw new ArtifactException(
          dir + " has no " + Manifest.FILE_NAME + ": not a finished export");
    }
    Manifest manifest = Manifest.read(manifestFile);
    byte[] binary = SchemaFiles.exportBinary(dir, manifest);
    SchemaPlan plan = SchemaFiles.exportPlan(dir, manifest, binary);
    List<Path> files = new ArrayList<>();
    List<ByteBuffer> buffers = new ArrayList<>();
    if (oneFile) {
      files.add(path);
      buffers.add(map(path));
    } else {
      for (ArtifactFile f : manifest.shards()) {
        files.add(dir.resolve(f.name()));
      }
      // the export's own directory, the pointer already followed; the snapshot is never closed,
      // so that its mappings live as long as the buffers are reachable
      try (ExportReader reader = ExportReader.open(dir, ExportReader.Verify.SIZES)) {
        buffers.addAll(reader.snapshot().shards());
      } catch (ReaderException e) {
        throw new ArtifactException(e.getMessage(), e);
      }
    }
    for (int i = 0; i < files.size(); i++) {
      // a service must never read a broken file unknowingly: check every offset before use
      SchemaVerifier.Result check = SchemaVerifier.verify(plan, buffers.get(i));
      if (!check.valid()) {
        throw new ArtifactException(
            files.get(i) + " is not a valid FlatBuffer of " + plan.source() + ": " + check.error());
      }
    }
    return new SchemaArtifact(manifest, plan, binary, List.copyOf(files), List.copyOf(buffers));
  }

  private static ByteBuffer map(Path file) {
    try (FileChannel ch = FileChannel.open(file)) {
      return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
    } catch (IOException e) {
      throw new ArtifactException("cannot map " + file + ": " + e.getMessage(), e);
    }
  }

  public Manifest manifest() {
    return manifest;
  }

  public SchemaPlan plan() {
    return plan;
  }

  /** The binary schema the export carries, read-only. */
  public ByteBuffer binarySchema() {
    return ByteBuffer.wrap(binary).asReadOnlyBuffer();
  }

  /** The shard files, in order. */
  public List<Path> files() {
    return files;
  }

  /** The mapped shards, in order; each a read-only view positioned at the buffer's start. */
  public List<ByteBuffer> shards() {
    return buffers;
  }

  /** Records in all shards. */
  public long count() {
    RecordJson json = new RecordJson(plan);
    long n = 0;
    for (ByteBuffer b : buffers) {
      n += json.count(b);
    }
    return n;
  }
}
