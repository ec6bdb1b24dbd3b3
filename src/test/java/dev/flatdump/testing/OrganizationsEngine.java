package dev.flatdump.testing;

import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgCodec;
import dev.flatdump.encode.engine.RejectedRecord;
import dev.flatdump.encode.engine.ShardBuilder;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.encode.plan.SchemaPlan;
import java.nio.ByteBuffer;
import java.util.List;
import org.bson.BsonBinaryWriter;
import org.bson.RawBsonDocument;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;

/**
 * What the export does with documents of the bundled {@code organizations.fbs}, with no database:
 * the engine's verdict on one, as the sample files and the bad-input corpus state it, and the
 * buffer it builds of several.
 */
public final class OrganizationsEngine {

  /** The verdict on a document the engine exports. */
  public static final String EXPORTED = "exported";

  private static final SchemaPlan PLAN = SchemaFiles.bundled().plan();

  private OrganizationsEngine() {}

  /**
   * The orgs, as BSON, through the export's engine into one finished buffer, copied to a buffer of
   * its own (position 0, as a file maps).
   */
  public static ByteBuffer encode(Sharing.Kinds kinds, List<Org> orgs) {
    ShardBuilder shard = new ShardBuilder(PLAN, kinds, false, 1024);
    for (Org org : orgs) {
      byte[] bson = bson(org);
      shard.add(bson, 0, bson.length);
    }
    ByteBuffer finished = shard.finish();
    byte[] bytes = new byte[finished.remaining()];
    finished.get(bytes);
    return ByteBuffer.wrap(bytes);
  }

  /** The org as a collection holds it: its BSON, as {@link OrgCodec} writes it (no {@code _id}). */
  public static byte[] bson(Org org) {
    BasicOutputBuffer out = new BasicOutputBuffer();
    new OrgCodec().encode(new BsonBinaryWriter(out), org, EncoderContext.builder().build());
    return out.toByteArray();
  }

  /** {@value #EXPORTED}, or the rejection as {@code field: reason} ({@code rejects.jsonl}'s). */
  public static String outcome(RawBsonDocument document) {
    ShardBuilder shard = new ShardBuilder(PLAN, Sharing.Kinds.ALL, false, 1 << 16);
    ByteBuffer b = document.getByteBuffer().asNIO();
    try {
      shard.add(b.array(), b.arrayOffset() + b.position(), b.remaining());
      return EXPORTED;
    } catch (RejectedRecord e) {
      return e.path() + ": " + e.reason();
    }
  }
}
