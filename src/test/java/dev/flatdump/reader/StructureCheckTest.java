package dev.flatdump.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.check.ExportCheckFixtures;
import dev.flatdump.artifact.check.SchemaVerifier;
import dev.flatdump.artifact.read.RecordJson;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader's structural check from the shipped binary schema ({@link StructureCheck}), on real
 * shards: sound ones pass (the engine's shards of random schemas pass too, in {@code
 * GenerativeEngineTest}); damaged ones are refused with what and where, and no damage makes it
 * throw; {@link ExportReader} refuses, by name, a shard whose checksum matches but whose structure
 * is broken.
 */
class StructureCheckTest {

  private static ByteBuffer le(byte[] bytes) {
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  @Test
  void soundShardsPassAndDamagedOnesAreRefusedNeverThrown(@TempDir Path dir) throws Exception {
    ExportCheckFixtures.export(dir);
    BinarySchema schema =
        BinarySchema.read(le(Files.readAllBytes(dir.resolve("organizations.bfbs"))));
    StructureCheck check = new StructureCheck(schema);
    byte[] shard = Files.readAllBytes(dir.resolve("organizations-00000.fb"));
    assertThat(check.check(le(shard))).isNull();

    Random random = new Random(5);
    int refused = 0;
    int agreed = 0;
    for (int i = 0; i < 3000; i++) {
      byte[] damaged = shard.clone();
      for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
        damaged[random.nextInt(damaged.length)] ^= (byte) (1 << random.nextInt(8));
      }
      String verdict = check.check(le(damaged)); // must not throw, whatever the damage
      boolean app = SchemaVerifier.verify(SchemaFiles.bundled().plan(), le(damaged)).valid();
      refused += verdict == null ? 0 : 1;
      agreed += (verdict == null) == app ? 1 : 0;
    }
    assertThat(refused).as("damaged shards refused").isGreaterThan(300);
    assertThat(agreed).as("verdicts the app's own SchemaVerifier shares").isGreaterThan(2700);
    for (int n = 0; n < shard.length; n += 1 + shard.length / 200) {
      ByteBuffer cut = le(shard).limit(n);
      assertThat(check.check(cut)).as("the first %d bytes", n).isNotNull();
    }
  }

  @Test
  void aDamagedBinarySchemaIsRefusedOrChecksWithoutThrowing(@TempDir Path dir) throws Exception {
    ExportCheckFixtures.export(dir);
    byte[] bfbs = Files.readAllBytes(dir.resolve("organizations.bfbs"));
    byte[] shard = Files.readAllBytes(dir.resolve("organizations-00000.fb"));
    for (int at = 0; at < bfbs.length; at++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] damaged = bfbs.clone();
        damaged[at] ^= (byte) (1 << bit);
        BinarySchema schema;
        try {
          schema = BinarySchema.read(le(damaged));
        } catch (ReaderException refused) {
          continue;
        } catch (RuntimeException e) {
          throw new AssertionError("bit " + bit + " of byte " + at + ": read threw " + e, e);
        }
        try {
          new StructureCheck(schema).check(le(shard)); // a verdict, whatever it is
        } catch (RuntimeException e) {
          throw new AssertionError("bit " + bit + " of byte " + at + ": check threw " + e, e);
        }
      }
    }
  }

  @Test
  void genericRecordsReadWhatTheAppsPlanReads(@TempDir Path out) throws Exception {
    PublishedExports.publish(out, "2026-01-01-1", 2);
    try (ExportReader reader = ExportReader.open(out);
        Snapshot s = reader.snapshot()) {
      BinarySchema schema =
          BinarySchema.read(
              le(Files.readAllBytes(s.directory().resolve(s.manifest().binarySchemaFile()))));
      GenericRecords generic = GenericRecords.withDefaults(schema);
      RecordJson app = RecordJson.withDefaults(SchemaFiles.bundled().plan());
      int records = 0;
      for (int i = 0; i < s.shardCount(); i++) {
        ByteBuffer shard = s.shard(i);
        assertThat(generic.count(shard)).isEqualTo(app.count(shard));
        for (int r = 0; r < app.count(shard); r++) {
          assertThat(generic.json(shard, r)).isEqualTo(app.record(shard, r));
          records++;
        }
      }
      assertThat(records).isEqualTo(ExportCheckFixtures.ORGS);
      assertThat(GenericRecords.of(schema).json(s.shard(0), 0))
          .as("without defaults: no false or 0 the buffer leaves out")
          .doesNotContain("\"active\":false");
    }
  }

  @Test
  void saysWhatIsBrokenAndWhere(@TempDir Path dir) throws Exception {
    ExportCheckFixtures.export(dir);
    StructureCheck check =
        new StructureCheck(
            BinarySchema.read(le(Files.readAllBytes(dir.resolve("organizations.bfbs")))));
    byte[] shard = Files.readAllBytes(dir.resolve("organizations-00000.fb"));

    byte[] outside = shard.clone();
    le(outside).putInt(0, outside.length + 100);
    assertThat(check.check(le(outside))).contains("the root", "points outside the buffer");

    // the first organization's vtable entry for name (required, id 0) zeroed
    byte[] noName = shard.clone();
    ByteBuffer bb = le(noName);
    int root = bb.getInt(0);
    int vtable = root - bb.getInt(root);
    int field = root + (bb.getShort(vtable + 4) & 0xffff);
    int vector = field + bb.getInt(field);
    int org = vector + 4 + bb.getInt(vector + 4);
    int orgVtable = org - bb.getInt(org);
    bb.putShort(orgVtable + 4, (short) 0);
    assertThat(check.check(le(noName)))
        .contains("the root.organizations[0].name: a required field is missing");
  }

  @Test
  void theReaderRefusesAShardWhoseChecksumMatchesButWhoseStructureIsBroken(@TempDir Path out)
      throws Exception {
    Path dir = PublishedExports.publish(out, "2026-01-01-1", 2);
    Path shard = dir.resolve("organizations-00001.fb");
    byte[] bytes = Files.readAllBytes(shard);
    le(bytes).putInt(0, bytes.length + 100);
    Files.write(shard, bytes);
    String sha = Checksums.sha256(shard);
    ExportCheckFixtures.rewriteFiles(
        dir,
        f ->
            f.name().equals("organizations-00001.fb")
                ? new ArtifactFile(f.name(), f.format(), f.bytes(), sha, f.shard(), f.records())
                : f);

    assertThatThrownBy(() -> ExportReader.open(out))
        .isInstanceOf(ReaderException.class)
        .hasMessageContaining("organizations-00001.fb is not a FlatBuffer of its schema")
        .hasMessageContaining("points outside the buffer");
    assertThat(MappedRegions.under(out)).isZero();
    try (ExportReader reader = ExportReader.open(out, ExportReader.Verify.CHECKSUMS)) {
      assertThat(reader.currentId()).as("checksums alone let it through").isEqualTo("2026-01-01-1");
    }
  }
}
