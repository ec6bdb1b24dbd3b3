package dev.flatdump.encode.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonElement;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Leaf tables read by their layout ({@link LeafShape}) give what the general walk gives: the same
 * bytes, the same rejects with the same path and reason, the same unknown fields. Over documents
 * that mostly keep one layout (so that layouts are learned and read) and sometimes break it: a
 * field left out, moved, null, of another type, out of range, equal to its default, unknown; enums
 * by name and by number; bytes flipped after serialisation. The record type is a leaf in one schema
 * (a flat collection, with its {@code _id}) and holds leaves in the other.
 */
class LeafShapeTest {

  private static final String LEAF =
      """
      enum Color : byte { RED, GREEN = 5, BLUE }
      table Leaf {
        id: string; q: byte; a: ubyte = 7; s: short; u: uint; l: long; d: double; f: float;
        b: bool; c: Color; o: int = null; named: string (bson: "the-name"); t: ulong;
      }
      """;

  private static final String NESTED =
      "attribute \"bson\";\n"
          + LEAF
          + """
          table Rec { title: string; one: Leaf; many: [Leaf]; }
          table Root { recs: [Rec]; }
          root_type Root;
          """;

  private static final String FLAT =
      "attribute \"bson\";\n"
          + LEAF
          + """
          table Root { leaves: [Leaf]; }
          root_type Root;
          """;

  @TempDir Path dir;

  @Test
  void nestedLeavesGiveWhatTheWalkGives() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, NESTED);
    for (long seed = 1; seed <= 6; seed++) {
      Random random = new Random(seed);
      List<byte[]> docs = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        BsonDocument rec = new BsonDocument("_id", new BsonInt32(i));
        rec.append("title", new BsonString("r" + random.nextInt(10)));
        rec.append("one", leaf(random));
        BsonArray many = new BsonArray();
        for (int j = random.nextInt(6); j > 0; j--) {
          many.add(leaf(random));
        }
        rec.append("many", many);
        docs.add(mutated(SchemaFixtures.bson(rec), random));
      }
      compare(fx, docs, seed);
    }
  }

  @Test
  void aFlatCollectionGivesWhatTheWalkGives() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, FLAT);
    for (long seed = 1; seed <= 6; seed++) {
      Random random = new Random(seed);
      List<byte[]> docs = new ArrayList<>();
      for (int i = 0; i < 600; i++) {
        BsonDocument leaf = leaf(random);
        BsonValue id =
            switch (random.nextInt(20) == 0 ? random.nextInt(3) : (int) (seed % 3)) {
              case 0 -> new BsonObjectId(new ObjectId(i, 0));
              case 1 -> new BsonString("k" + i);
              default -> new BsonInt64(i);
            };
        BsonDocument doc = new BsonDocument("_id", id);
        doc.putAll(leaf);
        docs.add(mutated(SchemaFixtures.bson(doc), random));
      }
      compare(fx, docs, seed);
    }
  }

  /**
   * A leaf with one string, which is looked up, checked and written in one pass: ids that repeat
   * and ids that do not, some not UTF-8, among documents of several leaves, so that new strings
   * follow strings found.
   */
  @Test
  void aLeafWithOneStringGivesWhatTheWalkGives() throws Exception {
    SchemaFixtures fx =
        new SchemaFixtures(
            dir,
            """
            table One { id: string; q: byte; d: double; }
            table Rec { ones: [One]; }
            table Root { recs: [Rec]; }
            root_type Root;
            """);
    for (long seed = 1; seed <= 4; seed++) {
      Random random = new Random(seed);
      List<byte[]> docs = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        BsonArray ones = new BsonArray();
        for (int j = random.nextInt(5); j >= 0; j--) {
          String id = random.nextBoolean() ? "id-" + random.nextInt(30) : "u-" + i + "-" + j;
          ones.add(
              new BsonDocument("id", new BsonString(id))
                  .append("q", new BsonInt32(random.nextInt(300) - 150))
                  .append("d", new BsonDouble(random.nextInt(3))));
        }
        byte[] doc =
            SchemaFixtures.bson(new BsonDocument("_id", new BsonInt32(i)).append("ones", ones));
        docs.add(mutated(doc, random));
      }
      compare(fx, docs, seed);
    }
  }

  /**
   * Every byte of a document whose leaves are in a learned layout, changed in turn to 0, 0xFF, one
   * more and one less: sizes, type bytes, names, string lengths and their NULs, values. Each
   * changed document follows the unchanged one, so that the layouts stay learned.
   */
  @Test
  void everyByteChangedGivesWhatTheWalkGives() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, NESTED);
    Random random = new Random(11);
    BsonDocument rec = new BsonDocument("_id", new BsonInt32(1));
    rec.append("title", new BsonString("r"));
    rec.append("one", usual(random));
    rec.append("many", new BsonArray(List.of(usual(random), usual(random), usual(random))));
    byte[] base = SchemaFixtures.bson(rec);
    List<byte[]> docs = new ArrayList<>();
    for (int at = 4; at < base.length - 1; at++) {
      for (int to : new int[] {0, 0xFF, base[at] + 1, base[at] - 1}) {
        byte[] changed = base.clone();
        changed[at] = (byte) to;
        docs.add(base);
        docs.add(changed);
      }
    }
    compare(fx, docs, 11);
  }

  /**
   * A layout whose reader would be too long for the JIT to compile (many long names) gets none: the
   * loop reads it, and gives what the walk gives.
   */
  @Test
  void aLayoutTooLongForAReaderIsReadByTheLoop() throws Exception {
    StringBuilder fields = new StringBuilder();
    BsonDocument leaf = new BsonDocument();
    for (int i = 0; i < 60; i++) {
      String name = "a_field_with_a_rather_long_name_of_many_words_number_" + i;
      fields.append(name).append(": int; ");
      leaf.append(name, new BsonInt32(i));
    }
    SchemaFixtures fx =
        new SchemaFixtures(
            dir, "table Wide { " + fields + "} table Root { ws: [Wide]; } root_type Root;");
    byte[] b = SchemaFixtures.bson(leaf);
    var wide = fx.plan.tables().stream().filter(t -> t.name().endsWith("Wide")).findFirst();
    LeafShape shape = LeafShape.learn(wide.orElseThrow(), b, 0, b.length, true);
    assertThat(shape).isNotNull();
    assertThat(LeafReaders.generate(shape).length).isGreaterThan(LeafReaders.MAX_CLASS_BYTES);
    assertThat(LeafReaders.of(shape)).isNull();

    List<byte[]> docs = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      docs.add(b);
    }
    RecordEncoder encoder =
        new RecordEncoder(
            fx.plan, new Sharing(fx.plan, Sharing.Kinds.ALL), false, true, true, true);
    fx.encode(encoder, docs);
    assertThat(encoder.shapeReads()).as("read by their layout").isGreaterThan(100);
    assertThat(encoder.readerReads()).as("by a generated reader").isZero();
  }

  /** A leaf in the usual layout, always. */
  private static BsonDocument usual(Random random) {
    BsonDocument leaf;
    do {
      leaf = leaf(random);
    } while (leaf.size() != 13 || !leaf.get("id").isString() || !leaf.get("s").isInt32());
    return leaf;
  }

  @Test
  void aLayoutThatCannotBeDescribedIsNotLearnedOverAndOver() throws Exception {
    // a decimal128 into a string converts: the walk's work, so no layout describes these leaves
    SchemaFixtures fx =
        new SchemaFixtures(
            dir,
            "table Leaf { id: string; d: string; } table Root { ls: [Leaf]; } root_type Root;");
    RecordEncoder encoder =
        new RecordEncoder(fx.plan, new Sharing(fx.plan, Sharing.Kinds.ALL), false);
    List<byte[]> docs = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      docs.add(
          SchemaFixtures.bson(
              "{\"id\": \"x" + i + "\", \"d\": {\"$numberDecimal\": \"" + i + ".5\"}}"));
    }

    fx.encode(encoder, docs);

    assertThat(encoder.shapeReads()).isZero();
    assertThat(encoder.shapeLearns()).isEqualTo(64);
  }

  @Test
  void aLayoutThatKeepsChangingIsNotLearnedOverAndOver() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, FLAT);
    RecordEncoder encoder =
        new RecordEncoder(fx.plan, new Sharing(fx.plan, Sharing.Kinds.ALL), false);
    List<byte[]> docs = new ArrayList<>();
    String[] names = {"id", "q", "a", "s", "u", "l", "d", "f", "b", "o"};
    Random random = new Random(3);
    for (int i = 0; i < 3000; i++) {
      BsonDocument doc = new BsonDocument();
      List<String> order = new ArrayList<>(List.of(names));
      Collections.shuffle(order, random);
      for (String name : order) {
        doc.append(
            name,
            switch (name) {
              case "id" -> new BsonString("k" + i);
              case "b" -> BsonBoolean.valueOf(i % 2 == 0);
              default -> new BsonInt32(i % 100);
            });
      }
      docs.add(SchemaFixtures.bson(doc));
    }

    fx.encode(encoder, docs);

    assertThat(encoder.shapeLearns()).isLessThan(docs.size() / 10);
  }

  /**
   * Encodes every document with layouts and without; both must agree on each, and in the end. With
   * layouts, the scalars are read by generated readers, then by the loop over the layout.
   */
  private static void compare(SchemaFixtures fx, List<byte[]> docs, long seed) {
    compare(fx, docs, seed, true);
    compare(fx, docs, seed, false);
  }

  private static void compare(SchemaFixtures fx, List<byte[]> docs, long seed, boolean readers) {
    for (Sharing.Kinds kinds : List.of(Sharing.Kinds.ALL, Sharing.Kinds.NONE)) {
      Sharing sharedA = new Sharing(fx.plan, kinds);
      Sharing sharedB = new Sharing(fx.plan, kinds);
      RecordEncoder shapes = new RecordEncoder(fx.plan, sharedA, false, true, true, readers);
      RecordEncoder walk = new RecordEncoder(fx.plan, sharedB, false, true, false);
      FlatBufferBuilder a = new FlatBufferBuilder(1024);
      FlatBufferBuilder b = new FlatBufferBuilder(1024);
      List<Integer> recordsA = new ArrayList<>();
      List<Integer> recordsB = new ArrayList<>();
      int rejects = 0;
      for (int i = 0; i < docs.size(); i++) {
        byte[] d = docs.get(i);
        String outcomeA = outcome(shapes, a, d, recordsA);
        String outcomeB = outcome(walk, b, d, recordsB);
        assertThat(outcomeA)
            .as("seed %d, %s, readers %s, document %d", seed, kinds, readers, i)
            .isEqualTo(outcomeB);
        rejects += outcomeA.startsWith("rejected") ? 1 : 0;
      }
      assertThat(finish(fx, a, recordsA))
          .as("seed %d, %s", seed, kinds)
          .isEqualTo(finish(fx, b, recordsB));
      assertThat(shapes.unknownFields()).isEqualTo(walk.unknownFields());
      assertThat(sharedA.counts()).as("what was shared").isEqualTo(sharedB.counts());
      // the comparison is worth something only if both happened often
      assertThat(shapes.shapeReads())
          .as("tables read by their layout")
          .isGreaterThan(docs.size() / 2);
      if (readers) {
        assertThat(shapes.readerReads())
            .as("tables whose scalars a generated reader read")
            .isGreaterThan(docs.size() / 2);
      } else {
        assertThat(shapes.readerReads()).isZero();
      }
      assertThat(rejects).as("documents rejected").isBetween(docs.size() / 50, docs.size() / 2);
    }
  }

  private static String outcome(RecordEncoder e, FlatBufferBuilder b, byte[] d, List<Integer> out) {
    try {
      int offset = e.encode(b, d, 0, d.length);
      out.add(offset);
      return "encoded at " + offset;
    } catch (RejectedRecord r) {
      return "rejected at " + r.path() + ": " + r.reason();
    }
  }

  private static ByteBuffer finish(SchemaFixtures fx, FlatBufferBuilder b, List<Integer> records) {
    RecordsRoot.finish(
        b, fx.plan, records.stream().mapToInt(Integer::intValue).toArray(), records.size());
    return b.dataBuffer();
  }

  /** A leaf in the usual layout, mostly; sometimes not. */
  private static BsonDocument leaf(Random random) {
    List<BsonElement> fields = new ArrayList<>();
    fields.add(new BsonElement("id", new BsonString("id-" + random.nextInt(40))));
    fields.add(
        new BsonElement(
            "q", new BsonInt32(random.nextInt(10) == 0 ? 0 : random.nextInt(256) - 128)));
    fields.add(
        new BsonElement("a", new BsonInt32(random.nextInt(4) == 0 ? 7 : random.nextInt(256))));
    fields.add(new BsonElement("s", new BsonInt32(random.nextInt(65536) - 32768)));
    fields.add(new BsonElement("u", new BsonInt64(random.nextInt(Integer.MAX_VALUE) * 2L)));
    fields.add(new BsonElement("l", new BsonInt64(random.nextLong())));
    fields.add(
        new BsonElement("d", new BsonDouble(random.nextInt(5) == 0 ? -0.0 : random.nextDouble())));
    fields.add(new BsonElement("f", new BsonDouble(random.nextInt(8) / 4.0)));
    fields.add(new BsonElement("b", BsonBoolean.valueOf(random.nextBoolean())));
    fields.add(
        new BsonElement("c", random.nextInt(10) > 0 ? new BsonString("BLUE") : new BsonInt32(5)));
    fields.add(new BsonElement("o", random.nextInt(10) == 0 ? BsonNull.VALUE : new BsonInt32(0)));
    fields.add(
        new BsonElement(
            "the-name", new BsonString(random.nextBoolean() ? "ü名" : "n" + random.nextInt(1000))));
    fields.add(new BsonElement("t", new BsonTimestamp(random.nextLong())));
    if (random.nextInt(16) == 0) {
      int k = random.nextInt(fields.size());
      BsonElement e = fields.get(k);
      BsonValue other =
          switch (random.nextInt(9)) {
            case 0 -> BsonNull.VALUE;
            case 1 -> new BsonInt32(70000); // out of range for all but u, l, d, f, t
            case 2 -> new BsonInt64(3);
            case 3 -> new BsonDouble(2.0);
            case 4 -> new BsonDouble(2.5);
            case 5 -> new BsonString("RED");
            case 6 -> new BsonDateTime(12345);
            case 7 -> new BsonInt32(-1);
            default -> new BsonBoolean(true);
          };
      fields.set(k, new BsonElement(e.getName(), other));
    }
    switch (random.nextInt(40)) {
      case 0 -> fields.remove(random.nextInt(fields.size()));
      case 1 ->
          Collections.swap(fields, random.nextInt(fields.size()), random.nextInt(fields.size()));
      case 2 ->
          fields.add(random.nextInt(fields.size() + 1), new BsonElement("zz", new BsonInt32(1)));
      case 3 -> fields.add(new BsonElement("id", new BsonString("twice")));
      default -> {}
    }
    BsonDocument doc = new BsonDocument();
    for (BsonElement e : fields) {
      doc.append(e.getName(), e.getValue());
    }
    return doc;
  }

  /** The bytes, one of them sometimes changed: to a random value, or to a NUL or a high byte. */
  private static byte[] mutated(byte[] doc, Random random) {
    if (random.nextInt(25) == 0) {
      int at = 4 + random.nextInt(doc.length - 5);
      doc[at] =
          switch (random.nextInt(3)) {
            case 0 -> 0;
            case 1 -> (byte) 0xC3;
            default -> (byte) random.nextInt(256);
          };
    }
    return doc;
  }
}
