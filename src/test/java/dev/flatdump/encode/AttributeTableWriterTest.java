package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.schema.fb.Attribute;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AttributeTableWriterTest {

  /** One attribute and the string written before it (its length moves the alignment around). */
  record Step(String id, byte quantity, byte amount, short size, double percent, boolean active) {}

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42})
  void writesTheBytesTheGeneratedCodeWrites(long seed) {
    List<Step> steps = randomSteps(new SplittableRandom(seed), 5_000);

    assertThat(viaWriter(steps, 16)).isEqualTo(viaGeneratedCode(steps, 16));
  }

  @Test
  void writesTheBytesTheGeneratedCodeWritesWithoutAnyDouble() {
    // No percent anywhere: the buffer is aligned to 4, not 8, at finish, as the generated code
    // does.
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      steps.add(new Step("x".repeat(i % 7), (byte) i, (byte) 0, (short) (i % 3), 0.0, i % 2 == 0));
    }

    assertThat(viaWriter(steps, 8)).isEqualTo(viaGeneratedCode(steps, 8));
  }

  @Test
  void readsBackEveryFieldIncludingZeroSignsAndNanPayloads() {
    double nan = Double.longBitsToDouble(0x7ff8_0000_0000_0123L);
    List<Step> steps =
        List.of(
            new Step("a", (byte) 0, (byte) 0, (short) 0, 0.0, false),
            new Step("bb", (byte) -128, (byte) 127, Short.MIN_VALUE, -0.0, true),
            new Step("ccc", (byte) 1, (byte) 0, Short.MAX_VALUE, nan, false),
            new Step("", (byte) 0, (byte) -1, (short) 0, 99.5, true));
    var builder = new FlatBufferBuilder(8);
    var writer = new AttributeTableWriter(builder);
    int[] tables = new int[steps.size()];
    for (int i = 0; i < steps.size(); i++) {
      Step s = steps.get(i);
      int id = builder.createString(s.id());
      tables[i] = writer.write(id, s.quantity(), s.amount(), s.size(), s.percent(), s.active());
    }
    builder.finish(tables[tables.length - 1]);
    ByteBuffer bb = builder.dataBuffer();

    for (int i = 0; i < steps.size(); i++) {
      Step s = steps.get(i);
      Attribute a = new Attribute().__assign(bb.capacity() - tables[i], bb);
      assertThat(a.id()).isEqualTo(s.id());
      assertThat(a.quantity()).isEqualTo(s.quantity());
      assertThat(a.amount()).isEqualTo(s.amount());
      assertThat(a.size()).isEqualTo(s.size());
      assertThat(Double.doubleToRawLongBits(a.percent()))
          .isEqualTo(Double.doubleToRawLongBits(s.percent()));
      assertThat(a.active()).isEqualTo(s.active());
    }
  }

  @Test
  void sharesOneVtableBetweenTablesOfTheSameLayout() {
    var builder = new FlatBufferBuilder(1024);
    var writer = new AttributeTableWriter(builder);
    int id = builder.createString("id");
    writer.write(id, (byte) 1, (byte) 2, (short) 3, 4.0, true);
    int first = builder.offset();
    writer.write(id, (byte) 5, (byte) 6, (short) 7, 8.0, true);
    int second = builder.offset() - first;
    writer.write(id, (byte) 5, (byte) 6, (short) 7, 8.0, true);
    int third = builder.offset() - first - second;

    // The first table brought its 16-byte vtable; the next two point at it and take 24 bytes each:
    // vtable offset 4, double 8, id 4, short 2, three bytes and 3 bytes of padding.
    assertThat(second).isEqualTo(24);
    assertThat(third).isEqualTo(24);
  }

  private static List<Step> randomSteps(SplittableRandom random, int count) {
    List<Step> steps = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      // Each field is its default a fifth of the time, so every layout turns up.
      double percent =
          switch (random.nextInt(8)) {
            case 0 -> 0.0;
            case 1 -> -0.0;
            case 2 -> Double.NaN;
            default -> random.nextDouble() * 100;
          };
      steps.add(
          new Step(
              "id" + "x".repeat(random.nextInt(12)),
              random.nextInt(5) == 0 ? 0 : (byte) random.nextInt(256),
              random.nextInt(5) == 0 ? 0 : (byte) random.nextInt(256),
              random.nextInt(5) == 0 ? 0 : (short) random.nextInt(65_536),
              percent,
              random.nextBoolean()));
    }
    return steps;
  }

  private static byte[] viaWriter(List<Step> steps, int initialCapacity) {
    var builder = new FlatBufferBuilder(initialCapacity);
    var writer = new AttributeTableWriter(builder);
    int last = 0;
    for (Step s : steps) {
      int id = builder.createString(s.id());
      last = writer.write(id, s.quantity(), s.amount(), s.size(), s.percent(), s.active());
    }
    builder.finish(last);
    return builder.sizedByteArray();
  }

  /** The generated code, forcing -0.0 as flatdump's builder did before this writer existed. */
  private static byte[] viaGeneratedCode(List<Step> steps, int initialCapacity) {
    var builder = new FlatBufferBuilder(initialCapacity);
    int last = 0;
    for (Step s : steps) {
      int id = builder.createString(s.id());
      Attribute.startAttribute(builder);
      builder.forceDefaults(Double.doubleToRawLongBits(s.percent()) != 0);
      Attribute.addPercent(builder, s.percent());
      builder.forceDefaults(false);
      Attribute.addId(builder, id);
      Attribute.addSize(builder, s.size());
      Attribute.addActive(builder, s.active());
      Attribute.addAmount(builder, s.amount());
      Attribute.addQuantity(builder, s.quantity());
      last = Attribute.endAttribute(builder);
    }
    builder.finish(last);
    return builder.sizedByteArray();
  }
}
