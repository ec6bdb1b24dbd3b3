package dev.flatdump.encode.engine;

import static dev.flatdump.testing.SchemaFixtures.bson;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables written with puts and remembered vtables are byte for byte what {@code startTable}, the
 * {@code addX} calls and {@code endTable} write: over random documents whose fields come and go, so
 * that every layout starts at every position modulo 8, with and without sharing.
 */
class TablePutsTest {

  private static final String SCHEMA =
      """
      struct P { a: byte; b: double; }
      table Sub { s: string; n: short; }
      table R {
        b: bool; i8: byte; i16: short = 3; i32: int; i64: long; f: float; d: double;
        s: string; p: P; t: Sub; v: [int]; o: int = null;
      }
      table Root { pad: int; rs: [R]; }
      root_type Root;
      """;

  @TempDir Path dir;

  private static List<byte[]> documents(long seed, int n) {
    Random random = new Random(seed);
    List<byte[]> docs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      StringBuilder json = new StringBuilder("{");
      String[] fields = {
        "\"b\": " + random.nextBoolean(),
        "\"i8\": " + (random.nextInt(256) - 128),
        "\"i16\": " + random.nextInt(5),
        "\"i32\": " + random.nextInt(),
        "\"i64\": {\"$numberLong\": \"" + random.nextLong() + "\"}",
        "\"f\": " + random.nextInt(8) / 2.0,
        "\"d\": " + (random.nextBoolean() ? 0.0 : random.nextDouble()),
        "\"s\": \"s" + random.nextInt(20) + "\"",
        "\"p\": {\"a\": " + random.nextInt(100) + ", \"b\": " + random.nextDouble() + "}",
        "\"t\": {\"s\": \"t" + random.nextInt(5) + "\", \"n\": " + random.nextInt(3) + "}",
        "\"v\": [" + random.nextInt(3) + ", 7]",
        "\"o\": " + random.nextInt(2)
      };
      String sep = "";
      for (String f : fields) {
        if (random.nextInt(3) > 0) {
          json.append(sep).append(f);
          sep = ", ";
        }
      }
      docs.add(bson(json.append('}').toString()));
    }
    return docs;
  }

  @Test
  void writeWhatEndTableWrites() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    for (Sharing.Kinds kinds : List.of(Sharing.Kinds.NONE, Sharing.Kinds.ALL)) {
      for (long seed = 1; seed <= 5; seed++) {
        List<byte[]> docs = documents(seed, 400);
        ByteBuffer puts =
            fx.encode(new RecordEncoder(fx.plan, new Sharing(fx.plan, kinds), false, true), docs);
        ByteBuffer endTable =
            fx.encode(new RecordEncoder(fx.plan, new Sharing(fx.plan, kinds), false, false), docs);

        assertThat(puts).as("seed %d, %s", seed, kinds).isEqualTo(endTable);
      }
    }
  }

  /** A buffer without an array (direct memory) takes the puts instead of array writes. */
  @Test
  void writeWhatEndTableWritesIntoADirectBuffer() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    FlatBufferBuilder.ByteBufferFactory direct =
        new FlatBufferBuilder.ByteBufferFactory() {
          @Override
          public ByteBuffer newByteBuffer(int capacity) {
            return ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
          }
        };
    for (long seed = 1; seed <= 3; seed++) {
      List<byte[]> docs = documents(seed, 400);
      FlatBufferBuilder builder = new FlatBufferBuilder(1024, direct);
      ByteBuffer puts =
          fx.encode(
              new RecordEncoder(fx.plan, new Sharing(fx.plan, Sharing.Kinds.ALL), false, true),
              docs,
              builder);
      ByteBuffer endTable =
          fx.encode(
              new RecordEncoder(fx.plan, new Sharing(fx.plan, Sharing.Kinds.ALL), false, false),
              docs);

      assertThat(builder.dataBuffer().isDirect()).isTrue();
      assertThat(puts).as("seed %d", seed).isEqualTo(endTable);
    }
  }
}
