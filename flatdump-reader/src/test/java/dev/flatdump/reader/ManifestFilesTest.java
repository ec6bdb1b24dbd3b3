package dev.flatdump.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ManifestFilesTest {

  private static final String SHA = "a".repeat(64);

  private static byte[] manifest(String files) {
    return ("{\"formatVersion\": 1, \"files\": ["
            + files
            + "], \"finishedAt\": \"2026-11-29T01:02:03.5Z\"}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static String file(String name, String format, Integer shard) {
    return "{\"name\": \""
        + name
        + "\", \"format\": \""
        + format
        + "\", \"bytes\": 10, \"sha256\": \""
        + SHA
        + "\", \"shard\": "
        + shard
        + ", \"records\": null}";
  }

  @Test
  void listsEveryFileAndFindsEachShardsZstdCopy() {
    ManifestFiles m =
        ManifestFiles.parse(
            manifest(
                file("o-00000.fb", "flatbuffers", 0)
                    + ","
                    + file("o-00001.fb", "flatbuffers", 1)
                    + ","
                    + file("o-00000.fb.gz", "gzip", 0)
                    + ","
                    + file("o-00000.fb.zst", "zstd", 0)
                    + ","
                    + file("o.bfbs", "bfbs", null)),
            "m.json");

    assertThat(m.files())
        .extracting(ManifestFiles.File::name)
        .containsExactly("o-00000.fb", "o-00001.fb", "o-00000.fb.gz", "o-00000.fb.zst", "o.bfbs");
    assertThat(m.files().get(4).shard()).isNull();
    assertThat(m.finishedAt()).isEqualTo(Instant.parse("2026-11-29T01:02:03.5Z"));
    assertThat(m.zstdCopyOf(m.files().get(0)))
        .map(ManifestFiles.File::name)
        .contains("o-00000.fb.zst");
    assertThat(m.zstdCopyOf(m.files().get(1))).isEmpty();
  }

  @Test
  void findsEachShardsColumnarCopyAndTheBinarySchema() {
    ManifestFiles m =
        ManifestFiles.parse(
            manifest(
                file("o-00000.fb", "flatbuffers", 0)
                    + ","
                    + file("o-00001.fb", "flatbuffers", 1)
                    + ","
                    + file("o-00000.fbc", "columnar", 0)
                    + ","
                    + file("o-00001.fb.fbc", "columnar", 1)
                    + ","
                    + file("o.bfbs", "bfbs", null)),
            "m.json");

    assertThat(m.columnarCopyOf(m.files().get(0)))
        .map(ManifestFiles.File::name)
        .contains("o-00000.fbc");
    assertThat(m.columnarCopyOf(m.files().get(1))).as("not named after its shard").isEmpty();
    assertThat(m.binarySchema()).map(ManifestFiles.File::name).contains("o.bfbs");
  }

  @Test
  void refusesAManifestThatCouldWriteOutsideTheExportOrListsAFileTwice() {
    assertThatThrownBy(
            () -> ManifestFiles.parse(manifest(file("../x.fb", "flatbuffers", 0)), "m.json"))
        .isInstanceOf(ReaderException.class)
        .hasMessageContaining("m.json is not a valid manifest")
        .hasMessageContaining("'../x.fb'");
    assertThatThrownBy(
            () ->
                ManifestFiles.parse(
                    manifest(file("a.fb", "flatbuffers", 0) + "," + file("a.fb", "zstd", 0)),
                    "m.json"))
        .hasMessageContaining("lists a.fb twice");
    assertThatThrownBy(
            () -> ManifestFiles.parse(manifest(file("manifest.json", "json", null)), "m.json"))
        .hasMessageContaining("lists itself");
    assertThatThrownBy(() -> ManifestFiles.parse(new byte[] {(byte) 0xff}, "m.json"))
        .hasMessageContaining("not UTF-8");
  }
}
