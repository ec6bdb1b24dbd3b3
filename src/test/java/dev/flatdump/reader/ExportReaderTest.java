package dev.flatdump.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.artifact.check.ExportCheckFixtures;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.schema.fb.Organization;
import dev.flatdump.schema.fb.Organizations;
import dev.flatdump.testing.ExportedOrgs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExportReaderTest {

  @BeforeAll
  static void unmapsAtOnceOnThisJdk() {
    assertThat(Unmapper.available()).as(String.valueOf(Unmapper.unavailableReason())).isTrue();
  }

  /** Every record's name, read through the generated classes. */
  private static List<String> names(Snapshot s) {
    List<String> names = new ArrayList<>();
    Organization o = new Organization();
    s.forEachRecord(
        Organizations::getRootAsOrganizations,
        Organizations::organizationsLength,
        (root, i) -> names.add(root.organizations(o, i).name()));
    return names;
  }

  @Nested
  class Open {

    @Test
    void readsEveryRecordOfTheCurrentExportThroughGeneratedClasses(@TempDir Path out) {
      Path dir = PublishedExports.publish(out, "2026-01-01-1", 2);
      List<Org> expected = ExportedOrgs.read(dir);
      try (ExportReader reader = ExportReader.open(out);
          Snapshot s = reader.snapshot()) {
        assertThat(s.id()).isEqualTo("2026-01-01-1");
        assertThat(s.shardCount()).isGreaterThan(1);
        assertThat(s.records()).isEqualTo(ExportCheckFixtures.ORGS);
        assertThat(s.shard(0).isReadOnly()).isTrue();
        assertThat(ExportedOrgs.of(s.shards())).isEqualTo(expected);
        assertThat(names(s)).isEqualTo(expected.stream().map(Org::name).toList());
        assertThat(s.roots(Organizations::getRootAsOrganizations))
            .hasSize(s.shardCount())
            .allMatch(r -> r.organizationsLength() > 0);
      }
    }

    @Test
    void followsTheCurrentFileWhereThereIsNoLink(@TempDir Path out) throws Exception {
      PublishedExports.publish(out, "2026-01-01-1", 2);
      Files.delete(out.resolve("current"));
      try (ExportReader reader = ExportReader.open(out)) {
        assertThat(reader.currentId()).isEqualTo("2026-01-01-1");
      }
    }

    @Test
    void opensAnExportsOwnDirectory(@TempDir Path out) {
      Path dir = PublishedExports.publish(out, "2026-01-01-1", 2);
      try (ExportReader reader = ExportReader.open(dir);
          Snapshot s = reader.snapshot()) {
        assertThat(names(s)).hasSize(ExportCheckFixtures.ORGS);
      }
    }

    @Test
    void refusesACorruptShardNamingIt(@TempDir Path out) throws Exception {
      Path dir = PublishedExports.publish(out, "2026-01-01-1", 2);
      ExportCheckFixtures.flipBit(dir.resolve("organizations-00001.fb"));
      assertThatThrownBy(() -> ExportReader.open(out))
          .isInstanceOf(ReaderException.class)
          .hasMessageContaining("organizations-00001.fb is corrupt: its SHA-256 is");
      assertThat(MappedRegions.under(out)).isZero();
    }

    @Test
    void withSizesOnlyACorruptByteIsReadAsDataButAShortShardIsStillRefused(@TempDir Path out)
        throws Exception {
      Path dir = PublishedExports.publish(out, "2026-01-01-1", 2);
      Path shard = dir.resolve("organizations-00001.fb");
      ExportCheckFixtures.flipBit(shard);
      try (ExportReader reader = ExportReader.open(out, ExportReader.Verify.SIZES)) {
        assertThat(reader.currentId()).isEqualTo("2026-01-01-1");
      }
      ExportCheckFixtures.truncate(shard, 100);
      assertThatThrownBy(() -> ExportReader.open(out, ExportReader.Verify.SIZES))
          .isInstanceOf(ReaderException.class)
          .hasMessageContaining("a short (truncated) shard");
      assertThat(MappedRegions.under(out)).isZero();
    }

    @Test
    void refusesAShortShardNamingIt(@TempDir Path out) throws Exception {
      Path dir = PublishedExports.publish(out, "2026-01-01-1", 2);
      ExportCheckFixtures.truncate(dir.resolve("organizations-00000.fb"), 10);
      assertThatThrownBy(() -> ExportReader.open(out))
          .isInstanceOf(ReaderException.class)
          .hasMessageContaining("organizations-00000.fb is ")
          .hasMessageContaining("a short (truncated) shard");
    }

    @Test
    void refusesAMissingShardNamingIt(@TempDir Path out) throws Exception {
      Path dir = PublishedExports.publish(out, "2026-01-01-1", 2);
      Files.delete(dir.resolve("organizations-00001.fb"));
      assertThatThrownBy(() -> ExportReader.open(out))
          .isInstanceOf(ReaderException.class)
          .hasMessageContaining("organizations-00001.fb is missing");
      assertThat(MappedRegions.under(out)).isZero();
    }

    @Test
    void refusesAMissingOrBrokenManifestNamingIt(@TempDir Path out) throws Exception {
      Path dir = PublishedExports.publish(out, "2026-01-01-1", 2);
      Path manifest = dir.resolve("manifest.json");
      String text = Files.readString(manifest);
      Files.writeString(manifest, text.substring(0, text.length() / 2));
      assertThatThrownBy(() -> ExportReader.open(out))
          .isInstanceOf(ReaderException.class)
          .hasMessageContaining("manifest.json is not a valid manifest");
      Files.writeString(manifest, text.replace("\"sha256\" : \"", "\"sha256\" : \"x"));
      assertThatThrownBy(() -> ExportReader.open(out))
          .hasMessageContaining("manifest.json is not a valid manifest")
          .hasMessageContaining("not a SHA-256");
      Files.delete(manifest);
      assertThatThrownBy(() -> ExportReader.open(out))
          .isInstanceOf(ReaderException.class)
          .hasMessageContaining("manifest.json is missing");
    }
  }

  @Nested
  class Reload {

    @Test
    void keepsAHeldSnapshotReadableThenUnmapsItOnClose(@TempDir Path out) {
      PublishedExports.publish(out, "2026-01-01-1", 2);
      List<String> refreshed = new CopyOnWriteArrayList<>();
      try (ExportReader reader = ExportReader.open(out)) {
        reader.addListener(
            new ReloadListener() {
              @Override
              public void refreshed(String oldId, String newId) {
                refreshed.add(oldId + " -> " + newId);
              }
            });
        Snapshot held = reader.snapshot();
        List<String> before = names(held);
        String oldDir = held.directory().toString() + "/";
        assertThat(reader.reload()).as("the pointer has not moved").isFalse();

        PublishedExports.publish(out, "2026-01-01-2", 2);
        assertThat(reader.reload()).isTrue();
        assertThat(reader.currentId()).isEqualTo("2026-01-01-2");
        assertThat(refreshed).containsExactly("2026-01-01-1 -> 2026-01-01-2");

        assertThat(names(held)).isEqualTo(before).hasSize(ExportCheckFixtures.ORGS);
        assertThat(MappedRegions.containing(oldDir)).isEqualTo(held.shardCount());
        Snapshot second = held.acquire();
        held.close();
        held.close();
        assertThat(names(second)).isEqualTo(before);
        assertThat(MappedRegions.containing(oldDir)).isEqualTo(second.shardCount());
        second.close();
        assertThat(MappedRegions.containing(oldDir)).isZero();
        assertThatThrownBy(() -> held.shard(0)).isInstanceOf(IllegalStateException.class);

        try (Snapshot now = reader.snapshot()) {
          assertThat(now.id()).isEqualTo("2026-01-01-2");
          assertThat(names(now)).isEqualTo(before);
        }
      }
      assertThat(MappedRegions.under(out)).isZero();
    }

    @Test
    void keepsTheOldExportWhenTheNewOneIsCorrupt(@TempDir Path out) throws Exception {
      PublishedExports.publish(out, "2026-01-01-1", 2);
      List<String> failures = new CopyOnWriteArrayList<>();
      try (ExportReader reader = ExportReader.open(out)) {
        reader.addListener(
            new ReloadListener() {
              @Override
              public void failed(Path dir, String currentId, ReaderException cause) {
                failures.add(currentId + ": " + cause.getMessage());
              }
            });
        Path broken = PublishedExports.publish(out, "2026-01-01-2", 2);
        ExportCheckFixtures.flipBit(broken.resolve("organizations-00000.fb"));
        assertThat(reader.reload()).isFalse();
        assertThat(reader.currentId()).isEqualTo("2026-01-01-1");
        assertThat(failures)
            .singleElement()
            .asString()
            .startsWith("2026-01-01-1: ")
            .contains("2026-01-01-2/organizations-00000.fb is corrupt");
        assertThat(MappedRegions.containing(broken.toString() + "/")).isZero();
        try (Snapshot s = reader.snapshot()) {
          assertThat(names(s)).hasSize(ExportCheckFixtures.ORGS);
        }

        PublishedExports.publish(out, "2026-01-01-3", 2);
        assertThat(reader.reload()).isTrue();
        assertThat(reader.currentId()).isEqualTo("2026-01-01-3");
      }
    }

    @Test
    void aRefusedExportIsNotOpenedAgainUntilThePointerOrItsManifestChanges(@TempDir Path out)
        throws Exception {
      PublishedExports.publish(out, "2026-01-01-1", 2);
      List<String> failures = new CopyOnWriteArrayList<>();
      try (ExportReader reader = ExportReader.open(out)) {
        reader.addListener(
            new ReloadListener() {
              @Override
              public void failed(Path dir, String currentId, ReaderException cause) {
                failures.add(cause.getMessage());
              }
            });
        Path broken = PublishedExports.publish(out, "2026-01-01-2", 2);
        ExportCheckFixtures.flipBit(broken.resolve("organizations-00000.fb"));
        assertThat(reader.reload()).isFalse();
        // every poll of a follower: the refused export is not read (and checked) again
        assertThat(reader.reload()).isFalse();
        assertThat(reader.reload()).isFalse();
        assertThat(failures).hasSize(1);

        Path manifest = broken.resolve("manifest.json");
        Files.setLastModifiedTime(
            manifest,
            java.nio.file.attribute.FileTime.fromMillis(
                Files.getLastModifiedTime(manifest).toMillis() + 5_000));
        assertThat(reader.reload()).isFalse();
        assertThat(failures).as("a changed manifest is tried again").hasSize(2);

        PublishedExports.publish(out, "2026-01-01-3", 2);
        assertThat(reader.reload()).isTrue();
        assertThat(reader.currentId()).isEqualTo("2026-01-01-3");
      }
    }

    @Test
    void closingTheReaderEndsItsFollowersAtOnce(@TempDir Path out) throws Exception {
      PublishedExports.publish(out, "2026-01-01-1", 2);
      ExportReader reader = ExportReader.open(out);
      reader.follow(java.time.Duration.ofMinutes(10));
      String name = "flatdump-reader-follow " + out.getFileName();
      assertThat(followers(name)).isOne();
      reader.close();
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (followers(name) > 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(followers(name)).as("the follower thread outlives its closed reader").isZero();
    }

    private static long followers(String name) {
      return Thread.getAllStackTraces().keySet().stream()
          .filter(t -> t.isAlive() && t.getName().equals(name))
          .count();
    }

    @Test
    void keepsTheOldExportWhenThePointerNamesNothing(@TempDir Path out) throws Exception {
      PublishedExports.publish(out, "2026-01-01-1", 2);
      List<String> failures = new CopyOnWriteArrayList<>();
      try (ExportReader reader = ExportReader.open(out)) {
        reader.addListener(
            new ReloadListener() {
              @Override
              public void failed(Path dir, String currentId, ReaderException cause) {
                failures.add(cause.getMessage());
              }
            });
        Files.delete(out.resolve("current"));
        Files.writeString(out.resolve("CURRENT"), "exports/2026-01-01-9\n");
        assertThat(reader.reload()).isFalse();
        assertThat(reader.currentId()).isEqualTo("2026-01-01-1");
        assertThat(failures)
            .singleElement()
            .asString()
            .contains("2026-01-01-9/manifest.json is missing");
      }
    }

    @Test
    void eightReadersWhileExportsArePublishedMapABoundedNumberOfRegions(@TempDir Path out)
        throws Exception {
      int exports = 30;
      int readers = 8;
      // each export of other orgs, so that a reader can tell which export it read
      Map<String, List<String>> namesById = new HashMap<>();
      for (int k = 0; k <= exports; k++) {
        namesById.put(
            "2026-01-01-" + k, ExportCheckFixtures.orgs(100 + k).stream().map(Org::name).toList());
      }
      PublishedExports.publish(out, "2026-01-01-0", 2, 100);
      int shards;
      try (ExportReader reader = ExportReader.open(out)) {
        try (Snapshot s = reader.snapshot()) {
          assertThat(names(s)).isEqualTo(namesById.get(s.id()));
          shards = s.shardCount();
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong reads = new AtomicLong();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < readers; t++) {
          Thread thread =
              new Thread(
                  () -> {
                    while (!stop.get()) {
                      try (Snapshot s = reader.snapshot();
                          Snapshot again = s.acquire()) {
                        List<String> names = names(s);
                        if (!names.equals(namesById.get(s.id())) || !names(again).equals(names)) {
                          throw new AssertionError(s.id() + " read other records than its own");
                        }
                        seen.add(s.id());
                        reads.incrementAndGet();
                      } catch (Throwable e) {
                        errors.add(e);
                        return;
                      }
                    }
                  });
          thread.start();
          threads.add(thread);
        }
        long most = 0;
        for (int k = 1; k <= exports; k++) {
          PublishedExports.publish(out, "2026-01-01-" + k, 2, 100 + k);
          assertThat(reader.reload()).as("reload %d", k).isTrue();
          most = Math.max(most, MappedRegions.under(out));
        }
        stop.set(true);
        for (Thread thread : threads) {
          thread.join();
        }
        assertThat(errors).isEmpty();
        assertThat(reads.get()).isGreaterThan(exports);
        assertThat(seen).as("the readers saw several exports").hasSizeGreaterThan(1);
        // each reader holds one export at a time, and the reader the current one: never N's worth
        assertThat(most).isLessThanOrEqualTo((long) shards * (readers + 1));
        assertThat(MappedRegions.under(out)).isEqualTo(shards);
        assertThat(reader.currentId()).isEqualTo("2026-01-01-" + exports);
      }
      assertThat(MappedRegions.under(out)).isZero();
    }

    @Test
    void refusesSnapshotsOnceClosed(@TempDir Path out) {
      PublishedExports.publish(out, "2026-01-01-1", 2);
      ExportReader reader = ExportReader.open(out);
      Snapshot held = reader.snapshot();
      reader.close();
      reader.close();
      assertThatThrownBy(reader::snapshot).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(reader::reload).isInstanceOf(IllegalStateException.class);
      assertThat(names(held)).hasSize(ExportCheckFixtures.ORGS);
      held.close();
      assertThat(MappedRegions.under(out)).isZero();
      assertThatThrownBy(held::acquire).isInstanceOf(IllegalStateException.class);
    }
  }
}
