package dev.flatdump.example.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class FieldTest {

  /** A table of 5 slots: a string, a long, an int, a double, a bool, each written or omitted. */
  private static ByteBuffer table(boolean omitted) {
    FlatBufferBuilder b = new FlatBufferBuilder();
    int s = b.createString("tag é日😀");
    b.startTable(5);
    if (!omitted) {
      b.addOffset(0, s, 0);
      b.addLong(1, -7L, 0);
      b.addInt(2, 123456, 0);
      b.addDouble(3, 2.5, 0);
      b.addBoolean(4, true, false);
    }
    b.finish(b.endTable());
    return b.dataBuffer();
  }

  private static Object read(ByteBuffer bb, String name, int voffset, Field.Type type) {
    return new Field(name, voffset, type).read(bb, bb.position() + bb.getInt(bb.position()));
  }

  @Test
  void readsEachTypeAtItsVtableOffset() {
    ByteBuffer bb = table(false);
    assertThat(read(bb, "s", 4, Field.Type.STRING)).isEqualTo("tag é日😀");
    assertThat(read(bb, "l", 6, Field.Type.LONG)).isEqualTo(-7L);
    assertThat(read(bb, "i", 8, Field.Type.INT)).isEqualTo(123456);
    assertThat(read(bb, "d", 10, Field.Type.DOUBLE)).isEqualTo(2.5);
    assertThat(read(bb, "b", 12, Field.Type.BOOL)).isEqualTo(true);
  }

  @Test
  void anOmittedFieldReadsAsNullOrZeroAsDoesOnePastTheVtable() {
    ByteBuffer bb = table(true);
    assertThat(read(bb, "s", 4, Field.Type.STRING)).isNull();
    assertThat(read(bb, "l", 6, Field.Type.LONG)).isEqualTo(0L);
    assertThat(read(bb, "b", 12, Field.Type.BOOL)).isEqualTo(false);
    assertThat(read(table(false), "x", 40, Field.Type.INT)).isEqualTo(0);
  }

  @Test
  void aLongReadAsAStringIsRefusedByName() {
    ByteBuffer bb = table(false);
    assertThatThrownBy(() -> read(bb, "l", 6, Field.Type.STRING))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("field l (voffset 6) does not read as a STRING");
  }
}
