package dev.flatdump.encode.engine;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.encode.plan.SchemaPlan;

/** Finishes a buffer of records: the root table, whose one vector holds them. Stateless. */
public final class RecordsRoot {

  private RecordsRoot() {}

  /**
   * Writes the records vector ({@code records[0, n)}, in that order) and the root table, and
   * finishes the buffer with the schema's file identifier, if it has one.
   */
  public static void finish(FlatBufferBuilder builder, SchemaPlan plan, int[] records, int n) {
    builder.startVector(4, n, 4);
    for (int i = n - 1; i >= 0; i--) {
      builder.addOffset(records[i]);
    }
    int vector = builder.endVector();
    builder.startTable(plan.root().fields().size());
    builder.addOffset(plan.records().id(), vector, 0);
    int root = builder.endTable();
    if (plan.fileIdentifier() == null) {
      builder.finish(root);
    } else {
      builder.finish(root, plan.fileIdentifier());
    }
  }
}
