package dev.flatdump.testing;

import dev.flatdump.artifact.read.SchemaArtifact;
import dev.flatdump.bench.samples.Attr;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgType;
import dev.flatdump.schema.fb.Attribute;
import dev.flatdump.schema.fb.Organization;
import dev.flatdump.schema.fb.Organizations;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The organizations an export of {@code organizations.fbs} holds, read back as a consumer reads
 * them: the shards mapped and verified by {@link SchemaArtifact}, each record through the classes
 * flatc generates from the schema.
 */
public final class ExportedOrgs {

  private ExportedOrgs() {}

  /** An output directory's current export, an export's directory, or one shard in one. */
  public static List<Org> read(Path path) {
    return of(SchemaArtifact.open(path).shards());
  }

  /** The records of the shards, in order. */
  public static List<Org> of(List<? extends ByteBuffer> shards) {
    List<Org> orgs = new ArrayList<>();
    Organization o = new Organization();
    Attribute a = new Attribute();
    for (ByteBuffer shard : shards) {
      Organizations root = Organizations.getRootAsOrganizations(shard.duplicate());
      for (int i = 0; i < root.organizationsLength(); i++) {
        root.organizations(o, i);
        List<Attr> attributes = new ArrayList<>(o.attributesLength());
        for (int j = 0; j < o.attributesLength(); j++) {
          o.attributes(a, j);
          attributes.add(
              new Attr(a.id(), a.quantity(), a.amount(), a.size(), a.percent(), a.active()));
        }
        orgs.add(
            new Org(o.name(), o.category(), o.country(), OrgType.values()[o.type()], attributes));
      }
    }
    return orgs;
  }
}
