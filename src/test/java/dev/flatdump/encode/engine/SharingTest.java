package dev.flatdump.encode.engine;

import static dev.flatdump.testing.SchemaFixtures.bson;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** De-dup at every level, checked on the bytes and read back by flatc. */
class SharingTest {

  private static final String SCHEMA =
      """
      table Attr { id: string; size: short; ratio: double; }
      table R { name: string; tags: [string]; attrs: [Attr]; ints: [int]; }
      table Root { rs: [R]; }
      root_type Root;
      """;

  @TempDir Path dir;

  private static Sharing.Count count(Sharing sharing, String kind) {
    return sharing.counts().stream()
        .filter(c -> c.kind().equals(kind) || c.kind().endsWith("." + kind))
        .findFirst()
        .orElseThrow();
  }

  private static int occurrences(ByteBuffer buffer, String text) {
    byte[] needle = text.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = buffer.duplicate();
    byte[] hay = new byte[b.remaining()];
    b.get(hay);
    int n = 0;
    for (int i = 0; i + needle.length <= hay.length; i++) {
      if (java.util.Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) {
        n++;
      }
    }
    return n;
  }

  private static List<byte[]> docs(int n) {
    List<byte[]> docs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      docs.add(
          bson(
              "{\"name\": \"shared-name-"
                  + (i % 2)
                  + "\", \"tags\": [\"t1\", \"t2\"], \"ints\": [1, 2, 3],"
                  + " \"attrs\": [{\"id\": \"a-long-attribute-id\", \"size\": 3, \"ratio\": 0.5},"
                  + " {\"id\": \"b\", \"size\": "
                  + i
                  + "}]}"));
    }
    return docs;
  }

  @Test
  void sharesEqualStringsTablesAndVectorsAndReadsTheSame() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    Sharing sharing = new Sharing(fx.plan, Sharing.Kinds.ALL);
    ByteBuffer shared = fx.encode(new RecordEncoder(fx.plan, sharing, false), docs(10));
    var sharedJson = fx.flatcRecords(shared);
    ByteBuffer plain = fx.encode(new RecordEncoder(fx.plan, false), docs(10));

    assertThat(sharedJson).isEqualTo(fx.flatcRecords(plain));
    assertThat(occurrences(shared, "a-long-attribute-id")).isEqualTo(1);
    assertThat(occurrences(plain, "a-long-attribute-id")).isEqualTo(10);
    assertThat(occurrences(shared, "shared-name-1")).isEqualTo(1);
    assertThat(shared.remaining()).isLessThan(plain.remaining() / 2);
    Sharing.Count attrs = count(sharing, "Attr");
    assertThat(attrs.total()).isEqualTo(20);
    assertThat(attrs.unique()).as("one equal attribute, ten distinct ones").isEqualTo(11);
    assertThat(attrs.bytesSaved()).isPositive();
    assertThat(count(sharing, "R")).isEqualTo(new Sharing.Count("R", 10, 10, 0));
    Sharing.Count vectors = count(sharing, "vectors");
    // tags and ints: the same in every document; attrs: differ by the second attribute's size
    assertThat(vectors.total()).isEqualTo(30);
    assertThat(vectors.unique()).isEqualTo(12);
    assertThat(count(sharing, "strings").unique()).isEqualTo(6);
  }

  /**
   * Strings looked up by their bytes ({@link Sharing#peekString}) are found only where the very
   * same bytes were kept: strings of 0 to 30 bytes, each with a variant per byte changed, one
   * longer by a NUL, thousands of 24 bytes equal but for one 8-byte word, each looked up twice, in
   * buffers where they are followed by other bytes or end the buffer; and nothing after {@link
   * Sharing#clear}.
   */
  @Test
  void stringsAreFoundByTheirBytesAndOnlyByThem() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    Sharing sharing = new Sharing(fx.plan, Sharing.Kinds.ALL);
    java.util.Map<String, Integer> kept = new java.util.LinkedHashMap<>();
    java.util.Random random = new java.util.Random(5);
    List<String> never = new ArrayList<>();
    for (int length = 0; length <= 30; length++) {
      char[] base = new char[length];
      for (int i = 0; i < length; i++) {
        base[i] = (char) ('a' + random.nextInt(26));
      }
      List<String> strings = new ArrayList<>(List.of(new String(base)));
      for (int i = 0; i < length; i++) {
        char[] other = base.clone();
        other[i] = (char) (other[i] == 'z' ? 'a' : other[i] + 1);
        strings.add(new String(other));
      }
      for (String s : strings) {
        if (kept.containsKey(s)) {
          continue;
        }
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        Sharing.ContentKey key = sharing.key();
        key.room(bytes.length);
        key.put(bytes, 0, bytes.length);
        assertThat(sharing.findString()).as("'%s' before it is kept", s).isZero();
        int offset = 1000 + 8 * kept.size();
        sharing.keepString(offset, 8);
        kept.put(s, offset);
      }
      never.add(new String(base) + "\0");
    }
    // strings equal but for one of their three words
    for (int i = 0; i < 6000; i++) {
      String word = String.format("%08d", i / 3);
      String s =
          switch (i % 3) {
            case 0 -> word + "-same-as-other";
            case 1 -> "same-as-" + word + "-others";
            default -> "same-as-others--" + word;
          };
      byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
      Sharing.ContentKey key = sharing.key();
      key.room(bytes.length);
      key.put(bytes, 0, bytes.length);
      assertThat(sharing.findString()).isZero();
      int offset = 1000 + 8 * kept.size();
      sharing.keepString(offset, 8);
      kept.put(s, offset);
    }
    for (int pass = 0; pass < 2; pass++) {
      for (var e : kept.entrySet()) {
        for (boolean atTheEnd : new boolean[] {false, true}) {
          assertThat(peek(sharing, e.getKey(), atTheEnd))
              .as("'%s', pass %d, at the end %s", e.getKey(), pass, atTheEnd)
              .isEqualTo(e.getValue());
        }
      }
      for (String s : never) {
        assertThat(peek(sharing, s, false)).as("'%s' never kept", s).isZero();
      }
    }
    sharing.clear();
    for (String s : kept.keySet()) {
      assertThat(peek(sharing, s, false)).as("'%s' after clear", s).isZero();
    }
  }

  /** {@link Sharing#peekString} of {@code s} in a buffer with other bytes before and after it. */
  private static int peek(Sharing sharing, String s, boolean atTheEnd) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    byte[] buffer = new byte[7 + bytes.length + (atTheEnd ? 0 : 40)];
    java.util.Arrays.fill(buffer, (byte) 'q');
    System.arraycopy(bytes, 0, buffer, 7, bytes.length);
    return sharing.peekString(buffer, 7, 7 + bytes.length);
  }

  @Test
  void eachKindCanBeOffAlone() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    ByteBuffer stringsOnly =
        fx.encode(
            new RecordEncoder(fx.plan, new Sharing(fx.plan, Sharing.Kinds.parse("strings")), false),
            docs(10));

    assertThat(occurrences(stringsOnly, "a-long-attribute-id")).isEqualTo(1);
    assertThat(fx.flatcRecords(stringsOnly))
        .isEqualTo(fx.flatcRecords(fx.encode(new RecordEncoder(fx.plan, false), docs(10))));
  }

  @Nested
  class ComparesExactly {

    /** A document {@code {"ratio": <the double with these bits>}} inside one attribute. */
    private byte[] withRatioBits(long bits) {
      byte[] doc = bson("{\"attrs\": [{\"size\": 1, \"ratio\": 1.0}]}");
      ByteBuffer bb = ByteBuffer.wrap(doc).order(ByteOrder.LITTLE_ENDIAN);
      long one = Double.doubleToRawLongBits(1.0);
      for (int i = 0; i + 8 <= doc.length; i++) {
        if (bb.getLong(i) == one) {
          bb.putLong(i, bits);
          return doc;
        }
      }
      throw new AssertionError("no 1.0 in the document");
    }

    @Test
    void keepsZeroAndNegativeZeroAndNaNPayloadsApart() throws Exception {
      SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
      Sharing sharing = new Sharing(fx.plan, Sharing.Kinds.ALL);
      RecordEncoder encoder = new RecordEncoder(fx.plan, sharing, false);
      FlatBufferBuilder builder = new FlatBufferBuilder(256);
      long[] values = {
        Double.doubleToRawLongBits(0.0),
        Double.doubleToRawLongBits(-0.0),
        0x7ff8000000000000L,
        0x7ff8000000000001L,
        0x7ff8000000000001L
      };
      for (long v : values) {
        byte[] doc = withRatioBits(v);
        encoder.encode(builder, doc, 0, doc.length);
      }

      Sharing.Count attrs = count(sharing, "Attr");
      assertThat(attrs.total()).isEqualTo(5);
      assertThat(attrs.unique()).as("only the last NaN is an equal one").isEqualTo(4);
    }
  }

  @Test
  void forgetsEverythingAtANewShard() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    Sharing sharing = new Sharing(fx.plan, Sharing.Kinds.ALL);
    RecordEncoder encoder = new RecordEncoder(fx.plan, sharing, false);
    byte[] doc = bson("{\"name\": \"only-once-per-shard\"}");
    FlatBufferBuilder first = new FlatBufferBuilder(64);
    encoder.encode(first, doc, 0, doc.length);

    sharing.clear();
    FlatBufferBuilder second = new FlatBufferBuilder(64);
    int record = encoder.encode(second, doc, 0, doc.length);
    RecordsRoot.finish(second, fx.plan, new int[] {record}, 1);

    assertThat(occurrences(second.dataBuffer(), "only-once-per-shard")).isEqualTo(1);
    assertThat(fx.flatcRecords(second.dataBuffer()).get(0).get("name").asString())
        .isEqualTo("only-once-per-shard");
  }

  @Nested
  class SubDocumentsMetAgain {

    private List<byte[]> organizations(int n) {
      var generator =
          new dev.flatdump.bench.samples.OrgGenerator(
              dev.flatdump.bench.samples.Profile.REALISTIC, 7);
      var codec = new dev.flatdump.bench.samples.OrgCodec();
      List<byte[]> docs = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        var out = new org.bson.io.BasicOutputBuffer();
        codec.encode(
            new org.bson.BsonBinaryWriter(out),
            new org.bson.BsonObjectId(generator.idOf(i)),
            generator.next());
        docs.add(out.toByteArray());
      }
      return docs;
    }

    @Test
    void areFoundByTheirBytesWithTheSameBytesAsDecodingThemAgain() throws Exception {
      SchemaFixtures fx =
          new SchemaFixtures(
              dir, java.nio.file.Files.readString(Path.of("schemas", "organizations.fbs")));
      List<byte[]> docs = organizations(2000);
      Sharing withMemo = new Sharing(fx.plan, Sharing.Kinds.ALL);
      ByteBuffer memo = fx.encode(new RecordEncoder(fx.plan, withMemo, false), docs);
      Sharing decoded = new Sharing(fx.plan, Sharing.Kinds.ALL, false);
      ByteBuffer plain = fx.encode(new RecordEncoder(fx.plan, decoded, false), docs);

      assertThat(memo).isEqualTo(plain);
      Sharing.Count attributes = count(withMemo, "Attribute");
      assertThat(attributes.total()).isEqualTo(count(decoded, "Attribute").total());
      assertThat(attributes.unique()).isEqualTo(count(decoded, "Attribute").unique());
      assertThat(attributes.bytesSaved()).isEqualTo(count(decoded, "Attribute").bytesSaved());
      assertThat(count(withMemo, "strings").total())
          .as("strings in a sub-document met again are not looked up again")
          .isLessThan(count(decoded, "strings").total());
    }

    @Test
    void areLookedUpWhileTheirBytesRepeatAndSoonNotWhereTheyDoNot() throws Exception {
      SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
      int attr = -1;
      for (int i = 0; i < fx.plan.tables().size(); i++) {
        if (fx.plan.tables().get(i).name().equals("Attr")) {
          attr = i;
        }
      }
      int n = 80_000;
      int[] looked = new int[2];
      for (int repeating = 0; repeating < 2; repeating++) {
        Sharing sharing = new Sharing(fx.plan, Sharing.Kinds.ALL);
        for (int i = 0; i < n; i++) {
          if (!sharing.memoizes(attr)) {
            continue;
          }
          looked[repeating]++;
          int value = repeating == 1 ? i % 100 : i;
          byte[] b =
              bson("{\"id\": \"a\", \"size\": " + (value % 30000) + ", \"ratio\": " + value + "}");
          int hash = BsonMemo.hash(b, 0, b.length);
          if (sharing.findTableByBson(attr, b, 0, b.length, hash) == 0) {
            sharing.keepTableByBson(attr, b, 0, b.length, hash, 8 * (value + 1), 8);
          }
        }
      }

      assertThat(looked[1]).as("bytes that repeat").isEqualTo(n);
      assertThat(looked[0]).as("bytes that never repeat").isPositive().isLessThan(n / 4);
    }

    @Test
    void withAFieldTheSchemaDoesNotNameAreDecodedEachTime() throws Exception {
      SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
      RecordEncoder encoder =
          new RecordEncoder(fx.plan, new Sharing(fx.plan, Sharing.Kinds.ALL), false);
      List<byte[]> docs = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        docs.add(bson("{\"attrs\": [{\"id\": \"a\", \"extra\": 1}], \"name\": \"n" + i + "\"}"));
      }

      fx.encode(encoder, docs);

      assertThat(encoder.unknownFields()).isEqualTo(java.util.Map.of("attrs[0].extra", 10L));
    }
  }

  @Test
  void parsesTheKinds() {
    assertThat(Sharing.Kinds.parse("strings,tables,vectors")).isEqualTo(Sharing.Kinds.ALL);
    assertThat(Sharing.Kinds.parse("none")).isEqualTo(Sharing.Kinds.NONE);
    assertThat(Sharing.Kinds.parse("tables")).isEqualTo(new Sharing.Kinds(false, true, false));
    assertThatThrownBy(() -> Sharing.Kinds.parse("strings,attributes"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'attributes'");
  }
}
