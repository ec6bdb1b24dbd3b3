package dev.flatdump.columnar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.flatbuffers.FlatBufferBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Copies made on purpose, their CRC-32C right: counts in the header that would make the decoder
 * allocate gigabytes are refused before anything that large is allocated.
 */
class HostileCopyTest {

  private static byte[] bfbs() throws IOException {
    try (InputStream in = HostileCopyTest.class.getResourceAsStream("/hostile/tiny.bfbs")) {
      return in.readAllBytes();
    }
  }

  /** A shard of the tiny schema: Root { rs: [Rec { id, n, score, tags }] }. */
  static byte[] shard() {
    FlatBufferBuilder b = new FlatBufferBuilder(64);
    int[] recs = new int[3];
    for (int i = 0; i < recs.length; i++) {
      int id = b.createString("id-" + i);
      int t = b.createString("tag");
      b.startVector(4, 1, 4);
      b.addOffset(t);
      int tags = b.endVector();
      b.startTable(4);
      b.addOffset(0, id, 0);
      b.addLong(1, 7 + i, 0);
      b.addDouble(2, 0.5 * i, 0);
      b.addOffset(3, tags, 0);
      recs[i] = b.endTable();
    }
    b.startVector(4, recs.length, 4);
    for (int i = recs.length - 1; i >= 0; i--) {
      b.addOffset(recs[i]);
    }
    int rs = b.endVector();
    b.startTable(1);
    b.addOffset(0, rs, 0);
    int root = b.endTable();
    b.finish(root, "TINY");
    return b.sizedByteArray();
  }

  /** The copy's header fields, and the bytes after them. */
  record Header(
      long total, byte[] sha, byte[] prefix, long regions, long root, byte[] schema, byte[] rest) {

    static Header of(byte[] copy) {
      ByteSource in = new ByteSource(copy);
      in.bytes(8);
      long total = in.varint();
      byte[] sha = in.bytes(32);
      int p = in.count();
      byte[] prefix = in.bytes(p - 4);
      long regions = in.varint();
      long root = in.varint();
      byte[] schema = in.bytes(32);
      return new Header(total, sha, prefix, regions, root, schema, in.bytes(in.remaining()));
    }

    byte[] write() {
      ByteSink out = new ByteSink();
      out.write(ColumnarCopy.MAGIC);
      out.fixed(0, 4);
      out.varint(total);
      out.write(sha);
      out.varint(4 + prefix.length);
      out.write(prefix);
      out.varint(regions);
      out.varint(root);
      out.write(schema);
      out.write(rest);
      byte[] copy = out.toByteArray();
      int crc = ColumnarCopy.crc(copy);
      for (int i = 0; i < 4; i++) {
        copy[4 + i] = (byte) (crc >>> (8 * i));
      }
      return copy;
    }

    Header withRegions(long r) {
      return new Header(total, sha, prefix, r, root, schema, rest);
    }

    Header withTotal(long t) {
      return new Header(t, sha, prefix, regions, root, schema, rest);
    }

    Header withRest(byte[] r) {
      return new Header(total, sha, prefix, regions, root, schema, r);
    }
  }

  @Test
  void theShardRebuildsAndTheHeaderRewritesAsIs() throws IOException {
    byte[] shard = shard();
    byte[] copy = ColumnarCopy.write(shard, bfbs(), 3);
    assertThat(ColumnarCopy.rebuild(copy, bfbs())).isEqualTo(shard);
    assertThat(Header.of(copy).write()).isEqualTo(copy);
  }

  @Test
  void aHugeObjectCountIsRefusedBeforeItIsAllocated() throws IOException {
    byte[] copy = ColumnarCopy.write(shard(), bfbs(), 3);
    Header h = Header.of(copy);
    byte[] hostile =
        h.withTotal(Integer.MAX_VALUE - 16).withRegions(Integer.MAX_VALUE - 17).write();
    long before = Runtime.getRuntime().maxMemory();
    assertThatThrownBy(() -> ColumnarCopy.rebuild(hostile, bfbs()))
        .isInstanceOf(ColumnarException.class)
        .hasMessageContaining("damaged");
    assertThat(before).isPositive();
  }

  @Test
  void moreObjectsThanTagsCanNameAreRefused() throws IOException {
    byte[] copy = ColumnarCopy.write(shard(), bfbs(), 3);
    Header h = Header.of(copy);
    byte[] hostile = h.withRegions(h.regions() + 1000).withTotal(h.total() + 100_000).write();
    assertThatThrownBy(() -> ColumnarCopy.rebuild(hostile, bfbs()))
        .isInstanceOf(ColumnarException.class);
    assertThat(Arrays.equals(hostile, copy)).isFalse();
  }

  /** A values stream of {@code n} zeros in frame of reference with 0 bits: a few bytes. */
  private static byte[] zeros(int n) {
    ByteSink v = new ByteSink();
    v.write(Values.FOR);
    v.write(1);
    v.varint(n);
    v.zigzag(0);
    v.write(0);
    return v.toByteArray();
  }

  private static void inline(ByteSink d, byte[] stream) {
    d.write(Streams.INLINE);
    d.varint(stream.length);
    d.write(stream);
  }

  /** A copy of one root column whose refs and own codes are each more than half its size. */
  private static byte[] manyValues(int total, byte[] bfbs) {
    ByteSink d = new ByteSink();
    inline(d, new byte[] {1}); // tags: one root table
    inline(d, new byte[0]); // vtables
    inline(d, new byte[0]); // gaps
    inline(d, new byte[0]); // xrefs
    d.write(1 | 2);
    inline(d, zeros(total / 2 + 1));
    inline(d, zeros(total / 2 + 1));
    ByteSink out = new ByteSink();
    out.write(ColumnarCopy.MAGIC);
    out.fixed(0, 4);
    out.varint(total);
    out.write(new byte[32]);
    out.varint(4);
    out.varint(1);
    out.varint(0);
    out.write(ColumnarEncoder.sha256(bfbs));
    out.varint(1);
    out.write(Streams.RAW);
    out.varint(d.size());
    out.write(d.array(), 0, d.size());
    byte[] copy = out.toByteArray();
    int crc = ColumnarCopy.crc(copy);
    for (int i = 0; i < 4; i++) {
      copy[4 + i] = (byte) (crc >>> (8 * i));
    }
    return copy;
  }

  @Test
  void moreValuesThanTheShardHasBytesAreRefusedBeforeTheyAreAllocated() throws IOException {
    byte[] bfbs = bfbs();
    byte[] copy = manyValues(1_000_000, bfbs);
    assertThatThrownBy(() -> new ColumnarDecoder(copy, bfbs))
        .isInstanceOf(ColumnarException.class)
        .hasMessageContaining("500001 values");
  }

  @Test
  void aStreamLargerThanItsShardCouldNeedIsRefusedBeforeItIsAllocated() throws IOException {
    byte[] bfbs = bfbs();
    byte[] copy = ColumnarCopy.write(shard(), bfbs, 3);
    Header h = Header.of(copy);
    // The directory claims to decompress to far more than a shard of this size could need.
    ByteSink rest = new ByteSink();
    rest.varint(1);
    rest.write(Streams.ZSTD);
    rest.varint(8);
    rest.varint(Integer.MAX_VALUE - 32);
    rest.write(new byte[8]);
    byte[] hostile = h.withRest(rest.toByteArray()).write();
    assertThatThrownBy(() -> new ColumnarDecoder(hostile, bfbs))
        .isInstanceOf(ColumnarException.class)
        .hasMessageContaining("a stream of " + (Integer.MAX_VALUE - 32) + " bytes");
  }

  @Test
  void aCheckedCopyIsNotMadeUnderAnotherShardsSha256() throws IOException {
    byte[] bfbs = bfbs();
    byte[] shard = shard();
    String sha = java.util.HexFormat.of().formatHex(ColumnarEncoder.sha256(shard));
    assertThat(ColumnarCopy.rebuild(ColumnarCopy.writeChecked(shard, sha, bfbs, 3), bfbs))
        .isEqualTo(shard);
    // The bytes read back differ from those hashed as they were written: no copy, rather than
    // one that passes this check and never rebuilds.
    byte[] changed = shard.clone();
    int at = new String(shard, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf("id-0");
    changed[at + 3] = '9';
    assertThatThrownBy(() -> ColumnarCopy.writeChecked(changed, sha, bfbs, 3))
        .isInstanceOf(ColumnarException.class)
        .hasMessageContaining(sha);
  }

  /** {@code copy} with its CRC-32C made right again. */
  static byte[] recrc(byte[] copy) {
    if (copy.length >= 8) {
      int crc = ColumnarCopy.crc(copy);
      for (int i = 0; i < 4; i++) {
        copy[4 + i] = (byte) (crc >>> (8 * i));
      }
    }
    return copy;
  }

  @Test
  void damageWithItsCrcMadeRightIsAColumnarExceptionOrTheShard() throws IOException {
    byte[] bfbs = EdgeShardTest.bfbs();
    java.util.Random rnd = new java.util.Random(41);
    StringBuilder failures = new StringBuilder();
    for (long seed = 0; seed < 12; seed++) {
      byte[] shard = EdgeShardTest.shard(seed, 1 + (int) (seed % 4), true, true);
      byte[] copy = ColumnarCopy.write(shard, bfbs, (int) (seed % 2) * 19);
      for (int k = 0; k < 1500; k++) {
        byte[] bad;
        switch (k % 4) {
          case 0 -> bad = Arrays.copyOf(copy, 8 + rnd.nextInt(copy.length - 8));
          case 1 -> {
            bad = copy.clone();
            int at = 8 + rnd.nextInt(copy.length - 8);
            bad[at] ^= (byte) (1 << rnd.nextInt(8));
          }
          case 2 -> {
            bad = copy.clone();
            int at = 8 + rnd.nextInt(copy.length - 8);
            bad[at] = (byte) rnd.nextInt(256);
          }
          default -> {
            bad = copy.clone();
            for (int j = 0; j < 1 + rnd.nextInt(4); j++) {
              int at = 8 + rnd.nextInt(copy.length - 8);
              bad[at] = (byte) (rnd.nextBoolean() ? 0xff : 0);
            }
          }
        }
        rebuildsOrRefuses(recrc(bad), bfbs, shard, "seed " + seed + " #" + k, failures);
      }
    }
    assertThat(failures.toString()).isEmpty();
  }

  @Test
  void aDamagedDirectoryIsAColumnarExceptionOrTheShard() throws IOException {
    byte[] bfbs = EdgeShardTest.bfbs();
    java.util.Random rnd = new java.util.Random(4141);
    StringBuilder failures = new StringBuilder();
    for (long seed = 0; seed < 12; seed++) {
      byte[] shard = EdgeShardTest.shard(seed, 1 + (int) (seed % 4), seed % 2 == 0, true);
      byte[] copy = ColumnarCopy.write(shard, bfbs, 3);
      Header h = Header.of(copy);
      ByteSource in = new ByteSource(h.rest());
      long columns = in.varint();
      byte[] directory;
      try (var ctx = new com.github.luben.zstd.ZstdDecompressCtx()) {
        directory = Streams.read(in, ctx, Streams.MAX_STREAM);
      }
      byte[] after = in.bytes(in.remaining());
      for (int k = 0; k < 3000; k++) {
        byte[] d = directory.clone();
        for (int j = 0; j < 1 + rnd.nextInt(3); j++) {
          int at = rnd.nextInt(d.length);
          d[at] =
              switch (rnd.nextInt(4)) {
                case 0 -> (byte) (d[at] ^ (1 << rnd.nextInt(8)));
                case 1 -> (byte) (d[at] + (rnd.nextBoolean() ? 1 : -1));
                case 2 -> 0;
                default -> (byte) rnd.nextInt(256);
              };
        }
        ByteSink rest = new ByteSink();
        rest.varint(columns);
        rest.write(Streams.RAW);
        rest.varint(d.length);
        rest.write(d);
        rest.write(after);
        byte[] hostile = h.withRest(rest.toByteArray()).write();
        rebuildsOrRefuses(hostile, bfbs, shard, "seed " + seed + " #" + k, failures);
      }
    }
    assertThat(failures.toString()).isEmpty();
  }

  @Test
  void aShardLargerThanAnArrayIsAColumnarException() throws IOException {
    byte[] bfbs = bfbs();
    byte[] copy = ColumnarCopy.write(shard(), bfbs, 3);
    byte[] hostile = Header.of(copy).withTotal(Integer.MAX_VALUE).write();
    assertThatThrownBy(() -> ColumnarCopy.rebuild(hostile, bfbs))
        .isInstanceOf(ColumnarException.class)
        .hasMessageContaining(Integer.MAX_VALUE + " bytes");
  }

  /**
   * A hostile copy either rebuilds the very shard or is refused with a {@link ColumnarException}:
   * anything else is added to {@code failures}.
   */
  private static void rebuildsOrRefuses(
      byte[] hostile, byte[] bfbs, byte[] shard, String where, StringBuilder failures) {
    try {
      if (!Arrays.equals(ColumnarCopy.rebuild(hostile, bfbs), shard)) {
        failures.append(where + ": other bytes\n");
      }
    } catch (ColumnarException e) {
      // refused: as it should be
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      if (failures.length() < 4000) {
        failures.append(where + ": " + e + " at " + e.getStackTrace()[0] + "\n");
      }
    }
  }
}
