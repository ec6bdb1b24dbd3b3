package dev.flatdump.reader.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.reader.ManifestFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalExportsTest {

  /** Stages export {@code name} (one file, {@code a.fb}) as a download leaves it; its manifest. */
  private static byte[] stage(LocalExports local, String name, String finishedAt) throws Exception {
    Path staging = local.staging(name);
    byte[] data = ("data of " + name).getBytes(StandardCharsets.UTF_8);
    Files.write(staging.resolve("a.fb"), data);
    Files.write(staging.resolve("b.fb.zst.part"), new byte[] {1}); // left by a download
    String sha = HexFormat.of().formatHex(ObjectDownload.newDigest().digest(data));
    return ("{\"files\": [{\"name\": \"a.fb\", \"format\": \"flatbuffers\", \"bytes\": "
            + data.length
            + ", \"sha256\": \""
            + sha
            + "\", \"shard\": 0}], \"finishedAt\": \""
            + finishedAt
            + "\"}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static ManifestFiles files(byte[] manifest) {
    return ManifestFiles.parse(manifest, "test");
  }

  @Nested
  class Publish {

    @Test
    void renamesTheStagedExportIntoPlaceThenSwitchesBothPointers(@TempDir Path out)
        throws Exception {
      LocalExports local = new LocalExports(out);
      byte[] manifest = stage(local, "n1", "2026-11-29T01:00:00Z");

      Path dir = local.publish("n1", manifest, files(manifest), 2);

      assertThat(dir).isEqualTo(out.resolve("exports/n1"));
      assertThat(dir.resolve("manifest.json")).hasBinaryContent(manifest);
      assertThat(dir.resolve("a.fb")).exists();
      assertThat(dir.resolve("b.fb.zst.part")).as("not listed").doesNotExist();
      assertThat(out.resolve(".pull/n1")).doesNotExist();
      assertThat(Files.readSymbolicLink(out.resolve("current"))).isEqualTo(Path.of("exports/n1"));
      assertThat(out.resolve("CURRENT")).hasContent("exports/n1");
      assertThat(local.currentName()).contains("n1");
      assertThat(local.holds("n1", manifest)).isTrue();
    }

    @Test
    void keepsTheNewestByFinishedAtAndNeverTheCurrentOne(@TempDir Path out) throws Exception {
      LocalExports local = new LocalExports(out);
      for (String[] e :
          new String[][] {
            {"n1", "2026-11-29T01:00:00Z"},
            {"n2", "2026-11-29T03:00:00Z"},
            {"n3", "2026-11-29T04:00:00Z"},
            {"old", "2026-11-29T00:00:00Z"} // published last, finished first: current all the same
          }) {
        byte[] m = stage(local, e[0], e[1]);
        local.publish(e[0], m, files(m), 2);
      }
      Files.createDirectories(out.resolve("exports/not-an-export"));

      assertThat(out.resolve("exports"))
          .isDirectoryContaining(p -> p.getFileName().toString().equals("old"))
          .isDirectoryContaining(p -> p.getFileName().toString().equals("n3"))
          .isDirectoryContaining(p -> p.getFileName().toString().equals("not-an-export"));
      assertThat(out.resolve("exports/n1")).doesNotExist();
      assertThat(out.resolve("exports/n2")).doesNotExist();
      assertThat(local.currentName()).contains("old");
    }

    @Test
    void refusesAnExportWithAListedFileMissingAndKeepsTheCurrentOne(@TempDir Path out)
        throws Exception {
      LocalExports local = new LocalExports(out);
      byte[] first = stage(local, "n1", "2026-11-29T01:00:00Z");
      local.publish("n1", first, files(first), 2);
      byte[] second = stage(local, "n2", "2026-11-29T02:00:00Z");
      Files.delete(out.resolve(".pull/n2/a.fb"));

      assertThatThrownBy(() -> local.publish("n2", second, files(second), 2))
          .isInstanceOf(PullException.class)
          .hasMessageContaining("a.fb: missing from " + out.resolve(".pull/n2"));
      assertThat(out.resolve("exports/n2")).doesNotExist();
      assertThat(local.currentName()).contains("n1");
    }

    @Test
    void acceptsExactlyTheCopiesAPullLeftOutAsAbsent(@TempDir Path out) throws Exception {
      LocalExports local = new LocalExports(out);
      byte[] staged = stage(local, "n1", "2026-11-29T01:00:00Z");
      String zst =
          "{\"name\": \"a.fb.zst\", \"format\": \"zstd\", \"bytes\": 1, \"sha256\": \""
              + "0".repeat(64)
              + "\", \"shard\": 0}";
      byte[] manifest =
          new String(staged, StandardCharsets.UTF_8)
              .replace("}], \"finishedAt\"", "}, " + zst + "], \"finishedAt\"")
              .getBytes(StandardCharsets.UTF_8);

      assertThatThrownBy(() -> local.publish("n1", manifest, files(manifest), 2))
          .isInstanceOf(PullException.class)
          .hasMessageContaining("a.fb.zst: missing from");
      Files.write(out.resolve(".pull/n1/a.fb.zst"), new byte[] {9}); // not checked by this pull
      Path dir = local.publish("n1", manifest, files(manifest), 2, java.util.Set.of("a.fb.zst"));

      assertThat(dir.resolve("a.fb")).exists();
      assertThat(dir.resolve("a.fb.zst")).doesNotExist();
      assertThat(local.currentName()).contains("n1");
    }

    @Test
    void refusesAMissingFileThatIsNotOneOfTheAbsentCopies(@TempDir Path out) throws Exception {
      LocalExports local = new LocalExports(out);
      byte[] manifest = stage(local, "n1", "2026-11-29T01:00:00Z");
      Files.delete(out.resolve(".pull/n1/a.fb"));

      assertThatThrownBy(
              () -> local.publish("n1", manifest, files(manifest), 2, java.util.Set.of("b.fb.zst")))
          .isInstanceOf(PullException.class)
          .hasMessageContaining("a.fb: missing from");
      assertThat(out.resolve("exports/n1")).doesNotExist();
    }

    @Test
    void refusesToReplaceAnotherExportOfTheSameName(@TempDir Path out) throws Exception {
      LocalExports local = new LocalExports(out);
      byte[] first = stage(local, "n1", "2026-11-29T01:00:00Z");
      local.publish("n1", first, files(first), 2);
      byte[] other = stage(local, "n1", "2026-11-29T02:00:00Z");

      assertThatThrownBy(() -> local.publish("n1", other, files(other), 2))
          .isInstanceOf(PullException.class)
          .hasMessageContaining("already holds another export");
      assertThat(out.resolve("exports/n1/manifest.json")).hasBinaryContent(first);
    }

    @Test
    void completesAPublishInterruptedAfterItsRename(@TempDir Path out) throws Exception {
      LocalExports local = new LocalExports(out);
      byte[] first = stage(local, "n1", "2026-11-29T01:00:00Z");
      local.publish("n1", first, files(first), 2);
      byte[] second = stage(local, "n2", "2026-11-29T02:00:00Z");
      local.publish("n2", second, files(second), 2);
      local.point("n1"); // as if n2's rename happened and the pointer was never switched

      local.publish("n2", second, files(second), 2);

      assertThat(local.currentName()).contains("n2");
      assertThat(Files.readSymbolicLink(out.resolve("current"))).isEqualTo(Path.of("exports/n2"));
    }
  }

  @Test
  void stagingKeepsItsOwnPartialFilesAndDropsOtherExports(@TempDir Path out) throws Exception {
    LocalExports local = new LocalExports(out);
    Path n1 = local.staging("n1");
    Files.write(n1.resolve("a.fb.part"), new byte[] {1, 2});
    assertThat(local.staging("n1").resolve("a.fb.part")).hasBinaryContent(new byte[] {1, 2});

    local.staging("n2");

    assertThat(n1).doesNotExist();
  }

  @Test
  void oneLockPerOutputDirectory(@TempDir Path out) throws Exception {
    LocalExports local = new LocalExports(out);
    var lock = local.lock();
    try {
      assertThatThrownBy(() -> new LocalExports(out).lock())
          .isInstanceOf(PullException.class)
          .hasMessageContaining("another pull into " + out);
    } finally {
      lock.channel().close();
    }
    new LocalExports(out).lock().channel().close();
  }
}
