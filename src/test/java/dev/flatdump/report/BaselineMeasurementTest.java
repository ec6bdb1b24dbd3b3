package dev.flatdump.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.compress.Compression;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.testing.OrganizationsEngine;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class BaselineMeasurementTest {

  private static final SchemaPlan PLAN = SchemaFiles.bundled().plan();
  private static final List<Org> ORGS =
      new OrgGenerator(Profile.REALISTIC, 11).stream().limit(50).toList();

  private static SchemaBaselines baselines(Set<Baseline> which) {
    return new SchemaBaselines(
        PLAN, which, Compression.create("gzip", 6), Compression.create("zstd", 3), 1L << 30);
  }

  /** Counts how often it is opened and closed. */
  private static final class Input implements Supplier<Stream<ByteBuffer>> {
    final List<ByteBuffer> buffers;
    final AtomicInteger opened = new AtomicInteger();
    final AtomicInteger closed = new AtomicInteger();

    Input(List<ByteBuffer> buffers) {
      this.buffers = buffers;
    }

    @Override
    public Stream<ByteBuffer> get() {
      opened.incrementAndGet();
      return buffers.stream().map(ByteBuffer::duplicate).onClose(closed::incrementAndGet);
    }
  }

  /** Each organization's BSON inside a larger array, after other bytes: as a driver's reply. */
  private static List<ByteBuffer> documents() {
    return ORGS.stream()
        .map(
            org -> {
              byte[] bson = OrganizationsEngine.bson(org);
              byte[] reply = new byte[bson.length + 13];
              System.arraycopy(bson, 0, reply, 7, bson.length);
              return ByteBuffer.wrap(reply, 2, bson.length + 8)
                  .slice()
                  .position(5)
                  .limit(5 + bson.length);
            })
        .toList();
  }

  @Test
  void encodesTheDocumentsAgainWithoutOpeningTheShardsForTheFlatBuffersBaselines() {
    Input documents = new Input(documents());
    Input shards = new Input(List.of());
    List<BaselineSize> expected;
    try (SchemaBaselines direct = baselines(EnumSet.of(Baseline.PLAIN, Baseline.STRINGS))) {
      for (Org org : ORGS) {
        byte[] bson = OrganizationsEngine.bson(org);
        direct.addDocument(bson, 0, bson.length);
      }
      expected = direct.finish();
    }

    List<BaselineSize> measured;
    try (SchemaBaselines b = baselines(EnumSet.of(Baseline.PLAIN, Baseline.STRINGS))) {
      measured = BaselineMeasurement.measure(b, documents, shards);
    }

    assertThat(measured).isEqualTo(expected);
    assertThat(documents.opened).hasValue(1);
    assertThat(documents.closed).hasValue(1);
    assertThat(shards.opened).hasValue(0);
  }

  @Test
  void writesTheShardsRecordsWithoutReadingTheDocumentsForJsonAndProtobuf() {
    ByteBuffer shard = OrganizationsEngine.encode(Sharing.Kinds.ALL, ORGS);
    Input documents = new Input(List.of());
    Input shards = new Input(List.of(shard));
    List<BaselineSize> expected;
    try (SchemaBaselines direct = baselines(EnumSet.of(Baseline.PROTOBUF, Baseline.JSON))) {
      direct.addShard(shard.duplicate());
      expected = direct.finish();
    }

    List<BaselineSize> measured;
    try (SchemaBaselines b = baselines(EnumSet.of(Baseline.PROTOBUF, Baseline.JSON))) {
      measured = BaselineMeasurement.measure(b, documents, shards);
    }

    assertThat(measured).isEqualTo(expected);
    assertThat(shards.opened).hasValue(1);
    assertThat(shards.closed).hasValue(1);
    assertThat(documents.opened).hasValue(0);
  }
}
