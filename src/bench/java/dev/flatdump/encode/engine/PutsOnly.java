package dev.flatdump.encode.engine;

import dev.flatdump.encode.plan.SchemaPlan;

/**
 * For {@code flatdump-bench cpu}: a {@link ShardBuilder} whose tables go through the builder's puts
 * ({@link TablePuts#putsOnly}), to measure what writing them straight into the builder's array
 * ({@code com.google.flatbuffers.BuilderSpace}) buys. In the engine's package to reach that
 * package-private switch; part of the benchmarks' jar, not the product's.
 */
public final class PutsOnly {

  private PutsOnly() {}

  public static ShardBuilder shardBuilder(
      SchemaPlan plan, Sharing.Kinds kinds, boolean strict, int initialCapacity) {
    ShardBuilder builder = new ShardBuilder(plan, kinds, strict, initialCapacity);
    builder.putsOnly();
    return builder;
  }
}
