package dev.flatdump.artifact.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.encode.engine.RecordEncoder;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Union members are counted per value the records hold, through unions in fields, in wrappers in
 * vectors and in map entries, shared tables once per reference, whatever de-dup wrote.
 */
class UnionCountsTest {

  private static final String SCHEMA =
      """
      attribute "map";
      attribute "wrapper";
      table S (wrapper) { value: string; }
      table L (wrapper) { value: long; }
      table D (wrapper) { value: double; }
      union U { S, L, D }
      table Item (wrapper) { value: U; }
      table E { key: string (key); value: U; }
      table Sub { u: U; }
      table R { u: U; items: [Item]; m: [E] (map); sub: Sub; plain: int; }
      table Root { rs: [R]; }
      root_type Root;
      """;

  private static final List<String> DOCS =
      List.of(
          "{\"u\": \"a\", \"items\": [1, 2, \"b\", null], \"m\": {\"k\": 1.5, \"j\": \"x\"}}",
          "{\"u\": \"a\", \"sub\": {\"u\": 3}, \"plain\": 4}",
          "{\"u\": \"a\", \"sub\": {\"u\": 3}}",
          "{}");

  @TempDir Path dir;

  @Test
  void countsEveryValueOfEveryUnionByMember() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    for (Sharing.Kinds kinds : List.of(Sharing.Kinds.ALL, Sharing.Kinds.NONE)) {
      ByteBuffer shard =
          fx.encode(
              new RecordEncoder(fx.plan, new Sharing(fx.plan, kinds), false),
              DOCS.stream().map(SchemaFixtures::bson).toList());

      Map<String, Map<String, Long>> counts = UnionCounts.of(fx.plan, shard);

      assertThat(counts).containsOnlyKeys("U");
      assertThat(counts.get("U"))
          .as(kinds.toString())
          .containsExactly(Map.entry("S", 5L), Map.entry("L", 4L), Map.entry("D", 1L));
      assertThat(UnionCounts.plus(counts, counts).get("U")).containsEntry("S", 10L);
    }
  }

  @Test
  void readsNothingWhenTheSchemaHasNoUnion() throws Exception {
    SchemaFixtures fx =
        new SchemaFixtures(dir, "table R { a: int; } table Root { rs: [R]; } root_type Root;");
    ByteBuffer shard =
        fx.encode(new RecordEncoder(fx.plan, false), List.of(SchemaFixtures.bson("{\"a\": 1}")));
    assertThat(UnionCounts.of(fx.plan, shard)).isEmpty();
  }
}
