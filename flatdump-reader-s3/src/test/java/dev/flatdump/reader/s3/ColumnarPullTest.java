package dev.flatdump.reader.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.reader.ExportReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ExportPuller} on exports with columnar copies ({@code .fbc}), served by {@link
 * FakeObjects}: a shard comes through its columnar copy, rebuilt with the binary schema, and its
 * other copies are not downloaded.
 */
class ColumnarPullTest {

  private final FakeObjects s3 = new FakeObjects();
  private final TinyExports exports = new TinyExports(s3);
  private final List<String> progress = new CopyOnWriteArrayList<>();

  private ExportPuller puller(Path out) {
    return ExportPuller.open(
        s3, S3Prefix.parse(TinyExports.PREFIX), out, PullSettings.defaults(), progress::add);
  }

  private List<String> keysOf(String export, String suffix) {
    String prefix = TinyExports.key(export, "");
    return s3.keys.stream().filter(k -> k.startsWith(prefix) && k.endsWith(suffix)).toList();
  }

  @Test
  void prefersTheColumnarCopyAndDownloadsNoOtherCopyOfItsShard(@TempDir Path out) throws Exception {
    TinyExports.Export e = exports.publish("n1", 1, List.of("gzip", "zstd", "columnar"), Map.of());

    ExportPuller.Pulled pulled;
    try (ExportPuller puller = puller(out)) {
      pulled = puller.pull();
    }

    assertThat(pulled.published()).isTrue();
    assertThat(pulled.bytesDownloaded())
        .isLessThan(e.file("t-00000.fb.zst").length + e.file("t-00001.fb.zst").length + 10_000L);
    Path dir = out.resolve("exports/n1");
    for (String shard : List.of("t-00000.fb", "t-00001.fb")) {
      assertThat(dir.resolve(shard)).as("rebuilt byte for byte").hasBinaryContent(e.file(shard));
      assertThat(dir.resolve(shard.replace(".fb", ".fbc")))
          .hasBinaryContent(e.file(shard.replace(".fb", ".fbc")));
      assertThat(dir.resolve(shard + ".zst")).doesNotExist();
      assertThat(dir.resolve(shard + ".gz")).doesNotExist();
      assertThat(progress).contains("n1/" + shard + ": rebuilt from the columnar copy and checked");
    }
    assertThat(dir.resolve(TinyExports.BFBS)).hasBinaryContent(e.file(TinyExports.BFBS));
    assertThat(dir.resolve("manifest.json")).hasBinaryContent(e.file("manifest.json"));
    assertThat(keysOf("n1", ".zst")).isEmpty();
    assertThat(keysOf("n1", ".gz")).isEmpty();
    assertThat(keysOf("n1", ".fb")).as("no raw shard asked for").isEmpty();
    assertThat(keysOf("n1", ".fbc")).hasSize(2);
    // the binary schema before any shard's copy
    assertThat(s3.keys.indexOf(TinyExports.key("n1", TinyExports.BFBS)))
        .isLessThan(s3.keys.indexOf(TinyExports.key("n1", "t-00000.fbc")));
    assertThat(progress)
        .contains(
            "n1: 4 copies of shards not downloaded (each shard came through one copy alone);"
                + " the local export lacks them");
    try (ExportReader reader = ExportReader.open(out)) {
      assertThat(reader.currentId()).isEqualTo("n1");
    }
  }

  @Test
  void aColumnarCopyThatDoesNotRebuildIsRetriedThenTheShardComesThroughItsZstdCopy(
      @TempDir Path out) throws Exception {
    exports.publish("n1", 1, List.of("zstd", "columnar"), Map.of());
    UnaryOperator<byte[]> flip =
        b -> {
          b[b.length / 2] ^= 0x40;
          return b;
        };

    try (ExportPuller puller = puller(out)) {
      assertThat(puller.pull().exportName()).isEqualTo("n1");
      s3.keys.clear();
      progress.clear();
      // the manifest lists the flipped copy: it downloads fine, then does not rebuild
      TinyExports.Export e =
          exports.publish("n2", 2, List.of("zstd", "columnar"), Map.of("t-00001.fbc", flip));

      assertThat(puller.pull().exportName()).isEqualTo("n2");

      assertThat(keysOf("n2", "t-00001.fbc")).hasSize(3);
      assertThat(keysOf("n2", "t-00001.fb.zst")).hasSize(1);
      assertThat(keysOf("n2", "t-00000.fb.zst")).as("the other shard: its .fbc").isEmpty();
      assertThat(progress)
          .anyMatch(l -> l.startsWith("n2/t-00001.fbc: refused (it does not rebuild"))
          .anyMatch(
              l ->
                  l.startsWith("n2/t-00001.fb: cannot pull s3://bkt/p/exports/n2/t-00001.fbc")
                      && l.endsWith("; pulled through t-00001.fb.zst instead"));
      Path dir = out.resolve("exports/n2");
      assertThat(dir.resolve("t-00001.fb")).hasBinaryContent(e.file("t-00001.fb"));
      assertThat(dir.resolve("t-00001.fb.zst")).hasBinaryContent(e.file("t-00001.fb.zst"));
      assertThat(dir.resolve("t-00001.fbc")).doesNotExist();
      assertThat(out.resolve("CURRENT")).hasContent("exports/n2");
      try (ExportReader reader = ExportReader.open(out)) {
        assertThat(reader.currentId()).isEqualTo("n2");
      }
    }
  }

  @Test
  void aColumnarCopyRefusedWithNoZstdCopyToFallBackOnIsReportedAndTheCurrentExportStays(
      @TempDir Path out) throws Exception {
    exports.publish("n1", 1, List.of("columnar"), Map.of());
    try (ExportPuller puller = puller(out)) {
      assertThat(puller.pull().exportName()).isEqualTo("n1");
      exports.publish(
          "n2",
          2,
          List.of("gzip", "columnar"),
          Map.of(
              "t-00001.fbc",
              b -> {
                b[b.length / 2] ^= 0x40;
                return b;
              }));

      assertThatThrownBy(puller::pull)
          .isInstanceOf(PullException.class)
          .hasMessageContaining("s3://bkt/p/exports/n2/t-00001.fbc")
          .hasMessageContaining("does not rebuild its shard")
          .hasMessageContaining("refused 3 times")
          .hasMessageContaining("the local current export is unchanged");
    }
    assertThat(keysOf("n2", ".gz")).as("gzip is no fallback").isEmpty();
    assertThat(out.resolve("CURRENT")).hasContent("exports/n1");
    assertThat(out.resolve("exports/n2")).doesNotExist();
    try (ExportReader reader = ExportReader.open(out)) {
      assertThat(reader.currentId()).isEqualTo("n1");
    }
  }

  @Test
  void aColumnarCopyThatRebuildsAnotherShardIsRefused(@TempDir Path out) {
    byte[] other = ColumnarCopyOf.shard0(1);
    // a valid copy, but of another shard: it rebuilds, to other bytes than the manifest lists
    exports.publish("n1", 1, List.of("columnar"), Map.of("t-00001.fbc", b -> other));

    try (ExportPuller puller = puller(out)) {
      assertThatThrownBy(puller::pull)
          .isInstanceOf(PullException.class)
          .hasMessageContaining("s3://bkt/p/exports/n1/t-00001.fbc")
          .hasMessageContaining("it rebuilds")
          .hasMessageContaining("but the manifest lists t-00001.fb")
          .hasMessageContaining("refused 3 times");
    }
    assertThat(out.resolve("CURRENT")).doesNotExist();
  }

  @Test
  void anExportWithoutColumnarCopiesIsPulledThroughItsZstdCopiesAsBefore(@TempDir Path out)
      throws Exception {
    TinyExports.Export e = exports.publish("n1", 1, List.of("gzip", "zstd"), Map.of());

    try (ExportPuller puller = puller(out)) {
      puller.pull();
    }

    Path dir = out.resolve("exports/n1");
    for (String f : e.files().keySet()) {
      assertThat(dir.resolve(f)).as(f).hasBinaryContent(e.file(f));
    }
    assertThat(keysOf("n1", ".zst")).hasSize(2);
    assertThat(keysOf("n1", ".gz")).hasSize(2);
    assertThat(keysOf("n1", ".fb")).isEmpty();
    assertThat(progress).contains("n1/t-00000.fb: decompressed and checked");
    assertThat(progress).noneMatch(l -> l.contains("not downloaded"));
    try (ExportReader reader = ExportReader.open(out)) {
      assertThat(reader.currentId()).isEqualTo("n1");
    }
  }

  @Test
  void resumesAPartiallyDownloadedColumnarCopy(@TempDir Path out) throws Exception {
    TinyExports.Export e = exports.publish("n1", 1, List.of("zstd", "columnar"), Map.of());
    byte[] copy = e.file("t-00000.fbc");
    int half = copy.length / 2;
    Path staging = Files.createDirectories(out.resolve(".pull/n1"));
    Files.write(staging.resolve("t-00000.fbc.part"), Arrays.copyOf(copy, half));

    try (ExportPuller puller = puller(out)) {
      puller.pull();
    }

    assertThat(s3.ranges).contains("bytes=" + half + "-");
    assertThat(progress)
        .contains(
            "n1/t-00000.fbc: "
                + (copy.length - half)
                + " bytes downloaded, resumed at byte "
                + half);
    assertThat(out.resolve("exports/n1/t-00000.fb")).hasBinaryContent(e.file("t-00000.fb"));
    assertThat(out.resolve("exports/n1/t-00000.fbc")).hasBinaryContent(copy);
  }

  @Test
  void aShardRebuiltByAnEarlierRunIsNotRebuiltAgain(@TempDir Path out) throws Exception {
    TinyExports.Export e = exports.publish("n1", 1, List.of("zstd", "columnar"), Map.of());
    Path staging = Files.createDirectories(out.resolve(".pull/n1"));
    Files.write(staging.resolve("t-00000.fbc"), e.file("t-00000.fbc"));
    Files.write(staging.resolve("t-00000.fb"), e.file("t-00000.fb"));
    // a zstd copy an earlier pull through it left: not checked now, so not published
    Files.write(staging.resolve("t-00000.fb.zst"), "stale".getBytes(StandardCharsets.UTF_8));

    try (ExportPuller puller = puller(out)) {
      puller.pull();
    }

    assertThat(progress)
        .contains("n1/t-00000.fbc: already downloaded", "n1/t-00000.fb: already rebuilt");
    assertThat(progress)
        .doesNotContain("n1/t-00000.fb: rebuilt from the columnar copy and checked");
    assertThat(progress).contains("n1/t-00001.fb: rebuilt from the columnar copy and checked");
    assertThat(keysOf("n1", "t-00000.fbc")).isEmpty();
    assertThat(out.resolve("exports/n1/t-00000.fb")).hasBinaryContent(e.file("t-00000.fb"));
    assertThat(out.resolve("exports/n1/t-00000.fb.zst")).doesNotExist();
  }

  @Test
  void anExportWithColumnarCopiesButNoBinarySchemaListedFallsBackToItsZstdCopies(@TempDir Path out)
      throws Exception {
    // not one flatdump writes; the pull cannot rebuild without the binary schema
    TinyExports.Export e = exports.publish("n1", 1, List.of("zstd", "columnar"), Map.of());
    String manifest =
        new String(e.file("manifest.json"), StandardCharsets.UTF_8)
            .replace("\"format\": \"bfbs\"", "\"format\": \"binary\"");
    s3.objects.put(
        TinyExports.key("n1", "manifest.json"), manifest.getBytes(StandardCharsets.UTF_8));

    try (ExportPuller puller = puller(out)) {
      puller.pull();
    }

    assertThat(keysOf("n1", ".zst")).hasSize(2);
    assertThat(out.resolve("exports/n1/t-00001.fb")).hasBinaryContent(e.file("t-00001.fb"));
    assertThat(out.resolve("exports/n1/t-00001.fbc")).hasBinaryContent(e.file("t-00001.fbc"));
  }

  /** Copies made outside an export. */
  static final class ColumnarCopyOf {
    private ColumnarCopyOf() {}

    /** The columnar copy of shard 0 of export {@code seed}. */
    static byte[] shard0(int seed) {
      return dev.flatdump.columnar.ColumnarCopy.write(
          TinyExports.shard(seed, 0, 40),
          TinyExports.resource(TinyExports.BFBS),
          dev.flatdump.columnar.ColumnarCopy.DEFAULT_LEVEL);
    }
  }
}
