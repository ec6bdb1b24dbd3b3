package com.google.flatbuffers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * {@link BuilderSpace} reads package-private fields of {@link FlatBufferBuilder}: this pins the
 * runtime it was written against, so that an upgrade of flatbuffers-java fails here first. A
 * rollback leaves the builder as if nothing had been written since its mark: its bytes, its
 * alignment and the vtables {@code endTable} shares.
 */
class BuilderSpaceTest {

  @Test
  void theRuntimeIsFlatbuffersJava208() throws Exception {
    // generated code calls Constants.FLATBUFFERS_2_0_8() to check its runtime: only 2.0.8 has it
    assertThat(Constants.class.getMethod("FLATBUFFERS_2_0_8")).isNotNull();
    var bb = FlatBufferBuilder.class.getDeclaredField("bb");
    var space = FlatBufferBuilder.class.getDeclaredField("space");
    assertThat(bb.getType()).isEqualTo(ByteBuffer.class);
    assertThat(space.getType()).isEqualTo(int.class);
    assertThat(Modifier.isPrivate(bb.getModifiers())).isFalse();
    assertThat(Modifier.isPrivate(space.getModifiers())).isFalse();
    for (String name : new String[] {"minalign", "num_vtables", "nested", "vtable_in_use"}) {
      var f = FlatBufferBuilder.class.getDeclaredField(name); // what a rollback restores
      assertThat(Modifier.isPrivate(f.getModifiers())).as(name).isFalse();
    }
  }

  @Test
  void seesTheUnfinishedBufferAndMovesTheWritePosition() {
    var b = new FlatBufferBuilder(64);
    b.addInt(7);
    ByteBuffer buffer = BuilderSpace.buffer(b);
    assertThat(buffer.capacity() - BuilderSpace.space(b)).isEqualTo(b.offset());
    assertThat(buffer.getInt(BuilderSpace.space(b))).isEqualTo(7);

    // four bytes written below the position straight into the array, as TablePuts does
    b.prep(4, 4);
    int low = BuilderSpace.space(b) - 4;
    buffer = BuilderSpace.buffer(b);
    buffer.putInt(low, 42);
    BuilderSpace.space(b, low);
    assertThat(b.offset()).isEqualTo(8);
    b.addInt(9);
    assertThat(buffer.getInt(BuilderSpace.space(b))).isEqualTo(9);
    assertThat(buffer.getInt(BuilderSpace.space(b) + 4)).isEqualTo(42);
    assertThat(buffer.getInt(BuilderSpace.space(b) + 8)).isEqualTo(7);
  }

  /** A table of one int field, in a layout that a later table of the same shape shares. */
  private static int intTable(FlatBufferBuilder b, int v) {
    b.startTable(1);
    b.addInt(0, v, 0);
    return b.endTable();
  }

  @Test
  void rollsBackToTheMarkAsIfNothingWasWrittenSince() {
    FlatBufferBuilder b = new FlatBufferBuilder(16); // grows while rolled-back bytes are written
    b.createString("kept");
    intTable(b, 1);
    BuilderSpace.Mark m = new BuilderSpace.Mark();
    BuilderSpace.mark(b, m);
    int offset = b.offset();

    b.startTable(2); // a vtable of its own, and an 8-byte field that raises the alignment
    b.addLong(1, 7L, 0);
    b.endTable();
    b.createString("x".repeat(100));
    BuilderSpace.rollback(b, m);

    assertThat(b.offset()).isEqualTo(offset);
    byte[] a = BuilderSpace.buffer(b).array();
    for (int i = 0; i < BuilderSpace.space(b); i++) {
      assertThat(a[i]).as("byte %d below the position", i).isZero();
    }
    b.startTable(2); // must write its vtable again: the one written since the mark is gone
    b.addLong(1, 7L, 0);
    int last = b.endTable();
    b.finish(intTable(b, last));

    FlatBufferBuilder reference = new FlatBufferBuilder(16);
    reference.createString("kept");
    intTable(reference, 1);
    reference.startTable(2);
    reference.addLong(1, 7L, 0);
    int refLast = reference.endTable();
    reference.finish(intTable(reference, refLast));
    assertThat(b.sizedByteArray()).isEqualTo(reference.sizedByteArray());
  }

  @Test
  void aRollbackGivesBackTheAlignmentOfTheMark() {
    FlatBufferBuilder b = new FlatBufferBuilder(64);
    FlatBufferBuilder reference = new FlatBufferBuilder(64);
    int kept = intTable(b, 3);
    intTable(reference, 3);
    BuilderSpace.Mark m = new BuilderSpace.Mark();
    BuilderSpace.mark(b, m);
    b.addLong(42L); // minalign 8
    BuilderSpace.rollback(b, m);
    b.finish(kept);
    reference.finish(kept);
    assertThat(b.sizedByteArray()).isEqualTo(reference.sizedByteArray());
  }

  @Test
  void refusesAMarkAboveTheBuilder() {
    FlatBufferBuilder b = new FlatBufferBuilder(64);
    b.createString("abcdef");
    BuilderSpace.Mark m = new BuilderSpace.Mark();
    BuilderSpace.mark(b, m);
    assertThatIllegalStateException()
        .isThrownBy(() -> BuilderSpace.rollback(new FlatBufferBuilder(64), m));
    assertThatIllegalStateException()
        .isThrownBy(() -> BuilderSpace.rollback(b, new BuilderSpace.Mark()));
  }
}
