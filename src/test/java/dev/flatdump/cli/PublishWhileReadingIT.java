package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.artifact.read.RecordJson;
import dev.flatdump.artifact.read.SchemaArtifact;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A consumer reads the output directory while exports publish into it, one after another: whatever
 * moment it looks, it finds one complete export, never shards of one export under the manifest of
 * another.
 */
@ExtendWith(MongoDbExtension.class)
class PublishWhileReadingIT {

  private static final int EXPORTS = 6;

  @Test
  @Timeout(300)
  void aReaderNeverSeesTwoExportsMixed(MongoServer mongo, MongoDatabase db, @TempDir Path out)
      throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 1, 200);
    AtomicBoolean publishing = new AtomicBoolean(true);
    AtomicInteger checks = new AtomicInteger();
    AtomicInteger vanished = new AtomicInteger();
    List<String> mismatches = new ArrayList<>();
    AtomicReference<Throwable> readerFailed = new AtomicReference<>();
    Thread reader =
        new Thread(
            () -> {
              try {
                int mappedSinceGc = 0;
                while (publishing.get() || checks.get() < 200) {
                  mappedSinceGc += check(out, checks.get() % 2 == 0, checks, vanished, mismatches);
                  // A mapping goes only when its buffer is collected, and this loop maps shards
                  // far faster than it fills the heap: without a collection now and then, it
                  // reaches the kernel's limit of mappings per process (vm.max_map_count).
                  if (mappedSinceGc > MAPPINGS_BETWEEN_GCS) {
                    System.gc();
                    mappedSinceGc = 0;
                  }
                }
              } catch (Throwable t) {
                readerFailed.set(t);
              }
            },
            "reader");
    reader.start();
    List<String> names = new ArrayList<>();
    try {
      for (int i = 0; i < EXPORTS; i++) {
        // each export holds other documents, so its shards differ from the one before
        ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 100 + i, 40);
        CliRun run =
            ExportCommandIT.export(
                mongo, db, "orgs", out, "--new-run", "--shard-size", "4KiB", "--compress", "none");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        names.add(OutputLayout.resolve(out).getFileName().toString());
      }
    } finally {
      publishing.set(false);
      reader.join(120_000);
    }

    assertThat(readerFailed.get()).as("the reader's own failure").isNull();
    assertThat(mismatches).as("checks that found two exports mixed").isEmpty();
    assertThat(checks.get()).as("complete checks").isGreaterThanOrEqualTo(200);
    assertThat(names).as("every run published an export of its own").doesNotHaveDuplicates();
    try (var dirs = Files.list(out.resolve(OutputLayout.EXPORTS))) {
      assertThat(dirs.map(p -> p.getFileName().toString()))
          .as("the default --keep 2")
          .containsExactlyInAnyOrderElementsOf(names.subList(EXPORTS - 2, EXPORTS));
    }
    System.out.printf(
        "PublishWhileReadingIT: %d checks during %d publishes, %d found their export removed"
            + " meanwhile and looked again%n",
        checks.get(), EXPORTS, vanished.get());
  }

  /** Well under the kernel's default limit of 65,530 mappings per process. */
  private static final int MAPPINGS_BETWEEN_GCS = 10_000;

  /**
   * Follows the pointer (the link, or the text file), reads the manifest there, maps the shards it
   * lists and compares each mapped shard's SHA-256 and record count with the manifest. Returns how
   * many shards it mapped.
   */
  private static int check(
      Path out,
      boolean byLink,
      AtomicInteger checks,
      AtomicInteger vanished,
      List<String> mismatches) {
    Path dir;
    if (byLink) {
      if (!Files.isSymbolicLink(out.resolve(OutputLayout.CURRENT_LINK))) {
        Thread.onSpinWait();
        return 0; // nothing published yet
      }
      dir = OutputLayout.resolve(out);
    } else {
      var name = OutputLayout.currentName(out);
      if (name.isEmpty()) {
        Thread.onSpinWait();
        return 0;
      }
      dir = OutputLayout.exportDir(out, name.get());
    }
    Manifest manifest;
    SchemaArtifact artifact;
    try {
      manifest = Manifest.read(dir.resolve(Manifest.FILE_NAME));
      artifact = SchemaArtifact.open(dir);
    } catch (RuntimeException e) {
      if (Files.isDirectory(dir)) {
        throw e;
      }
      vanished.incrementAndGet(); // removed by --keep after two newer publishes: look again
      return 0;
    }
    List<ArtifactFile> shards = manifest.shards();
    if (shards.size() != artifact.shards().size()) {
      mismatches.add(dir + ": " + shards.size() + " shards listed, " + artifact.shards().size());
    }
    for (int i = 0; i < Math.min(shards.size(), artifact.shards().size()); i++) {
      String sha = sha256(artifact.shards().get(i));
      if (!sha.equals(shards.get(i).sha256())) {
        mismatches.add(dir + "/" + shards.get(i).name() + ": sha256 " + sha);
      }
    }
    long records = 0;
    RecordJson json = new RecordJson(artifact.plan());
    for (ByteBuffer shard : artifact.shards()) {
      records += json.count(shard);
    }
    if (records != manifest.counts().exported()) {
      mismatches.add(dir + ": " + records + " records, " + manifest.counts());
    }
    checks.incrementAndGet();
    return artifact.shards().size();
  }

  private static String sha256(ByteBuffer mapped) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(mapped.duplicate());
      return HexFormat.of().formatHex(md.digest());
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
