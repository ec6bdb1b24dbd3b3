package dev.flatdump.reader.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.artifact.Manifest;
import dev.flatdump.reader.ExportReader;
import dev.flatdump.testing.MinioServer;
import dev.flatdump.testing.S3Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ExportPuller} against a real S3 server (MinIO, its own process), with exports published by
 * the real {@code ArtifactUploader}, and a proxy in between that records the requests and can hold
 * a download still at a chosen byte.
 */
class ExportPullerIT {

  private static final String BUCKET = "artifacts";

  private static MinioServer minio;

  @BeforeAll
  static void start() throws Exception {
    minio = MinioServer.start(false, BUCKET);
  }

  @AfterAll
  static void stop() throws Exception {
    minio.close();
    System.clearProperty("aws.accessKeyId");
    System.clearProperty("aws.secretAccessKey");
  }

  private static PullSettings through(S3Proxy proxy) {
    return PullSettings.defaults().withEndpointOverride(proxy.endpoint()).withPathStyleAccess(true);
  }

  private static String currentOf(Path out) throws Exception {
    return Files.readString(out.resolve("CURRENT"), StandardCharsets.UTF_8).strip();
  }

  @Test
  void pullsTheCurrentExportThroughItsZstdCopiesAndPublishesItForTheReader(@TempDir Path tmp)
      throws Exception {
    String uri = "s3://" + BUCKET + "/first/orgs";
    Path out = tmp.resolve("out");
    List<String> progress = new CopyOnWriteArrayList<>();
    try (S3Exports exports = new S3Exports(minio, uri, tmp.resolve("src"));
        S3Proxy proxy = S3Proxy.start(minio.endpoint());
        ExportPuller puller =
            ExportPuller.open(S3Prefix.parse(uri), out, through(proxy), progress::add)) {
      Path source = exports.publish("2026-11-29-1", 1);

      ExportPuller.Pulled pulled = puller.pull();

      assertThat(pulled.published()).isTrue();
      assertThat(pulled.exportName()).isEqualTo("2026-11-29-1");
      assertThat(currentOf(out)).isEqualTo("exports/2026-11-29-1");
      assertThat(Files.readSymbolicLink(out.resolve("current")))
          .isEqualTo(Path.of("exports", "2026-11-29-1"));
      S3Exports.assertSameFiles(out.resolve("exports/2026-11-29-1"), source);
      // the shards came through their .zst copies: no raw shard was asked for
      assertThat(proxy.requestsFor(".fb")).isEmpty();
      assertThat(proxy.requestsFor(".fb.zst")).hasSizeGreaterThan(1);
      assertThat(out.resolve(".pull/2026-11-29-1")).doesNotExist();
      try (ExportReader reader = ExportReader.open(out)) {
        assertThat(reader.currentId()).isEqualTo("2026-11-29-1");
      }

      proxy.clearRequests();
      ExportPuller.Pulled again = puller.pull();
      assertThat(again.published()).isFalse();
      assertThat(proxy.requests())
          .extracting(S3Proxy.Request::path)
          .containsExactly("/" + BUCKET + "/first/orgs/CURRENT");
    }
  }

  @Test
  void refusesACorruptObjectRetriesItThenFailsNamingItAndKeepsTheCurrentExport(@TempDir Path tmp)
      throws Exception {
    String uri = "s3://" + BUCKET + "/corrupt/orgs";
    Path out = tmp.resolve("out");
    List<String> progress = new CopyOnWriteArrayList<>();
    try (S3Exports exports = new S3Exports(minio, uri, tmp.resolve("src"));
        S3Proxy proxy = S3Proxy.start(minio.endpoint());
        ExportPuller puller =
            ExportPuller.open(S3Prefix.parse(uri), out, through(proxy), progress::add)) {
      exports.publish("2026-11-29-1", 1);
      puller.pull();
      Path second = exports.publish("2026-11-29-2", 2);
      String shard = Manifest.read(second.resolve(Manifest.FILE_NAME)).shards().get(1).name();
      String object = "exports/2026-11-29-2/" + shard + ".zst";
      exports.corrupt(object);
      proxy.clearRequests();

      assertThatThrownBy(puller::pull)
          .isInstanceOf(PullException.class)
          .hasMessageContaining("s3://" + BUCKET + "/corrupt/orgs/" + object)
          .hasMessageContaining("SHA-256")
          .hasMessageContaining("refused 3 times");

      assertThat(proxy.requestsFor(object))
          .as("downloaded once, then twice again")
          .hasSize(3)
          .allMatch(r -> r.method().equals("GET"));
      assertThat(progress).anyMatch(l -> l.contains(shard + ".zst: refused"));
      assertThat(currentOf(out)).isEqualTo("exports/2026-11-29-1");
      assertThat(out.resolve("exports/2026-11-29-2")).doesNotExist();
      assertThat(out.resolve(".pull/2026-11-29-2/" + shard + ".zst")).doesNotExist();
      try (ExportReader reader = ExportReader.open(out)) {
        assertThat(reader.currentId()).isEqualTo("2026-11-29-1");
      }

      // the upload run again repairs the object: the next pull publishes the export
      exports.publish("2026-11-29-2", 2);
      assertThat(puller.pull().exportName()).isEqualTo("2026-11-29-2");
      S3Exports.assertSameFiles(out.resolve("exports/2026-11-29-2"), second);
    }
  }

  @Test
  void startsAgainFromCurrentWhenTheExportItPullsDisappearsMidDownload(@TempDir Path tmp)
      throws Exception {
    String uri = "s3://" + BUCKET + "/race/orgs";
    Path out = tmp.resolve("out");
    List<String> progress = new CopyOnWriteArrayList<>();
    ExecutorService pulling = Executors.newSingleThreadExecutor();
    try (S3Exports exports = new S3Exports(minio, uri, tmp.resolve("src"));
        S3Proxy proxy = S3Proxy.start(minio.endpoint());
        ExportPuller puller =
            ExportPuller.open(S3Prefix.parse(uri), out, through(proxy), progress::add)) {
      exports.publish("2026-11-29-1", 1, 3000, 1 << 20);
      proxy.pauseAfter(64 * 1024); // inside the first shard's copy
      Future<ExportPuller.Pulled> pull = pulling.submit(puller::pull);
      awaitTrue(proxy::paused);

      // a newer export is published and the one being pulled removed, as retention would
      Path newer = exports.publish("2026-11-29-2", 2);
      exports.delete("2026-11-29-1");
      proxy.resume();

      ExportPuller.Pulled pulled = pull.get(2, TimeUnit.MINUTES);
      assertThat(pulled.exportName()).isEqualTo("2026-11-29-2");
      assertThat(progress).anyMatch(l -> l.contains("starting again from CURRENT"));
      assertThat(out.resolve("exports/2026-11-29-1")).doesNotExist();
      assertThat(out.resolve(".pull/2026-11-29-1")).doesNotExist();
      S3Exports.assertSameFiles(out.resolve("exports/2026-11-29-2"), newer);
    } finally {
      pulling.shutdownNow();
    }
  }

  @Test
  void startsAgainWhenTheExportIsReplacedUnderItsNameMidDownloadAndPublishesOnlyTheNewOne(
      @TempDir Path tmp) throws Exception {
    String uri = "s3://" + BUCKET + "/replaced/orgs";
    Path out = tmp.resolve("out");
    List<String> progress = new CopyOnWriteArrayList<>();
    ExecutorService pulling = Executors.newSingleThreadExecutor();
    try (S3Exports first = new S3Exports(minio, uri, tmp.resolve("first"));
        S3Exports second = new S3Exports(minio, uri, tmp.resolve("second"));
        S3Proxy proxy = S3Proxy.start(minio.endpoint());
        ExportPuller puller =
            ExportPuller.open(S3Prefix.parse(uri), out, through(proxy), progress::add)) {
      first.publish("2026-11-29-1", 1, 3000, 1 << 20);
      proxy.pauseAfter(64 * 1024); // inside the first shard's copy
      Future<ExportPuller.Pulled> pull = pulling.submit(puller::pull);
      awaitTrue(proxy::paused);

      // the same name uploaded again with other orgs (a job repository reset, say)
      Path replacement = second.publish("2026-11-29-1", 2, 3000, 1 << 20);
      proxy.resume();

      ExportPuller.Pulled pulled = pull.get(2, TimeUnit.MINUTES);
      assertThat(pulled.exportName()).isEqualTo("2026-11-29-1");
      assertThat(progress).anyMatch(l -> l.contains("starting again from CURRENT"));
      S3Exports.assertSameFiles(out.resolve("exports/2026-11-29-1"), replacement);
    } finally {
      pulling.shutdownNow();
    }
  }

  @Test
  void aSecondPullIntoTheSameDirectoryIsRefused(@TempDir Path tmp) {
    S3Prefix prefix = S3Prefix.parse("s3://" + BUCKET + "/locked");
    PullSettings settings =
        PullSettings.defaults()
            .withEndpointOverride(URI.create("http://127.0.0.1:9"))
            .withPathStyleAccess(true);
    try (ExportPuller first = ExportPuller.open(prefix, tmp, settings, l -> {})) {
      assertThatThrownBy(() -> ExportPuller.open(prefix, tmp, settings, l -> {}))
          .isInstanceOf(PullException.class)
          .hasMessageContaining("another pull into " + tmp);
    }
  }

  static void awaitTrue(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("still not so after 2 minutes");
      }
      Thread.sleep(20);
    }
  }
}
