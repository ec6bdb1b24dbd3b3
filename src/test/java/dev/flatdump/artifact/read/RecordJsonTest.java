package dev.flatdump.artifact.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.encode.engine.RecordEncoder;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class RecordJsonTest {

  private static final String SCHEMA =
      """
      enum Color : byte { Red, Green, Blue }
      struct P { x: int; y: float; }
      table R {
        name: string;
        b: bool;
        i: int;
        u: ulong;
        f: float;
        d: double = 1.5;
        c: Color;
        c2: Color = Blue;
        o: int = null;
        old: int (deprecated);
        p: P;
        v: [int];
      }
      table Rs { rs: [R]; }
      root_type Rs;
      file_identifier "RRRR";
      """;

  @TempDir Path dir;

  private SchemaFixtures fx;
  private ByteBuffer buffer;

  private void encode(String... docs) throws Exception {
    fx = new SchemaFixtures(dir, SCHEMA);
    RecordEncoder encoder = new RecordEncoder(fx.plan, false);
    buffer = fx.encode(encoder, java.util.Arrays.stream(docs).map(SchemaFixtures::bson).toList());
  }

  private JsonNode flatcDefaults() throws Exception {
    Path bin = dir.resolve("data.bin");
    ByteBuffer b = buffer.duplicate();
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    Files.write(bin, bytes);
    return SchemaFixtures.flatcJson(fx.fbs, bin, "--defaults-json").get("rs");
  }

  @Test
  void withDefaultsWritesEveryScalarAsFlatcDefaultsJsonDoes() throws Exception {
    encode(
        "{\"name\": \"a\", \"b\": false, \"i\": 0, \"p\": {\"x\": 0, \"y\": 0.0}}",
        "{\"b\": true, \"i\": 3, \"o\": 0, \"c\": \"Green\", \"f\": 2.5, \"v\": [0, 1]}");
    RecordJson json = RecordJson.withDefaults(fx.plan);
    JsonNode flatc = flatcDefaults();

    assertThat(json.count(buffer)).isEqualTo(flatc.size()).isEqualTo(2);
    for (int i = 0; i < 2; i++) {
      assertThat(SchemaFixtures.json(json.record(buffer, i))).isEqualTo(flatc.get(i));
    }
    assertThat(json.record(buffer, 0))
        .isEqualTo(
            "{\"name\":\"a\",\"b\":false,\"i\":0,\"u\":0,\"f\":0.0,\"d\":1.5,\"c\":\"Red\","
                + "\"c2\":\"Blue\",\"o\":null,\"p\":{\"x\":0,\"y\":0.0}}");
  }

  @Test
  void byDefaultWritesOnlyTheFieldsTheBufferHolds() throws Exception {
    encode("{\"name\": \"a\", \"b\": false, \"i\": 0, \"o\": 0}");

    assertThat(new RecordJson(fx.plan).record(buffer, 0)).isEqualTo("{\"name\":\"a\",\"o\":0}");
    assertThat(SchemaFixtures.json(new RecordJson(fx.plan).record(buffer, 0)))
        .isEqualTo(fx.flatcRecords(buffer).get(0));
  }

  /** The shapes of {@code ShapesRulesTest}: maps, unions, wrappers and arrays of arrays. */
  private static final String SHAPES = dev.flatdump.testing.ShapesSchema.TEXT;

  @Test
  void writesUnionsMapsAndWrappersAsFlatcDoes() throws Exception {
    fx = new SchemaFixtures(dir, SHAPES);
    buffer =
        fx.encode(
            new RecordEncoder(fx.plan, false),
            java.util.stream.Stream.of(
                    """
                    {"_id": 1, "created_at": "2020-01-01T00:00:00Z",
                     "names": {"fra": "France", "eng": "England"},
                     "currencies": {"EUR": {"name": "Euro", "symbol": "€"}, "CHF": {}},
                     "rings": [[1.5, 2.5], [], [3.0]],
                     "polygons": [[[0.0, 0.0], [1.0, 1.0]], [[2.0]]],
                     "items": ["a", 7, 1.25, null, {"x": 1, "y": 2}],
                     "maybe": [[1.0], null]}
                    """,
                    "{\"_id\": 2, \"created_at\": {\"$numberLong\": \"5\"}, \"names\": {}}",
                    "{\"_id\": 3, \"created_at\": {\"x\": 5}}",
                    "{\"_id\": 4}")
                .map(SchemaFixtures::bson)
                .toList());
    Path bin = dir.resolve("shapes.bin");
    ByteBuffer b = buffer.duplicate();
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    Files.write(bin, bytes);
    JsonNode flatc = SchemaFixtures.flatcJson(fx.fbs, bin, "--raw-binary", "--defaults-json");
    JsonNode flatcRecords = flatc.get("records");
    RecordJson json = RecordJson.withDefaults(fx.plan);

    assertThat(json.count(buffer)).isEqualTo(flatcRecords.size()).isEqualTo(4);
    for (int i = 0; i < 4; i++) {
      assertThat(SchemaFixtures.json(json.record(buffer, i))).isEqualTo(flatcRecords.get(i));
    }
    assertThat(json.record(buffer, 1))
        .startsWith("{\"id\":2,\"created_at_type\":\"CreatedAtLong\",\"created_at\":{\"value\":5}");
    assertThat(SchemaFixtures.json(new RecordJson(fx.plan).record(buffer, 0)))
        .isEqualTo(fx.flatcRecords(buffer).get(0));
  }
}
