package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.reader.ExportReader;
import dev.flatdump.reader.Snapshot;
import dev.flatdump.testing.ExportedOrgs;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dev.flatdump.reader} on exports that {@code flatdump export} wrote from a real mongod: it
 * reads what was exported, and moves to the next run's export while a held snapshot reads on.
 */
@ExtendWith(MongoDbExtension.class)
class ExportReaderOnCliExportsIT {

  @Test
  void readsTheCliExportAndReloadsToTheNextRun(
      MongoServer server, MongoDatabase db, @TempDir Path out) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 5, 300);
    String[] options = {"--new-run", "--shard-size", "16KiB"};
    CliRun first = ExportCommandIT.export(server, db, "orgs", out, options);
    assertThat(first.exitCode()).as(first.toString()).isZero();
    List<Org> firstOrgs = new OrgGenerator(Profile.REALISTIC, 5).stream().limit(300).toList();

    try (ExportReader reader = ExportReader.open(out)) {
      Snapshot held = reader.snapshot();
      assertThat(held.shardCount()).isGreaterThan(1);
      assertThat(held.records()).isEqualTo(300);
      assertThat(ExportedOrgs.of(held.shards())).isEqualTo(firstOrgs);

      ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 6, 50);
      CliRun second = ExportCommandIT.export(server, db, "orgs", out, options);
      assertThat(second.exitCode()).as(second.toString()).isZero();
      assertThat(reader.reload()).isTrue();
      try (Snapshot now = reader.snapshot()) {
        assertThat(now.id()).isNotEqualTo(held.id());
        assertThat(now.records()).isEqualTo(350);
        assertThat(ExportedOrgs.of(now.shards())).isEqualTo(ExportedOrgs.read(out));
      }

      assertThat(ExportedOrgs.of(held.shards())).isEqualTo(firstOrgs);
      String heldDir = held.directory() + "/";
      assertThat(mappedRegions(heldDir)).isEqualTo(held.shardCount());
      held.close();
      assertThat(mappedRegions(heldDir)).isZero();
    }
  }

  private static long mappedRegions(String prefix) throws Exception {
    return Files.readAllLines(Path.of("/proc/self/maps")).stream()
        .filter(l -> l.contains(prefix))
        .count();
  }
}
