package dev.flatdump.artifact.read;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.encode.engine.RecordsBuffer;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.reader.Unmapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A keyed shard's first and last key, read from the finished file, for the manifest ({@link
 * ArtifactFile#firstKey}): the records are in key order within a shard, so these bound every key it
 * holds.
 */
public final class ShardKeys {

  private ShardKeys() {}

  /**
   * {@code entry} with the key range of the shard {@code file}; {@code entry} itself when the
   * records have no key or the shard none.
   */
  public static ArtifactFile describe(ArtifactFile entry, Path file, SchemaPlan plan) {
    FieldPlan key = plan.record().key();
    if (key == null) {
      return entry;
    }
    MappedByteBuffer map;
    try (FileChannel ch = FileChannel.open(file)) {
      map = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
    } catch (IOException e) {
      throw new ArtifactException("cannot read " + file + ": " + e.getMessage(), e);
    }
    try {
      return describe(entry, map.duplicate().order(ByteOrder.LITTLE_ENDIAN), plan, key);
    } finally {
      Unmapper.unmap(map); // at once: a job writes many shards, and the GC is slow to unmap
    }
  }

  private static ArtifactFile describe(
      ArtifactFile entry, ByteBuffer bb, SchemaPlan plan, FieldPlan key) {
    int vector = RecordsBuffer.recordsVector(bb, plan);
    int n = vector == 0 ? 0 : bb.getInt(vector);
    if (n == 0) {
      return entry;
    }
    return entry.withKeys(
        key(bb, record(bb, vector, 0), key), key(bb, record(bb, vector, n - 1), key));
  }

  private static int record(ByteBuffer bb, int vector, int i) {
    int at = vector + 4 + 4 * i;
    return at + bb.getInt(at);
  }

  /**
   * The key of the record at {@code table}: its string, or its integer (the default if absent), a
   * {@code ulong} of 2^63 or more as a {@link java.math.BigInteger}.
   */
  private static Object key(ByteBuffer bb, int table, FieldPlan key) {
    int p = RecordsBuffer.fieldPosition(bb, table, key.slot());
    if (key.kind() == FieldKind.STRING) {
      if (p == 0) {
        throw new ArtifactException("a record without its key " + key.name());
      }
      return RecordsBuffer.string(bb, p);
    }
    long value = p == 0 ? key.defaultInteger() : RecordsBuffer.integer(bb, key.kind(), p);
    if (key.kind() == FieldKind.ULONG && value < 0) {
      // 2^63 or more: the manifest's JSON integer is the value, not its signed 64 bits
      return new java.math.BigInteger(Long.toUnsignedString(value));
    }
    return value;
  }
}
