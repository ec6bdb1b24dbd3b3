package com.google.flatbuffers;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * {@link BuilderSpace} reads package-private fields of {@link FlatBufferBuilder}: this pins the
 * runtime it was written against, so that an upgrade of flatbuffers-java fails here first.
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
}
