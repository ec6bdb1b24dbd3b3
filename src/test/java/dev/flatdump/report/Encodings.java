package dev.flatdump.report;

import dev.flatdump.Org;
import dev.flatdump.artifact.Compression;
import dev.flatdump.encode.DedupOptions;
import dev.flatdump.encode.FlatBufferOrgsBuilder;
import dev.flatdump.encode.OrgStreamEncoder;
import dev.flatdump.encode.StreamFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;

/** Encodes orgs directly, without the sizer, to check what the sizer measures. */
final class Encodings {

  static final Compression GZIP = Compression.create("gzip", null);
  static final Compression ZSTD = Compression.create("zstd", null);

  private Encodings() {}

  /** The bytes {@code baseline} encodes {@code orgs} to, as one shard or one stream. */
  static byte[] encode(Baseline baseline, List<Org> orgs) {
    return switch (baseline) {
      case PLAIN -> flatBuffers(DedupOptions.NONE, orgs);
      case STRINGS -> flatBuffers(DedupOptions.STRINGS_ONLY, orgs);
      case PROTOBUF -> stream(StreamFormat.PROTOBUF, orgs);
      case JSON -> stream(StreamFormat.JSON, orgs);
    };
  }

  static byte[] flatBuffers(DedupOptions dedup, List<Org> orgs) {
    var builder = new FlatBufferOrgsBuilder(dedup, 1024);
    orgs.forEach(builder::add);
    ByteBuffer finished = builder.finish();
    byte[] bytes = new byte[finished.remaining()];
    finished.get(bytes);
    return bytes;
  }

  static byte[] stream(StreamFormat format, List<Org> orgs) {
    var out = new ByteArrayOutputStream();
    try (OrgStreamEncoder encoder = OrgStreamEncoder.create(format, out)) {
      for (Org org : orgs) {
        encoder.write(org);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** The length of {@code bytes} compressed in one go. */
  static long compressedLength(Compression compression, byte[] bytes) {
    var out = new ByteArrayOutputStream();
    try (OutputStream compressed = compression.wrap(out)) {
      compressed.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.size();
  }
}
