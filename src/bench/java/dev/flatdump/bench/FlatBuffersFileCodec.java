package dev.flatdump.bench;

import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgCodec;
import dev.flatdump.encode.engine.ShardBuilder;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.schema.fb.Attribute;
import dev.flatdump.schema.fb.Organization;
import dev.flatdump.schema.fb.Organizations;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.bson.BsonBinaryWriter;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;

/**
 * A FlatBuffers row: some encoder builds the whole buffer on the heap, which is then written to the
 * file. Reads memory-map the file and go through the generated accessors, reusing one accessor
 * object per table type; the mapping is not {@code load()}ed, so only the pages read are touched.
 */
final class FlatBuffersFileCodec implements OrgFileCodec {

  private final String name;
  private final Function<List<Org>, ByteBuffer> encoder;

  /**
   * @param encoder builds the finished buffer: position at its first byte, limit at its end
   */
  FlatBuffersFileCodec(String name, Function<List<Org>, ByteBuffer> encoder) {
    this.name = Objects.requireNonNull(name, "name");
    this.encoder = Objects.requireNonNull(encoder, "encoder");
  }

  /**
   * A row written by the export's engine on the bundled {@code organizations.fbs} with {@code
   * kinds} of de-dup, from each org's BSON: the row makes the BSON first (in its time), as a
   * collection would hand it over, then encodes it as the export does.
   */
  static FlatBuffersFileCodec flatdump(String name, Sharing.Kinds kinds, int initialCapacity) {
    SchemaPlan plan = SchemaFiles.bundled().plan();
    return new FlatBuffersFileCodec(
        name,
        orgs -> {
          var codec = new OrgCodec();
          var context = EncoderContext.builder().build();
          var shard = new ShardBuilder(plan, kinds, false, initialCapacity);
          var bson = new BasicOutputBuffer();
          for (Org org : orgs) {
            bson.truncateToPosition(0);
            codec.encode(new BsonBinaryWriter(bson), org, context);
            shard.add(bson.getInternalBuffer(), 0, bson.getPosition());
          }
          return shard.finish();
        });
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String extension() {
    return "fb";
  }

  @Override
  public Object write(List<Org> orgs, Path file) throws IOException {
    ByteBuffer buffer = encoder.apply(orgs);
    try (FileChannel ch =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      ByteBuffer bytes = buffer.duplicate();
      while (bytes.hasRemaining()) {
        ch.write(bytes);
      }
    }
    return buffer;
  }

  @Override
  public long readSome(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      Organizations root =
          Organizations.getRootAsOrganizations(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()));
      var org = new Organization();
      var attr = new Attribute();
      var sum = new ReadChecksum();
      int count = root.organizationsLength();
      for (int i = 0; i < count; i++) {
        root.organizations(org, i);
        sum.string(org.name());
        int attributes = org.attributesLength();
        for (int j = 0; j < attributes; j++) {
          sum.string(org.attributes(attr, j).id());
        }
      }
      return sum.value();
    }
  }

  @Override
  public long readAll(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      Organizations root =
          Organizations.getRootAsOrganizations(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()));
      var org = new Organization();
      var a = new Attribute();
      var sum = new ReadChecksum();
      int count = root.organizationsLength();
      for (int i = 0; i < count; i++) {
        root.organizations(org, i);
        sum.string(org.name());
        sum.string(org.category());
        sum.number(org.type());
        sum.string(org.country());
        int attributes = org.attributesLength();
        for (int j = 0; j < attributes; j++) {
          org.attributes(a, j);
          sum.attribute(a.id(), a.quantity(), a.amount(), a.size(), a.percent(), a.active());
        }
      }
      return sum.value();
    }
  }
}
