package dev.flatdump.artifact;

import dev.flatdump.Org;
import dev.flatdump.encode.FlatBufferOrgs;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Reads an export back, zero-copy: each shard file is memory-mapped read-only, checked once by
 * {@link FlatBufferVerifier} (so a truncated or corrupted file fails here, not in the middle of a
 * read), and organizations are decoded only as they are iterated. Open a directory (its {@code
 * manifest.json} names the shards in order) or a single {@code .fb} file.
 *
 * <p>Thread-safe for reading once opened. The mappings live until the object is garbage collected;
 * there is nothing to close.
 */
public final class OrgArtifact implements Iterable<Org> {

  private final List<Path> files;
  private final List<MappedByteBuffer> buffers;

  private OrgArtifact(List<Path> files, List<MappedByteBuffer> buffers) {
    this.files = files;
    this.buffers = buffers;
  }

  /**
   * Opens an output directory's current export (following its pointer, see {@link OutputLayout}), a
   * directory with a {@code manifest.json}, or one FlatBuffers file. Should the export that the
   * pointer named be removed while it is being opened (newer exports published meanwhile), the
   * pointer is followed again.
   */
  public static OrgArtifact open(Path path) {
    return OutputLayout.open(path, OrgArtifact::openResolved);
  }

  private static OrgArtifact openResolved(Path path) {
    List<Path> files = new ArrayList<>();
    if (Files.isDirectory(path)) {
      Path manifest = path.resolve(Manifest.FILE_NAME);
      if (!Files.exists(manifest)) {
        throw new ArtifactException(
            path + " has no " + Manifest.FILE_NAME + ": not a finished export");
      }
      for (ArtifactFile f : Manifest.read(manifest).shards()) {
        files.add(path.resolve(f.name()));
      }
    } else {
      files.add(path);
    }
    List<MappedByteBuffer> buffers = new ArrayList<>();
    for (Path f : files) {
      buffers.add(map(f));
    }
    return new OrgArtifact(List.copyOf(files), List.copyOf(buffers));
  }

  private static MappedByteBuffer map(Path file) {
    try (FileChannel ch = FileChannel.open(file)) {
      MappedByteBuffer buf = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
      // a service must never read a broken file unknowingly: check every offset before use
      FlatBufferVerifier.Result check = FlatBufferVerifier.verify(buf);
      if (!check.valid()) {
        throw new ArtifactException(
            file + " is not a valid organizations FlatBuffer: " + check.error());
      }
      return buf;
    } catch (IOException e) {
      throw new ArtifactException("cannot map " + file + ": " + e.getMessage(), e);
    }
  }

  /** The shard files, in order. */
  public List<Path> files() {
    return files;
  }

  /** The mapped shards, in order; each a read-only view positioned at the buffer's start. */
  public List<MappedByteBuffer> shards() {
    return buffers;
  }

  /** Organizations in all shards. */
  public long count() {
    long n = 0;
    for (MappedByteBuffer b : buffers) {
      n += FlatBufferOrgs.count(b);
    }
    return n;
  }

  /** Iterates every organization, shard by shard, in export ({@code _id}) order. */
  @Override
  public Iterator<Org> iterator() {
    return new Iterator<>() {
      private int shard;
      private Iterator<Org> current =
          buffers.isEmpty() ? null : FlatBufferOrgs.iterator(buffers.get(0));

      @Override
      public boolean hasNext() {
        while (current != null && !current.hasNext()) {
          shard++;
          current = shard < buffers.size() ? FlatBufferOrgs.iterator(buffers.get(shard)) : null;
        }
        return current != null;
      }

      @Override
      public Org next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return current.next();
      }
    };
  }
}
