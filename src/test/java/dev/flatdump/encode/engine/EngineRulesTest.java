package dev.flatdump.encode.engine;

import static dev.flatdump.testing.BsonBytes.doc;
import static dev.flatdump.testing.BsonBytes.int32;
import static dev.flatdump.testing.BsonBytes.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Rules the engine keeps the same on its fast paths and on the field-by-field walk. */
class EngineRulesTest {

  @TempDir Path dir;

  private static RecordEncoder encoder(SchemaFixtures fx, boolean fast) {
    return new RecordEncoder(
        fx.plan, new Sharing(fx.plan, Sharing.Kinds.ALL), false, fast, fast, fast);
  }

  private static int encode(RecordEncoder e, FlatBufferBuilder b, byte[] d) {
    return e.encode(b, d, 0, d.length);
  }

  /**
   * A vector of structs is shared only with one of structs as aligned: equal bytes of a 4-aligned
   * struct and an 8-aligned one (empty vectors, or zeros) once shared the 4-aligned vector, which
   * {@code check} then found misaligned (the generative soak's find).
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void sharesAVectorOfStructsOnlyWithOneAsAligned(boolean emptyFirst) throws Exception {
    SchemaFixtures fx =
        new SchemaFixtures(
            dir,
            """
            struct A { x: int; y: int; }
            struct B { d: double; }
            table R { pad: string; a: [A]; b: [B]; }
            table Root { rs: [R]; } root_type Root;
            """);
    java.util.List<byte[]> docs = new java.util.ArrayList<>();
    for (int i = 0; i < 16; i++) {
      String vectors =
          emptyFirst == (i % 2 == 0)
              ? "\"a\": [], \"b\": []"
              : "\"a\": [{\"x\": 0, \"y\": 0}], \"b\": [{\"d\": 0.0}]";
      docs.add(SchemaFixtures.bson("{\"pad\": \"" + "p".repeat(i) + "\", " + vectors + "}"));
    }

    java.nio.ByteBuffer shard = fx.encode(encoder(fx, true), docs);

    assertThat(dev.flatdump.artifact.check.SchemaVerifier.verify(fx.plan, shard).error()).isNull();
  }

  /** A deprecated field reads nothing, so it is never required, even declared so or a key. */
  @ParameterizedTest
  @ValueSource(strings = {"(key, deprecated)", "(required, deprecated)"})
  void aDeprecatedFieldIsNeverRequired(String attributes) throws Exception {
    SchemaFixtures fx =
        new SchemaFixtures(
            dir,
            "table T { k: string "
                + attributes
                + "; v: int; } table R { ts: [T]; } table Root { rs: [R]; } root_type Root;");

    for (boolean fast : new boolean[] {true, false}) {
      RecordEncoder e = encoder(fx, fast);
      FlatBufferBuilder b = new FlatBufferBuilder();
      byte[] d = SchemaFixtures.bson("{\"ts\": [{\"v\": 1}, {\"v\": 2}]}");
      assertThat(encode(e, b, d)).as("fast paths %s", fast).isPositive();
    }
  }

  /** Every {@code _id} a layout skips is checked, the first of two too. */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void everyIdALayoutSkipsIsChecked(boolean readers) throws Exception {
    SchemaFixtures fx =
        new SchemaFixtures(dir, "table T { x: int; } table Root { rs: [T]; } root_type Root;");
    RecordEncoder e =
        new RecordEncoder(
            fx.plan, new Sharing(fx.plan, Sharing.Kinds.ALL), false, true, true, readers);
    FlatBufferBuilder b = new FlatBufferBuilder();
    for (int i = 0; i < 200; i++) {
      encode(e, b, doc(string("_id", "a"), string("_id", "b"), int32("x", 1)));
    }
    assertThat(e.shapeReads()).isPositive();

    byte[] bad = doc(string("_id", new byte[] {(byte) 0xff}), string("_id", "b"), int32("x", 1));
    assertThatThrownBy(() -> encode(e, b, bad))
        .isInstanceOf(RejectedRecord.class)
        .hasMessage("_id: not valid UTF-8: byte 0xFF at offset 0");
  }
}
