package dev.flatdump.encode.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.testing.OrganizationsEngine;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ShardBuilderTest {

  private static final SchemaPlan PLAN = SchemaFiles.bundled().plan();

  private static List<byte[]> documents(Profile profile, long seed, int n) {
    return new OrgGenerator(profile, seed)
        .stream().limit(n).map(OrganizationsEngine::bson).toList();
  }

  private static byte[] bytes(ByteBuffer finished) {
    byte[] b = new byte[finished.remaining()];
    finished.duplicate().get(b);
    return b;
  }

  /** Each group of documents as a shard of a fresh builder of its own, with no cap. */
  private static List<byte[]> fresh(List<List<byte[]>> shards, Sharing.Kinds kinds) {
    List<byte[]> out = new ArrayList<>();
    for (List<byte[]> docs : shards) {
      var builder = new ShardBuilder(PLAN, kinds, false, 1024);
      docs.forEach(d -> builder.add(d, 0, d.length));
      out.add(bytes(builder.finish()));
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(Profile.class)
  void writesTheSameBytesWhenTablesGoThroughTheBuildersPutsOnly(Profile profile) {
    List<byte[]> docs = documents(profile, 5, 300);
    for (Sharing.Kinds kinds : List.of(Sharing.Kinds.ALL, Sharing.Kinds.NONE)) {
      var arrays = new ShardBuilder(PLAN, kinds, false, 1024);
      var puts = new ShardBuilder(PLAN, kinds, false, 1024);
      puts.putsOnly();
      docs.forEach(d -> arrays.add(d, 0, d.length));
      docs.forEach(d -> puts.add(d, 0, d.length));
      assertThat(bytes(puts.finish())).isEqualTo(bytes(arrays.finish()));
    }
  }

  @ParameterizedTest
  @EnumSource(Profile.class)
  void buildsTheSameBytesInTheBufferOfTheShardBefore(Profile profile) {
    List<byte[]> docs = documents(profile, 3, 120);
    // a large shard first, so that the smaller ones after it lie in bytes it wrote
    List<List<byte[]>> shards =
        List.of(docs.subList(0, 80), docs.subList(80, 90), docs.subList(90, 120));
    for (Sharing.Kinds kinds : List.of(Sharing.Kinds.ALL, Sharing.Kinds.NONE)) {
      var reusing = new ShardBuilder(PLAN, kinds, false, 1024, 1 << 20);
      List<byte[]> built = new ArrayList<>();
      byte[] firstArray = null;
      for (List<byte[]> shard : shards) {
        shard.forEach(d -> reusing.add(d, 0, d.length));
        ByteBuffer finished = reusing.finish();
        if (firstArray == null) {
          firstArray = finished.array();
        } else {
          assertThat(finished.array()).as("built in the buffer before").isSameAs(firstArray);
        }
        built.add(bytes(finished));
      }

      List<byte[]> expected = fresh(shards, kinds);
      for (int i = 0; i < shards.size(); i++) {
        assertThat(built.get(i)).as("%s shard %d", kinds, i).isEqualTo(expected.get(i));
      }
    }
  }

  @Test
  void stopsDoublingAtTheCap() {
    List<byte[]> docs = documents(Profile.ARTICLE, 5, 400);
    int cap = 300_000;
    var capped = new ShardBuilder(PLAN, Sharing.Kinds.ALL, false, 1024, cap);
    var uncapped = new ShardBuilder(PLAN, Sharing.Kinds.ALL, false, 1024);
    int i = 0;
    // past 262,144 bytes, the last power of two below the cap, and well below the cap
    while (capped.bytes() < 270_000) {
      byte[] d = docs.get(i++);
      capped.add(d, 0, d.length);
      uncapped.add(d, 0, d.length);
    }

    ByteBuffer c = capped.finish();
    ByteBuffer u = uncapped.finish();
    assertThat(c.capacity()).isEqualTo(cap);
    assertThat(u.capacity()).isEqualTo(1 << 19); // 1,024 doubled past 300,000
    assertThat(bytes(c)).isEqualTo(bytes(u));
  }

  @Test
  void refusesACapBelowTheFirstBuffer() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new ShardBuilder(PLAN, Sharing.Kinds.ALL, false, 4096, 1024))
        .withMessageContaining("capBytes must be 0 or >= initialCapacity (4096), got 1024");
  }
}
