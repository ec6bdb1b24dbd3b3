package dev.flatdump.reader.s3;

import com.github.luben.zstd.Zstd;
import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.columnar.ColumnarCopy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPOutputStream;

/**
 * Tiny exports published into a {@link FakeObjects} as {@code export --upload} lays them out:
 * shards of the test schema {@code pull/tiny.fbs} built with flatbuffers-java, their gzip, zstd and
 * columnar copies as asked, the schema, its binary schema ({@code pull/tiny.bfbs}, made once with
 * flatc 2.0.8), a rejects file and the manifest listing them all (data shards first).
 */
final class TinyExports {

  static final String PREFIX = "s3://bkt/p";
  static final String FBS = "tiny.fbs";
  static final String BFBS = "tiny.bfbs";

  final FakeObjects s3;

  TinyExports(FakeObjects s3) {
    this.s3 = s3;
  }

  /** One published export: its files' bytes by name (the manifest's too). */
  record Export(String name, Map<String, byte[]> files) {
    byte[] file(String fileName) {
      return files.get(fileName);
    }
  }

  static byte[] resource(String name) {
    try (InputStream in = TinyExports.class.getResourceAsStream("/pull/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no test resource pull/" + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Shard {@code index} of export {@code seed}: {@code records} records of the tiny schema. */
  static byte[] shard(int seed, int index, int records) {
    FlatBufferBuilder b = new FlatBufferBuilder(1024);
    int[] recs = new int[records];
    for (int i = 0; i < records; i++) {
      int id = b.createString("rec-" + seed + "-" + index + "-" + i);
      int[] t = {b.createString("tag" + (i % 3)), b.createString("x" + (i * 7 % 5))};
      int tags = b.createVectorOfTables(t);
      b.startTable(4);
      b.addOffset(0, id, 0);
      b.addLong(1, (long) i * 1_000_003L + seed, 0);
      b.addDouble(2, i * 0.25 + index, 0);
      b.addOffset(3, tags, 0);
      recs[i] = b.endTable();
    }
    int rs = b.createVectorOfTables(recs);
    b.startTable(1);
    b.addOffset(0, rs, 0);
    int root = b.endTable();
    b.finish(root, "TINY");
    return b.sizedByteArray();
  }

  /**
   * Publishes export {@code name} (two shards) with the copies {@code compress} names ({@code
   * gzip}, {@code zstd}, {@code columnar}) and points {@code CURRENT} at it. {@code tamper} may
   * change each file's bytes (by name) as uploaded and listed, after its shard's copies are made.
   */
  Export publish(
      String name, int seed, List<String> compress, Map<String, UnaryOperator<byte[]>> tamper) {
    byte[] bfbs = resource(BFBS);
    Map<String, byte[]> files = new LinkedHashMap<>();
    List<byte[]> shards = List.of(shard(seed, 0, 40), shard(seed, 1, 25));
    for (int i = 0; i < shards.size(); i++) {
      String shardName = "t-" + String.format("%05d", i) + ".fb";
      files.put(shardName, shards.get(i));
    }
    for (String c : compress) {
      for (int i = 0; i < shards.size(); i++) {
        String shardName = "t-" + String.format("%05d", i) + ".fb";
        byte[] shard = shards.get(i);
        String copyName;
        byte[] copy;
        switch (c) {
          case "gzip" -> {
            copyName = shardName + ".gz";
            copy = gzip(shard);
          }
          case "zstd" -> {
            copyName = shardName + ".zst";
            copy = Zstd.compress(shard, 3);
          }
          case "columnar" -> {
            copyName = ColumnarCopy.copyName(shardName);
            copy = ColumnarCopy.write(shard, bfbs, ColumnarCopy.DEFAULT_LEVEL);
          }
          default -> throw new IllegalArgumentException(c);
        }
        files.put(copyName, copy);
      }
    }
    byte[] rejects = new byte[0];
    files.put("rejects.jsonl", rejects);
    files.put(FBS, resource(FBS));
    files.put(BFBS, bfbs);
    // tampering happens last, and the manifest lists what is uploaded
    for (var t : tamper.entrySet()) {
      files.put(t.getKey(), t.getValue().apply(files.get(t.getKey()).clone()));
    }
    List<String> entries = new ArrayList<>();
    for (var f : files.entrySet()) {
      String n = f.getKey();
      Long shard = null;
      String format;
      Long records = null;
      if (n.endsWith(".fb")) {
        format = "flatbuffers";
        shard = (long) Integer.parseInt(n.substring(2, 7));
        records = (long) (40 - 15 * shard);
      } else if (n.endsWith(".gz")) {
        format = "gzip";
        shard = (long) Integer.parseInt(n.substring(2, 7));
      } else if (n.endsWith(".zst")) {
        format = "zstd";
        shard = (long) Integer.parseInt(n.substring(2, 7));
      } else if (n.endsWith(".fbc")) {
        format = "columnar";
        shard = (long) Integer.parseInt(n.substring(2, 7));
      } else if (n.endsWith(".jsonl")) {
        format = "jsonl";
        records = 0L;
      } else {
        format = n.endsWith(".bfbs") ? "bfbs" : "fbs";
      }
      entries.add(entry(n, format, f.getValue(), shard, records));
    }
    String manifest =
        "{\"formatVersion\": 1, \"schema\": {\"file\": \""
            + FBS
            + "\", \"fileIdentifier\": \"TINY\", \"binary\": \""
            + BFBS
            + "\"}, \"files\": ["
            + String.join(", ", entries)
            + "], \"startedAt\": \"2026-11-29T01:00:00Z\", \"finishedAt\": \"2026-11-29T01:00:0"
            + seed
            + "Z\"}";
    Map<String, byte[]> all = new LinkedHashMap<>(files);
    all.put(LocalExports.MANIFEST, manifest.getBytes(StandardCharsets.UTF_8));
    S3Prefix prefix = S3Prefix.parse(PREFIX);
    for (var f : all.entrySet()) {
      s3.objects.put(prefix.key("exports/" + name + "/" + f.getKey()), f.getValue());
    }
    s3.objects.put(
        prefix.key(LocalExports.CURRENT_FILE),
        ("exports/" + name + "\n").getBytes(StandardCharsets.UTF_8));
    return new Export(name, all);
  }

  static String key(String export, String file) {
    return S3Prefix.parse(PREFIX).key("exports/" + export + "/" + file);
  }

  private static String entry(String name, String format, byte[] bytes, Number shard, Number rec) {
    return "{\"name\": \""
        + name
        + "\", \"format\": \""
        + format
        + "\", \"bytes\": "
        + bytes.length
        + ", \"sha256\": \""
        + sha256(bytes)
        + "\""
        + (shard == null ? "" : ", \"shard\": " + shard)
        + (rec == null ? "" : ", \"records\": " + rec)
        + "}";
  }

  static String sha256(byte[] b) {
    return java.util.HexFormat.of().formatHex(ObjectDownload.newDigest().digest(b));
  }

  private static byte[] gzip(byte[] b) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(b);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
