package dev.flatdump.columnar;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.flatbuffers.FlatBufferBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Shards the engine's random schemas may not make, written with FlatBufferBuilder itself: structs
 * with padding, nested; bools other than 0 and 1; byte vectors; unions with NONE; a table and a
 * string reached from two fields; empty vectors shared by vectors of other types; a vtable shared
 * by tables of two types; a vtable of 256 bytes; NaN payloads and -0.0; strings holding NULs; an
 * empty root; no file identifier.
 */
class EdgeShardTest {

  static byte[] bfbs() throws IOException {
    try (InputStream in = EdgeShardTest.class.getResourceAsStream("/hostile/edge.bfbs")) {
      return in.readAllBytes();
    }
  }

  private static int pad(FlatBufferBuilder b, int a, long x, short c) {
    b.prep(8, 24);
    b.pad(6);
    b.putShort(c);
    b.putLong(x);
    b.pad(7);
    b.putByte((byte) a);
    return b.offset();
  }

  private static int outer(FlatBufferBuilder b, int a, long x, short c, byte d) {
    b.prep(8, 32);
    b.pad(7);
    b.putByte(d);
    pad(b, a, x, c);
    return b.offset();
  }

  private static int leaf(FlatBufferBuilder b, int s) {
    b.startTable(1);
    b.addOffset(0, s, 0);
    return b.endTable();
  }

  private static int other(FlatBufferBuilder b, int x) {
    b.startTable(1);
    b.addInt(0, x, 0);
    return b.endTable();
  }

  static byte[] shard(long seed, int records, boolean identifier, boolean dedupVtables) {
    Random rnd = new Random(seed);
    FlatBufferBuilder b = new FlatBufferBuilder(64);
    b.forceDefaults(rnd.nextBoolean());
    int sharedEmpty = -1;
    int[] recs = new int[records];
    for (int i = 0; i < records; i++) {
      int id = b.createString("r\0" + i + "\0");
      int pads = -1;
      if (rnd.nextBoolean()) {
        int n = rnd.nextInt(4);
        b.startVector(24, n, 8);
        for (int k = n - 1; k >= 0; k--) {
          pad(b, rnd.nextInt(256), rnd.nextLong(), (short) rnd.nextInt());
        }
        pads = b.endVector();
      }
      int flags = -1;
      if (rnd.nextBoolean()) {
        int n = 1 + rnd.nextInt(40);
        b.startVector(1, n, 1);
        for (int k = 0; k < n; k++) {
          b.putByte((byte) (rnd.nextInt(4) == 0 ? rnd.nextInt(256) : rnd.nextInt(2)));
        }
        flags = b.endVector();
      }
      byte[] raw = new byte[rnd.nextInt(70)];
      rnd.nextBytes(raw);
      int ubytes = b.createByteVector(raw);
      int sbytes = b.createByteVector(new byte[rnd.nextInt(3)]);
      int uType = rnd.nextInt(3);
      int u =
          uType == 1 ? leaf(b, b.createString("u" + i)) : uType == 2 ? other(b, rnd.nextInt()) : 0;
      int leaf = leaf(b, id); // the record's id, reached twice
      int ints;
      int longs;
      if (sharedEmpty < 0 || rnd.nextBoolean()) {
        b.startVector(4, 0, 4);
        ints = b.endVector();
        sharedEmpty = ints;
      } else {
        ints = sharedEmpty;
      }
      if (rnd.nextBoolean()) {
        longs = sharedEmpty; // an empty [int] as an empty [long]
      } else {
        b.startVector(8, 2, 8);
        b.putLong(rnd.nextLong());
        b.putLong(Long.MIN_VALUE);
        longs = b.endVector();
      }
      int wide = -1;
      if (rnd.nextBoolean()) {
        b.startTable(126);
        for (int k = 0; k < 126; k++) {
          b.addInt(k, k % 5 == 0 ? 0 : rnd.nextInt(), 0);
        }
        wide = b.endTable();
      }
      int[] ls = {leaf, leaf(b, b.createString("")), leaf};
      int leaves = b.createVectorOfTables(ls);
      int names = b.createVectorOfTables(new int[] {id, id});
      b.startTable(18);
      b.addOffset(0, id, 0);
      if (pads >= 0) {
        b.addOffset(1, pads, 0);
      }
      if (rnd.nextBoolean()) {
        b.addStruct(2, outer(b, rnd.nextInt(256), rnd.nextLong(), (short) 7, (byte) -3), 0);
      }
      if (flags >= 0) {
        b.addOffset(3, flags, 0);
      }
      b.addOffset(4, ubytes, 0);
      b.addOffset(5, sbytes, 0);
      if (uType != 0) {
        b.addByte(6, (byte) uType, 0);
        b.addOffset(7, u, 0);
      } else if (rnd.nextBoolean()) {
        b.addByte(6, (byte) 0, 0); // NONE
      }
      b.addOffset(8, leaf, 0);
      b.addOffset(9, leaf, 0);
      b.addOffset(10, ints, 0);
      b.addOffset(11, longs, 0);
      float[] fs = {Float.intBitsToFloat(0x7fc00001), -0.0f, Float.intBitsToFloat(0xffbfffff), 1f};
      b.addFloat(12, fs[rnd.nextInt(fs.length)], 0);
      double[] ds = {
        Double.longBitsToDouble(0x7ff0000000000001L), -0.0, Double.NaN, Double.MIN_VALUE
      };
      b.addDouble(13, ds[rnd.nextInt(ds.length)], 0);
      if (wide >= 0) {
        b.addOffset(15, wide, 0);
      }
      b.addOffset(16, leaves, 0);
      b.addOffset(17, names, 0);
      recs[i] = b.endTable();
    }
    int rs = -1;
    if (records > 0 || rnd.nextBoolean()) {
      rs = b.createVectorOfTables(recs);
    }
    b.startTable(1);
    if (rs >= 0) {
      b.addOffset(0, rs, 0);
    }
    int root = b.endTable();
    if (identifier) {
      b.finish(root, "EDGE");
    } else {
      b.finish(root);
    }
    return b.sizedByteArray();
  }

  @Test
  void edgeShardsRebuild() throws IOException {
    byte[] bfbs = bfbs();
    StringBuilder failures = new StringBuilder();
    for (long seed = 0; seed < 300; seed++) {
      int records = (int) (seed % 7);
      byte[] shard = shard(seed, records, seed % 3 != 0, true);
      try {
        byte[] copy = ColumnarCopy.write(shard, bfbs, 3);
        assertThat(ColumnarCopy.rebuild(copy, bfbs)).isEqualTo(shard);
      } catch (RuntimeException | AssertionError e) {
        failures.append("seed ").append(seed).append(": ").append(e).append('\n');
      }
    }
    assertThat(failures.toString()).isEmpty();
  }
}
