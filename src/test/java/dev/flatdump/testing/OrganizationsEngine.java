package dev.flatdump.testing;

import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.encode.engine.RejectedRecord;
import dev.flatdump.encode.engine.ShardBuilder;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.encode.plan.SchemaPlan;
import java.nio.ByteBuffer;
import org.bson.RawBsonDocument;

/**
 * What the export does with one document of the bundled {@code organizations.fbs}, with no
 * database: the engine's verdict, as the sample files and the bad-input corpus state it.
 */
public final class OrganizationsEngine {

  /** The verdict on a document the engine exports. */
  public static final String EXPORTED = "exported";

  private static final SchemaPlan PLAN = SchemaFiles.bundled().plan();

  private OrganizationsEngine() {}

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
