package dev.flatdump.artifact.check;

import static dev.flatdump.testing.SchemaFixtures.bson;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.encode.engine.RecordEncoder;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The schema-driven verifier on shards the engine wrote, whole and damaged. */
class SchemaVerifierTest {

  private static final String SCHEMA =
      """
      enum Color : ubyte { Red, Green, Blue }
      struct Point { x: float; y: double; on: bool; }
      table Child { label: string; n: int; }
      table R {
        name: string (required); on: bool; color: Color; at: Point; child: Child;
        longs: [long]; names: [string]; children: [Child]; points: [Point]; colors: [Color];
      }
      table Root { rs: [R]; }
      root_type Root;
      file_identifier "TEST";
      """;

  private static final String DOC =
      "{\"name\": \"n\", \"on\": true, \"color\": \"Blue\","
          + " \"at\": {\"x\": 1.5, \"y\": 2.5, \"on\": true}, \"child\": {\"label\": \"c\", \"n\": 1},"
          + " \"longs\": [1, 2], \"names\": [\"a\", \"b\"], \"children\": [{\"n\": 2}, {\"n\": 2}],"
          + " \"points\": [{\"x\": 0.5, \"y\": 1.0, \"on\": false}], \"colors\": [\"Red\", \"Green\"]}";

  @TempDir Path dir;

  private ByteBuffer shard(SchemaFixtures fx, int records) {
    var encoder = new RecordEncoder(fx.plan, new Sharing(fx.plan, Sharing.Kinds.ALL), false);
    return fx.encode(encoder, java.util.Collections.nCopies(records, bson(DOC)));
  }

  private static ByteBuffer copy(ByteBuffer b) {
    ByteBuffer c = ByteBuffer.allocate(b.remaining()).order(ByteOrder.LITTLE_ENDIAN);
    c.put(b.duplicate()).flip();
    return c;
  }

  /**
   * The same shard, checked under a schema that differs only by {@code (key)}: in document order it
   * fails, in the key's order (as the export writes it under that schema) it passes.
   */
  @Test
  void checksThatVectorsOfKeyedTablesAndStructsAreInTheKeysOrder() throws Exception {
    String plain =
        """
        struct P { x: int; y: ulong; }
        table E { v: int; name: string; }
        table R { es: [E]; ps: [P]; }
        table Root { rs: [R]; } root_type Root;
        """;
    SchemaFixtures unkeyed = new SchemaFixtures(dir.resolve("unkeyed"), plain);
    SchemaFixtures keyed =
        new SchemaFixtures(
            dir.resolve("keyed"),
            plain
                .replace("name: string;", "name: string (key);")
                .replace("y: ulong;", "y: ulong (key);"));
    String unsortedTables = "{\"es\": [{\"name\": \"b\"}, {\"name\": \"a\"}], \"ps\": []}";
    String sorted =
        "{\"es\": [{\"name\": \"a\"}, {\"name\": \"b\"}, {\"name\": \"é\"}],"
            + " \"ps\": [{\"x\": 1, \"y\": 2}, {\"x\": 1, \"y\": {\"$numberDouble\": \"1.0E19\"}}]}";

    ByteBuffer tables =
        unkeyed.encode(new RecordEncoder(unkeyed.plan, false), List.of(bson(unsortedTables)));
    assertThat(SchemaVerifier.verify(keyed.plan, tables).error().reason())
        .isEqualTo("not in the order of its key name (after element 0), which lookups by key need");
    ByteBuffer ok = unkeyed.encode(new RecordEncoder(unkeyed.plan, false), List.of(bson(sorted)));
    assertThat(SchemaVerifier.verify(keyed.plan, ok).error()).isNull();
    ByteBuffer resorted =
        keyed.encode(new RecordEncoder(keyed.plan, false), List.of(bson(unsortedTables)));
    assertThat(SchemaVerifier.verify(keyed.plan, resorted).error()).isNull();
    // 1e19 is above 2^63: in a ulong's unsigned order it comes after 2, in a long's before
    String structs =
        "{\"es\": [], \"ps\": [{\"x\": 1, \"y\": {\"$numberDouble\": \"1.0E19\"}},"
            + " {\"x\": 2, \"y\": 2}]}";
    ByteBuffer unsortedPs =
        unkeyed.encode(new RecordEncoder(unkeyed.plan, false), List.of(bson(structs)));
    assertThat(SchemaVerifier.verify(keyed.plan, unsortedPs).error().reason())
        .startsWith("not in the order of its key y");
  }

  @Test
  void passesWhatTheEngineWroteAndCountsTheRecords() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);

    var result = SchemaVerifier.verify(fx.plan, shard(fx, 5));

    assertThat(result.error()).isNull();
    assertThat(result.records()).isEqualTo(5);
  }

  @Test
  void refusesAnotherFileIdentifier() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    ByteBuffer b = copy(shard(fx, 1));
    b.put(4, (byte) 'X');

    assertThat(SchemaVerifier.verify(fx.plan, b).error().reason()).contains("\"TEST\"");
  }

  @Test
  void findsABoolThatIsNotZeroOrOneAndAnUndeclaredEnum() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    ByteBuffer clean = shard(fx, 1);
    int flagged = 0;
    // every byte holding 1 or 2 set to 7: each one that is a bool or the enum must be caught
    for (int i = 8; i < clean.remaining(); i++) {
      int v = clean.get(clean.position() + i);
      if (v != 1 && v != 2) {
        continue;
      }
      ByteBuffer b = copy(clean);
      b.put(i, (byte) 7);
      var error = SchemaVerifier.verify(fx.plan, b).error();
      if (error != null
          && (error.reason().contains("is not a bool")
              || error.reason().contains("is not a value of"))) {
        flagged++;
      }
    }
    // on, at.on, color, colors[0..1] (Red is 0: not a candidate), and the struct in points
    assertThat(flagged).isGreaterThanOrEqualTo(4);
  }

  @Test
  void findsARequiredFieldMissing() throws Exception {
    SchemaFixtures loose = new SchemaFixtures(dir.resolve("a"), SCHEMA.replace(" (required)", ""));
    ByteBuffer b =
        loose.encode(new RecordEncoder(loose.plan, false), List.of(bson("{\"on\": true}")));
    SchemaFixtures strict = new SchemaFixtures(dir.resolve("b"), SCHEMA);

    var error = SchemaVerifier.verify(strict.plan, b).error();

    assertThat(error.path()).isEqualTo("rs[0].name");
    assertThat(error.reason()).isEqualTo("required, and missing");
  }

  @Test
  void neverThrowsOnDamagedShards() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    ByteBuffer clean = shard(fx, 3);
    Random random = new Random(7);
    int invalid = 0;
    for (int i = 0; i < 3000; i++) {
      ByteBuffer b = copy(clean);
      int n = 1 + random.nextInt(4);
      for (int k = 0; k < n; k++) {
        int at = random.nextInt(b.remaining());
        b.put(at, (byte) (b.get(at) ^ (1 << random.nextInt(8))));
      }
      if (random.nextInt(10) == 0) {
        b.limit(random.nextInt(b.limit()));
      }
      invalid += SchemaVerifier.verify(fx.plan, b).valid() ? 0 : 1;
    }
    assertThat(invalid).isGreaterThan(500);
  }
}
