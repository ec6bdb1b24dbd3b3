package dev.flatdump.reader;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.ObjIntConsumer;
import java.util.function.ToIntFunction;

/**
 * One hold on one export: its shards stay mapped at least until this handle is closed, however many
 * reloads happen meanwhile. Each handle is closed once ({@link #close} is idempotent); {@link
 * #acquire} gives another handle on the same export, for another holder. The export's mappings are
 * released when its last handle closes (and the {@link ExportReader} has moved on).
 *
 * <p>Thread-safe; the buffers it hands out are read-only duplicates, each for one thread. The
 * caller must not use a buffer, or anything read from it lazily (a flatc-generated table object),
 * after closing the handle it came from: the memory may be unmapped.
 */
public final class Snapshot implements AutoCloseable {

  private final MappedExport export;
  private final AtomicBoolean closed = new AtomicBoolean();

  /** Takes over one hold on {@code export} already counted. */
  Snapshot(MappedExport export) {
    this.export = export;
  }

  /** The export's id: its directory's name, e.g. {@code 2026-11-26-42}. */
  public String id() {
    return export.dir().getFileName().toString();
  }

  /** The export's directory. */
  public Path directory() {
    return export.dir();
  }

  /** What the manifest says of the shards and the schema. */
  public ExportManifest manifest() {
    return export.manifest();
  }

  /** How many data shards the export has. */
  public int shardCount() {
    return export.shardCount();
  }

  /**
   * Shard {@code i}'s bytes: a new read-only, little-endian view of the mapping, position 0.
   *
   * @throws IllegalStateException when this handle is closed
   */
  public ByteBuffer shard(int i) {
    requireOpen();
    return export.shard(i);
  }

  /** Every shard's bytes, in order, as {@link #shard} gives them. */
  public List<ByteBuffer> shards() {
    requireOpen();
    List<ByteBuffer> list = new ArrayList<>(shardCount());
    for (int i = 0; i < shardCount(); i++) {
      list.add(export.shard(i));
    }
    return list;
  }

  /** The records in shard {@code i}, as the manifest says. */
  public long records(int i) {
    return manifest().shards().get(i).records();
  }

  /** The records in every shard, as the manifest says. */
  public long records() {
    return manifest().records();
  }

  /**
   * Each shard's root table, through the caller's flatc-generated accessor, e.g. {@code
   * Organizations::getRootAsOrganizations}; each root reads its own view of the shard.
   */
  public <R> List<R> roots(Function<ByteBuffer, R> getRootAs) {
    List<R> roots = new ArrayList<>(shardCount());
    for (int i = 0; i < shardCount(); i++) {
      roots.add(getRootAs.apply(shard(i)));
    }
    return roots;
  }

  /**
   * Visits every record, shard by shard, in order: {@code action} gets each shard's root and each
   * record's index in its vector, e.g. {@code forEachRecord(Organizations::getRootAsOrganizations,
   * Organizations::organizationsLength, (root, i) -> root.organizations(o, i))}. Nothing is
   * allocated per record.
   *
   * @param getRootAs the root accessor of the generated classes
   * @param length the root's records vector's length
   * @throws ReaderException when a shard holds another number of records than the manifest says
   */
  public <R> void forEachRecord(
      Function<ByteBuffer, R> getRootAs, ToIntFunction<R> length, ObjIntConsumer<R> action) {
    for (int s = 0; s < shardCount(); s++) {
      R root = getRootAs.apply(shard(s));
      int n = length.applyAsInt(root);
      if (n != records(s)) {
        throw new ReaderException(
            directory().resolve(manifest().shards().get(s).name())
                + " holds "
                + n
                + " records, the manifest says "
                + records(s));
      }
      for (int i = 0; i < n; i++) {
        action.accept(root, i);
      }
    }
  }

  /**
   * Another handle on the same export, for another holder, to be closed on its own.
   *
   * @throws IllegalStateException when this handle is closed
   */
  public Snapshot acquire() {
    requireOpen();
    if (!export.tryAcquire()) {
      throw new IllegalStateException("snapshot " + id() + " is released");
    }
    return new Snapshot(export);
  }

  /** Whether this handle is closed. */
  public boolean isClosed() {
    return closed.get();
  }

  /** Gives up this handle's hold; the export's last hold unmaps its shards. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      export.release();
    }
  }

  MappedExport export() {
    return export;
  }

  private void requireOpen() {
    if (closed.get()) {
      throw new IllegalStateException("snapshot " + id() + " is closed");
    }
  }

  @Override
  public String toString() {
    return "Snapshot[" + id() + ", " + shardCount() + " shards, " + records() + " records]";
  }
}
