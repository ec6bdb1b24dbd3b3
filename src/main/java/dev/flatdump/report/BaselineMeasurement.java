package dev.flatdump.report;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Feeds {@link SchemaBaselines} what its baselines need and returns their sizes: the source
 * documents only when a FlatBuffers baseline encodes them again, the export's shards only when
 * protobuf or JSON lines are written from them. Each input is opened at most once, read in order
 * and closed here; the caller closes the baselines.
 */
public final class BaselineMeasurement {

  private BaselineMeasurement() {}

  /**
   * @param documents opens the source documents, one array-backed buffer each (from its position to
   *     its limit), in the export's order: the query's documents in {@code _id} order
   * @param shards opens the export's shards, in order, one FlatBuffer each
   */
  public static List<BaselineSize> measure(
      SchemaBaselines baselines,
      Supplier<Stream<ByteBuffer>> documents,
      Supplier<Stream<ByteBuffer>> shards) {
    Objects.requireNonNull(baselines, "baselines");
    Objects.requireNonNull(documents, "documents");
    Objects.requireNonNull(shards, "shards");
    if (baselines.needsDocuments()) {
      try (Stream<ByteBuffer> each = documents.get()) {
        each.forEach(
            b -> baselines.addDocument(b.array(), b.arrayOffset() + b.position(), b.remaining()));
      }
    }
    if (baselines.needsShards()) {
      try (Stream<ByteBuffer> each = shards.get()) {
        each.forEach(baselines::addShard);
      }
    }
    return baselines.finish();
  }
}
