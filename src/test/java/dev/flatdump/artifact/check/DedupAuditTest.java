package dev.flatdump.artifact.check;

import static dev.flatdump.testing.SchemaFixtures.bson;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.encode.engine.RecordEncoder;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit counts what the engine would have shared, on artifacts written with each kind of de-dup
 * off: exactly what the engine's own counts say it shared when on.
 */
class DedupAuditTest {

  private static final String SCHEMA =
      """
      table Attr { id: string; size: short; ratio: double; }
      table R { name: string; tags: [string]; attrs: [Attr]; ints: [int]; }
      table Root { rs: [R]; }
      root_type Root;
      """;

  @TempDir Path dir;

  private static List<byte[]> docs(int n) {
    List<byte[]> docs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      docs.add(
          bson(
              "{\"name\": \"name-"
                  + (i % 3)
                  + "\", \"tags\": [\"t1\", \"t"
                  + (i % 2)
                  + "\"], \"ints\": [1, "
                  + (i % 4)
                  + "],"
                  + " \"attrs\": [{\"id\": \"a\", \"size\": 3, \"ratio\": 0.5},"
                  + " {\"id\": \"b\", \"size\": "
                  + (i % 5)
                  + "}]}"));
    }
    return docs;
  }

  private static DedupAudit.Count count(List<DedupAudit.Count> counts, String kind) {
    return counts.stream().filter(c -> c.kind().equals(kind)).findFirst().orElseThrow();
  }

  private static long shared(Sharing sharing, String kind) {
    Sharing.Count c =
        sharing.counts().stream().filter(x -> x.kind().equals(kind)).findFirst().orElseThrow();
    return c.total() - c.unique();
  }

  @Test
  void findsNothingHeldTwiceWithEveryKindShared() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    Sharing sharing = new Sharing(fx.plan, Sharing.Kinds.ALL);
    ByteBuffer shard = fx.encode(new RecordEncoder(fx.plan, sharing, false), docs(60));

    List<DedupAudit.Count> audit = DedupAudit.audit(fx.plan, shard);

    assertThat(audit).extracting(DedupAudit.Count::duplicates).containsOnly(0L);
    assertThat(count(audit, "strings").objects()).isEqualTo(sharing.counts().get(0).unique());
    assertThat(count(audit, "Attr").objects()).isEqualTo(1 + 5);
  }

  @Test
  void countsEveryStringTheEngineWouldHaveShared() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    // strings only: every string is looked up (with tables shared, a sub-document met before is
    // not decoded again, so its strings are not counted again)
    Sharing all = new Sharing(fx.plan, Sharing.Kinds.parse("strings"));
    fx.encode(new RecordEncoder(fx.plan, all, false), docs(60));
    ByteBuffer plain =
        fx.encode(
            new RecordEncoder(fx.plan, new Sharing(fx.plan, Sharing.Kinds.NONE), false), docs(60));

    List<DedupAudit.Count> audit = DedupAudit.audit(fx.plan, plain);

    assertThat(count(audit, "strings").duplicates()).isEqualTo(shared(all, "strings")).isPositive();
    // vectors of scalars hold their own bytes: equal [int]s are found without shared children
    assertThat(count(audit, "vectors").duplicates()).isEqualTo(60 - 4);
  }

  @Test
  void tellsApartObjectsThatShareAHashByChance() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    ByteBuffer shared =
        fx.encode(
            new RecordEncoder(fx.plan, new Sharing(fx.plan, Sharing.Kinds.ALL), false), docs(60));
    ByteBuffer plain =
        fx.encode(
            new RecordEncoder(fx.plan, new Sharing(fx.plan, Sharing.Kinds.NONE), false), docs(60));

    // every object has the same hash: only the byte-for-byte comparison can tell them apart
    assertThat(DedupAudit.audit(fx.plan, shared, content -> 42L))
        .isEqualTo(DedupAudit.audit(fx.plan, shared));
    assertThat(DedupAudit.audit(fx.plan, plain, content -> 42L))
        .isEqualTo(DedupAudit.audit(fx.plan, plain));
    assertThat(count(DedupAudit.audit(fx.plan, plain), "strings").duplicates()).isPositive();
  }

  @Test
  void countsEveryTableTheEngineWouldHaveSharedOnceItsStringsAreShared() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    Sharing all = new Sharing(fx.plan, Sharing.Kinds.ALL);
    fx.encode(new RecordEncoder(fx.plan, all, false), docs(60));
    ByteBuffer stringsOnly =
        fx.encode(
            new RecordEncoder(fx.plan, new Sharing(fx.plan, Sharing.Kinds.parse("strings")), false),
            docs(60));

    List<DedupAudit.Count> audit = DedupAudit.audit(fx.plan, stringsOnly);

    assertThat(count(audit, "strings").duplicates()).isZero();
    assertThat(count(audit, "Attr").duplicates()).isEqualTo(shared(all, "Attr")).isPositive();
    assertThat(count(audit, "Attr").objects()).isEqualTo(120);
  }

  /** A union's member tables are found through its type field, as the engine shares them. */
  @Test
  void countsTheMembersOfUnionsAndTheEntriesOfMaps() throws Exception {
    SchemaFixtures fx =
        new SchemaFixtures(
            dir,
            """
            attribute "map";
            attribute "wrapper";
            table S (wrapper) { value: string; }
            table L (wrapper) { value: long; }
            union U { S, L }
            table E { key: string (key); value: int; }
            table R { u: U; m: [E] (map); }
            table Root { rs: [R]; }
            root_type Root;
            """);
    List<byte[]> docs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      docs.add(
          bson(
              "{\"u\": "
                  + (i % 2 == 0 ? "\"s" + (i % 4) + "\"" : "{\"$numberLong\": \"7\"}")
                  + ", \"m\": {\"a\": "
                  + (i % 3)
                  + "}}"));
    }
    Sharing all = new Sharing(fx.plan, Sharing.Kinds.parse("strings,tables"));
    fx.encode(new RecordEncoder(fx.plan, all, false), docs);
    ByteBuffer stringsOnly =
        fx.encode(
            new RecordEncoder(fx.plan, new Sharing(fx.plan, Sharing.Kinds.parse("strings")), false),
            docs);

    List<DedupAudit.Count> audit = DedupAudit.audit(fx.plan, stringsOnly);

    assertThat(count(audit, "S").objects()).isEqualTo(6);
    assertThat(count(audit, "S").duplicates()).isEqualTo(shared(all, "S")).isEqualTo(4);
    assertThat(count(audit, "L").duplicates()).isEqualTo(shared(all, "L")).isEqualTo(5);
    assertThat(count(audit, "E").duplicates()).isEqualTo(shared(all, "E")).isEqualTo(9);
    assertThat(count(audit, "R").duplicates()).isEqualTo(shared(all, "R"));
    Sharing again = new Sharing(fx.plan, Sharing.Kinds.ALL);
    assertThat(DedupAudit.audit(fx.plan, fx.encode(new RecordEncoder(fx.plan, again, false), docs)))
        .allSatisfy(c -> assertThat(c.duplicates()).as(c.kind()).isZero());
  }
}
