package dev.flatdump.infer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.encode.plan.SchemaEvolution;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.infer.SchemaInference.InferredSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code infer --evolve} of a path whose values are all null now: any earlier type holds null. */
class EvolvedNullsTest {

  @TempDir Path dir;

  @Test
  void aFieldThatBecameNullEverywhereKeepsItsTypeAndGetsNoNewField() throws Exception {
    InferredSchema first = SchemaInferenceTest.infer("{_id: 1, maybe: 3}", "{_id: 2, maybe: null}");
    Path old = Files.writeString(dir.resolve("old.fbs"), first.fbs());
    InferredSchema now =
        SchemaInferenceTest.infer("{_id: 1, maybe: null}", "{_id: 2, maybe: null}");

    SchemaEvolution.Result r =
        SchemaEvolution.evolve(SchemaPlan.load(old), now.fbs(), false, now.nullOnly());

    assertThat(r.schema()).contains("  maybe: int = null;\n").doesNotContain("maybe_v2");
    assertThat(r.changes()).isEmpty();
  }

  /** The same below the records: in a sub-document and in the documents of an array. */
  @Test
  void nestedFieldsThatBecameNullEverywhereGetNoNewField() throws Exception {
    InferredSchema first =
        SchemaInferenceTest.infer(
            "{_id: 1, sub: {m: 3}, items: [{n: 1}]}", "{_id: 2, sub: {m: null}, items: []}");
    Path old = Files.writeString(dir.resolve("old2.fbs"), first.fbs());
    InferredSchema now =
        SchemaInferenceTest.infer("{_id: 1, sub: {m: null}, items: [{n: null}, {n: null}]}");

    SchemaEvolution.Result r =
        SchemaEvolution.evolve(SchemaPlan.load(old), now.fbs(), false, now.nullOnly());

    assertThat(now.nullOnly()).contains("sub.m", "items[].n");
    assertThat(r.schema()).doesNotContain("_v2");
    assertThat(r.changes()).isEmpty();
  }
}
