package dev.flatdump.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ManifestTest {

  private static final String SHA_A = "a".repeat(64);
  private static final String SHA_B = "b".repeat(64);

  @TempDir Path dir;

  static Manifest manifest(List<ArtifactFile> files) {
    return new Manifest(
        Manifest.FORMAT_VERSION,
        new Manifest.Schema("organizations.fbs", SHA_A, "ORGS", "organizations.bfbs"),
        new Manifest.Source("shop", "organizations", "{\"country\": \"ES\"}"),
        new Manifest.Options(
            "strings,attributes,vectors", List.of("gzip", "zstd"), 1L << 30, false, 1),
        new Manifest.Counts(10, 8, 2),
        files,
        Instant.parse("2024-05-01T10:15:30.123456789Z"),
        Instant.parse("2024-05-01T10:16:01Z"));
  }

  static List<ArtifactFile> files() {
    return List.of(
        new ArtifactFile("organizations-00000.fb", "flatbuffers", 1000, SHA_A, 0, 5L),
        new ArtifactFile("organizations-00001.fb", "flatbuffers", 900, SHA_B, 1, 3L),
        new ArtifactFile("organizations-00000.fb.gz", "gzip", 400, SHA_A, 0, 5L),
        new ArtifactFile("organizations-00001.fb.zst", "zstd", 350, SHA_B, 1, 3L),
        new ArtifactFile("rejects.jsonl", "jsonl", 120, SHA_A, null, 2L),
        new ArtifactFile("report.md", "markdown", 2048, SHA_B, null, null));
  }

  @Nested
  class Json {

    @Test
    void writesAManifestThatReadsBackEqual() {
      Manifest manifest = manifest(files());

      manifest.write(dir);

      assertThat(Manifest.read(dir.resolve(Manifest.FILE_NAME))).isEqualTo(manifest);
    }

    @Test
    void aKeyedExportsLookupAndKeyRangesReadBackEqualAndOnlyWhereTheyApply() {
      Manifest plain = manifest(files());
      Manifest.Lookup lookup = new Manifest.Lookup("rs", 4, "id", "long", 6, 0L);
      Manifest keyed =
          new Manifest(
              plain.formatVersion(),
              new Manifest.Schema("rs.fbs", SHA_A, null, "rs.bfbs", lookup),
              plain.source(),
              plain.options(),
              plain.counts(),
              List.of(
                  new ArtifactFile("rs-00000.fb", "flatbuffers", 1000, SHA_A, 0, 5L)
                      .withKeys(-7, 12L),
                  new ArtifactFile("rs-00001.fb", "flatbuffers", 900, SHA_B, 1, 3L)
                      .withKeys(5_000_000_000L, 5_000_000_009L),
                  new ArtifactFile("rejects.jsonl", "jsonl", 120, SHA_A, null, 2L)),
              plain.startedAt(),
              plain.finishedAt());

      keyed.write(dir);

      assertThat(Manifest.read(dir.resolve(Manifest.FILE_NAME))).isEqualTo(keyed);
      JsonNode json = JsonMapper.builder().build().readTree(keyed.toJson());
      assertThat(json.get("schema").get("lookup").toString())
          .isEqualTo(
              "{\"recordsField\":\"rs\",\"recordsVoffset\":4,\"keyField\":\"id\","
                  + "\"keyType\":\"long\",\"keyVoffset\":6,\"keyDefault\":0}");
      assertThat(json.get("files").get(0).get("firstKey").asLong()).isEqualTo(-7);
      assertThat(json.get("files").get(1).get("lastKey").asLong()).isEqualTo(5_000_000_009L);
      assertThat(json.get("files").get(2).has("firstKey")).isFalse();
      JsonNode unkeyed = JsonMapper.builder().build().readTree(plain.toJson());
      assertThat(unkeyed.get("schema").has("lookup")).isFalse();
      assertThat(unkeyed.get("files").get(0).has("firstKey")).isFalse();
    }

    @Test
    void writesAtomicallyWithoutLeavingATemporary() throws IOException {
      manifest(files()).write(dir);

      try (Stream<Path> list = Files.list(dir)) {
        assertThat(list.map(p -> p.getFileName().toString())).containsExactly("manifest.json");
      }
    }

    @Test
    void hasExactlyTheDocumentedTopLevelFields() {
      JsonNode json = JsonMapper.builder().build().readTree(manifest(files()).toJson());

      assertThat(json.propertyNames())
          .containsExactlyInAnyOrder(
              "formatVersion",
              "schema",
              "source",
              "options",
              "counts",
              "files",
              "startedAt",
              "finishedAt");
      assertThat(json.get("formatVersion").asInt()).isEqualTo(1);
    }

    @Test
    void namesTheSourceByDatabaseAndCollectionNeverByConnectionString() {
      String json = manifest(files()).toJson();

      assertThat(json).doesNotContain("mongodb://").doesNotContain("mongodb+srv://");
      assertThat(json).contains("\"shop\"").contains("\"organizations\"");
    }

    @Test
    void anUnreadableManifestIsAnArtifactExceptionNamingTheFile() throws IOException {
      Path file = Files.writeString(dir.resolve(Manifest.FILE_NAME), "{ not json");

      assertThatThrownBy(() -> Manifest.read(file))
          .isInstanceOf(ArtifactException.class)
          .hasMessageContaining(file.toString());
    }

    @Test
    void aMissingManifestIsAnArtifactExceptionNamingTheFile() {
      Path file = dir.resolve(Manifest.FILE_NAME);

      assertThatThrownBy(() -> Manifest.read(file))
          .isInstanceOf(ArtifactException.class)
          .hasMessageContaining(file.toString());
    }
  }

  @Nested
  class Counts {

    @Test
    void acceptsReadEqualToExportedPlusRejected() {
      assertThat(new Manifest.Counts(10, 7, 3).read()).isEqualTo(10);
      assertThat(new Manifest.Counts(0, 0, 0).read()).isZero();
    }

    @Test
    void rejectsReadDifferentFromExportedPlusRejectedNamingAllThree() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> new Manifest.Counts(10, 7, 2))
          .withMessageContaining("read (10)")
          .withMessageContaining("exported (7)")
          .withMessageContaining("rejected (2)");
    }

    @Test
    void rejectsMoreExportedThanRead() {
      assertThatIllegalArgumentException().isThrownBy(() -> new Manifest.Counts(5, 6, 0));
    }
  }

  @Nested
  class FileList {

    @Test
    void shardsAreTheFlatBuffersFilesInOrder() {
      assertThat(manifest(files()).shards())
          .extracting(ArtifactFile::name)
          .containsExactly("organizations-00000.fb", "organizations-00001.fb");
    }

    @Test
    void shardsKeepTheListedOrder() {
      List<ArtifactFile> reversed = new ArrayList<>(files());
      java.util.Collections.reverse(reversed);

      assertThat(manifest(reversed).shards())
          .extracting(ArtifactFile::name)
          .containsExactly("organizations-00001.fb", "organizations-00000.fb");
    }

    @Test
    void anExportWithoutDataHasNoShards() {
      assertThat(manifest(List.of()).shards()).isEmpty();
    }

    @Test
    void keepsACopyOfTheFiles() {
      List<ArtifactFile> files = new ArrayList<>(files());
      Manifest manifest = manifest(files);

      files.clear();

      assertThat(manifest.files()).hasSize(6);
    }
  }
}
