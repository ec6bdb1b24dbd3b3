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
   * A record's place in a shard, as a flatc-generated table's {@code __assign(int, ByteBuffer)}
   * takes it: {@code Organization o = new Organization(); RecordAt<Organization> at =
   * o::__assign;}. The buffer is the shard's view that lookups share: read it, never move its
   * position or limit.
   */
  @FunctionalInterface
  public interface RecordAt<T> {
    T assign(int table, ByteBuffer shard);
  }

  /** Whether the records have a key ({@code (key)}), so that {@link #lookup} finds them. */
  public boolean keyed() {
    return export.keys() != null;
  }

  /**
   * The record whose key is {@code key}, through {@code at} (e.g. a generated table's {@code
   * __assign}, kept by the calling thread so that nothing is allocated per lookup), or null when no
   * record has it. Finds the shard whose range holds the key, then binary-searches its records.
   *
   * @throws IllegalStateException when this handle is closed, or the records have no key
   * @throws IllegalArgumentException when the key is an integer
   */
  public <T> T lookup(String key, RecordAt<T> at) {
    return at(keys().find(key), at);
  }

  /** The record whose integer key is {@code key}, as {@link #lookup(String, RecordAt)}. */
  public <T> T lookup(long key, RecordAt<T> at) {
    return at(keys().find(key), at);
  }

  /**
   * Where the record with key {@code key} lies, for callers that read it without a generated class:
   * the shard's index in the high 32 bits and the table's position in that shard in the low 32
   * ({@link #shardOf}, {@link #tableOf}), or -1 when no record has it.
   */
  public long locate(String key) {
    return keys().find(key);
  }

  /** Where the record with integer key {@code key} lies, as {@link #locate(String)}. */
  public long locate(long key) {
    return keys().find(key);
  }

  /** The shard of a {@link #locate} result. */
  public static int shardOf(long location) {
    return (int) (location >>> 32);
  }

  /** The table's position of a {@link #locate} result. */
  public static int tableOf(long location) {
    return (int) location;
  }

  private KeyIndex keys() {
    requireOpen();
    KeyIndex keys = export.keys();
    if (keys == null) {
      throw new IllegalStateException(
          "the records of export " + id() + " have no key: its schema marks no field (key)");
    }
    return keys;
  }

  private <T> T at(long location, RecordAt<T> at) {
    return location == KeyIndex.NOT_FOUND
        ? null
        : at.assign(tableOf(location), export.keys().shard(shardOf(location)));
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
