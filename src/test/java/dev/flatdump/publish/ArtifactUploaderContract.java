package dev.flatdump.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.testing.MinioServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link ArtifactUploader} against a real S3 server: MinIO, as its own process. Every case runs
 * over http ({@link ArtifactUploaderIT}) and over https with a self-signed certificate ({@link
 * ArtifactUploaderTlsIT}).
 */
abstract class ArtifactUploaderContract {

  /** Whether the server serves https. */
  abstract boolean https();

  /** One server per mode, started by the first test that needs it, stopped by the subclass. */
  private static final Map<Boolean, MinioServer> SERVERS = new java.util.HashMap<>();

  private static final String BUCKET = "flatdump-it";
  private static final long MIB = S3Settings.MIB;

  /** Fake credentials, set where the SDK's default chain finds them; must never be echoed. */
  private static final String ACCESS_KEY = MinioServer.ACCESS_KEY;

  private static final String SECRET_KEY = MinioServer.SECRET_KEY;

  private static final AtomicInteger PREFIXES = new AtomicInteger();

  MinioServer server;
  private S3Client s3;
  private static Map<String, String> previousProperties;

  @TempDir Path dir;

  private final List<String> progress = new ArrayList<>();

  @BeforeAll
  static void credentials() {
    previousProperties = new LinkedHashMap<>();
    for (String key : List.of("aws.accessKeyId", "aws.secretAccessKey")) {
      previousProperties.put(key, System.getProperty(key));
    }
    System.setProperty("aws.accessKeyId", ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", SECRET_KEY);
  }

  @BeforeEach
  void startS3() throws IOException {
    synchronized (SERVERS) {
      server = SERVERS.get(https());
      if (server == null) {
        server = MinioServer.start(https(), BUCKET);
        SERVERS.put(https(), server);
      }
    }
    s3 = server.client();
  }

  @AfterEach
  void closeClient() {
    s3.close();
  }

  /** Stops the server of one mode; a subclass calls it from its {@code @AfterAll}. */
  static void stopServer(boolean https) throws IOException {
    synchronized (SERVERS) {
      MinioServer s = SERVERS.remove(https);
      if (s != null) {
        s.close();
      }
    }
  }

  @AfterAll
  static void restoreCredentials() {
    previousProperties.forEach(
        (key, value) -> {
          if (value == null) {
            System.clearProperty(key);
          } else {
            System.setProperty(key, value);
          }
        });
  }

  @Test
  void uploadsEveryFileWithIdenticalBytesAndTheManifest() throws IOException {
    Manifest manifest = export(dir, 1);
    S3Location target = newTarget();

    List<PublishedObject> published = upload(manifest, target);

    assertThat(published).noneMatch(PublishedObject::skipped);
    assertThat(keys(target))
        .containsExactlyInAnyOrderElementsOf(
            Stream.concat(
                    manifest.files().stream().map(f -> target.key(f.name())),
                    Stream.of(target.key(Manifest.FILE_NAME)))
                .toList());
    for (ArtifactFile file : manifest.files()) {
      byte[] remote = get(target.key(file.name()));
      assertThat(remote).hasSize((int) file.bytes());
      assertThat(Checksums.sha256(remote)).as(file.name()).isEqualTo(file.sha256());
      assertThat(head(target.key(file.name())).metadata()).containsEntry("sha256", file.sha256());
    }
    assertThat(get(target.key(Manifest.FILE_NAME)))
        .isEqualTo(Files.readAllBytes(dir.resolve(Manifest.FILE_NAME)));
  }

  @Test
  void uploadsFilesAboveTheThresholdInParts() throws IOException {
    Manifest manifest = export(dir, 1);
    S3Location target = newTarget();

    upload(manifest, target);

    // 12 MiB + 321 bytes in 5 MiB parts: 3 parts. S3 tags a multipart object "<md5 of md5s>-3"
    // and reports its checksum as the SHA-256 of the parts' SHA-256s, then "-3".
    HeadObjectResponse big = headWithChecksum(target.key("organizations-00000.fb"));
    assertThat(big.eTag()).matches("\"?[0-9a-f]{32}-3\"?");
    assertThat(big.checksumSHA256())
        .isEqualTo(compositeSha256(dir.resolve("organizations-00000.fb"), 5 * MIB));
    HeadObjectResponse small = headWithChecksum(target.key("organizations-00001.fb"));
    assertThat(small.eTag()).doesNotContain("-");
    assertThat(small.checksumSHA256())
        .isEqualTo(base64Sha256(Files.readAllBytes(dir.resolve("organizations-00001.fb"))));
  }

  @Test
  void uploadsDataInManifestOrderAndTheManifestLast() throws IOException {
    Manifest manifest = export(dir, 1);
    S3Location target = newTarget();

    List<PublishedObject> published = upload(manifest, target);

    List<String> expectedOrder =
        Stream.concat(manifest.files().stream().map(ArtifactFile::name), Stream.of("manifest.json"))
            .toList();
    assertThat(published).extracting(PublishedObject::name).isEqualTo(expectedOrder);
    // progress is reported after each object is complete and verified
    assertThat(progress).hasSize(expectedOrder.size());
    for (int i = 0; i < expectedOrder.size(); i++) {
      assertThat(progress.get(i)).startsWith(expectedOrder.get(i) + ": ").contains("uploaded to");
    }
    assertThat(progress.get(progress.size() - 1))
        .isEqualTo(
            "manifest.json: "
                + Files.size(dir.resolve("manifest.json"))
                + " bytes uploaded to "
                + target.uriOf("manifest.json"));
  }

  @Test
  void skipsEverythingOnAReRunAndChangesNothing() throws IOException {
    Manifest manifest = export(dir, 1);
    S3Location target = newTarget();
    upload(manifest, target);
    Map<String, String> before = etagsAndDates(target);
    progress.clear();

    List<PublishedObject> again = upload(manifest, target);

    assertThat(again).allMatch(PublishedObject::skipped);
    assertThat(progress).hasSize(manifest.files().size() + 1).allMatch(l -> l.contains("skipped"));
    assertThat(etagsAndDates(target)).isEqualTo(before);
  }

  @Test
  void reuploadsAnObjectThatWasChangedRemotely() throws IOException {
    Manifest manifest = export(dir, 1);
    S3Location target = newTarget();
    upload(manifest, target);
    String key = target.key("organizations-00001.fb");
    byte[] original = Files.readAllBytes(dir.resolve("organizations-00001.fb"));
    byte[] tampered = original.clone();
    tampered[100] ^= 0x5a; // same size, other bytes
    s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromBytes(tampered));
    progress.clear();

    List<PublishedObject> again = upload(manifest, target);

    assertThat(again)
        .filteredOn(o -> !o.skipped())
        .extracting(PublishedObject::name)
        .containsExactly("organizations-00001.fb");
    assertThat(progress)
        .filteredOn(l -> l.contains("uploaded"))
        .singleElement()
        .asString()
        .startsWith("organizations-00001.fb: ");
    assertThat(get(key)).isEqualTo(original);
  }

  @Test
  void reuploadsAnObjectWhoseBytesChangedBehindItsMetadata() throws IOException {
    Manifest manifest = export(dir, 1);
    S3Location target = newTarget();
    upload(manifest, target);
    String key = target.key("organizations-00001.fb");
    byte[] original = Files.readAllBytes(dir.resolve("organizations-00001.fb"));
    byte[] tampered = original.clone();
    tampered[7] ^= 0x01;
    // same size, same sha256 metadata: only the object's own SHA-256 checksum tells
    s3.putObject(
        b ->
            b.bucket(BUCKET)
                .key(key)
                .metadata(head(key).metadata())
                .checksumAlgorithm(ChecksumAlgorithm.SHA256),
        RequestBody.fromBytes(tampered));
    progress.clear();

    List<PublishedObject> again = upload(manifest, target);

    assertThat(again)
        .filteredOn(o -> !o.skipped())
        .extracting(PublishedObject::name)
        .containsExactly("organizations-00001.fb");
    assertThat(get(key)).isEqualTo(original);
  }

  @Test
  void deletesTheManifestOfAnotherExportBeforeReplacingItsObjects() throws IOException {
    S3Location target = newTarget();
    upload(dir.resolve("first"), export(dir.resolve("first"), 1), target);
    Manifest second = export(dir.resolve("second"), 2);
    progress.clear();

    upload(dir.resolve("second"), second, target);

    assertThat(progress.get(0))
        .isEqualTo("manifest.json: previous manifest deleted from " + target + " before replacing");
    assertThat(progress.subList(1, progress.size())).noneMatch(l -> l.contains("deleted"));
    assertThat(progress.get(progress.size() - 1)).startsWith("manifest.json: ");
    assertThat(get(target.key(Manifest.FILE_NAME)))
        .isEqualTo(Files.readAllBytes(dir.resolve("second").resolve(Manifest.FILE_NAME)));
  }

  @Test
  void refusesALocalFileThatDoesNotMatchItsManifestAndLeavesNoManifest() throws IOException {
    Manifest manifest = export(dir, 1);
    Path report = dir.resolve("report.json");
    byte[] bytes = Files.readAllBytes(report);
    bytes[0] ^= 1; // same size: only the checksum can tell
    Files.write(report, bytes);
    S3Location target = newTarget();

    UploadException e = catchThrowableOfType(UploadException.class, () -> upload(manifest, target));

    String listed = manifest.files().get(manifest.files().size() - 1).sha256();
    assertThat(e)
        .hasMessageStartingWith("cannot upload report.json to " + target.uriOf("report.json"))
        .hasMessageContaining(
            report
                + " has SHA-256 "
                + Checksums.sha256(bytes)
                + " but the manifest says "
                + listed);
    assertThat(e.key()).contains(target.key("report.json"));
    assertThat(keys(target)).doesNotContain(target.key(Manifest.FILE_NAME));
  }

  @Test
  void failsNamingTheKeyAndEndpointWhenTheServerIsDown() throws IOException {
    Manifest manifest = export(dir, 1);
    S3Location target = newTarget();
    URI closed = URI.create("http://127.0.0.1:" + closedPort());
    S3Settings settings = settings().withEndpointOverride(closed).withMaxAttempts(2);

    UploadException e;
    try (ArtifactUploader uploader = new ArtifactUploader(settings, progress::add)) {
      e = catchThrowableOfType(UploadException.class, () -> uploader.upload(dir, manifest, target));
    }

    String first = manifest.files().get(0).name();
    assertThat(e)
        .hasMessageContaining(target.uriOf(first))
        .hasMessageContaining("endpoint " + closed)
        .hasMessageContaining("Attempt Count: 2");
    assertThat(e.key()).contains(target.key(first));
    assertThat(e.target()).contains(target);
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    assertThat(trace.toString()).doesNotContain(SECRET_KEY);
    assertThat(progress).isEmpty();
  }

  @Test
  void neverPrintsTheSecretKeyInProgress() throws IOException {
    Manifest manifest = export(dir, 1);

    upload(manifest, newTarget());

    assertThat(String.join("\n", progress)).doesNotContain(SECRET_KEY).doesNotContain(ACCESS_KEY);
  }

  @Test
  void publishesTheExportUnderItsDirectoryAndThePointerLast() throws IOException {
    Manifest manifest = export(dir, 1);
    S3Location root = newTarget();

    List<PublishedObject> published;
    try (ArtifactUploader uploader = new ArtifactUploader(settings(), progress::add)) {
      published = uploader.publish(dir, "2024-05-01-7", manifest, root);
    }

    S3Location export = root.child("exports/2024-05-01-7");
    assertThat(published.get(published.size() - 1).name()).isEqualTo("CURRENT");
    assertThat(published.get(published.size() - 2).name()).isEqualTo(Manifest.FILE_NAME);
    assertThat(new String(get(root.key("CURRENT")), java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo("exports/2024-05-01-7\n");
    for (ArtifactFile file : manifest.files()) {
      assertThat(Checksums.sha256(get(export.key(file.name())))).isEqualTo(file.sha256());
    }
  }

  @Test
  void aServerStoppedMidUploadFailsWithoutThePointerAndARerunCompletesIt() throws IOException {
    Manifest manifest = export(dir, 1);
    S3Location root = newTarget();
    try (ArtifactUploader uploader =
        new ArtifactUploader(
            settings(),
            line -> {
              progress.add(line);
              if (progress.size() == 2) {
                server.stop(); // after the second object, before the third
              }
            })) {
      assertThatThrownBy(() -> uploader.publish(dir, "2024-05-01-8", manifest, root))
          .isInstanceOf(UploadException.class)
          .hasMessageContaining(server.endpoint().toString());
    } finally {
      server.startAgain();
    }
    assertThat(keys(root)).doesNotContain(root.key("CURRENT"));
    assertThat(keys(root))
        .doesNotContain(root.child("exports/2024-05-01-8").key(Manifest.FILE_NAME));
    progress.clear();

    try (ArtifactUploader uploader = new ArtifactUploader(settings(), progress::add)) {
      List<PublishedObject> again = uploader.publish(dir, "2024-05-01-8", manifest, root);
      assertThat(again.subList(0, 2)).allMatch(PublishedObject::skipped);
      assertThat(again.get(again.size() - 1).name()).isEqualTo("CURRENT");
    }
  }

  private S3Settings settings() {
    return S3Settings.defaults()
        .withEndpointOverride(server.endpoint())
        .withPathStyleAccess(true)
        .withMultipart(5 * MIB, 5 * MIB)
        .withMaxAttempts(3);
  }

  private List<PublishedObject> upload(Manifest manifest, S3Location target) {
    return upload(dir, manifest, target);
  }

  private List<PublishedObject> upload(Path exportDir, Manifest manifest, S3Location target) {
    try (ArtifactUploader uploader = new ArtifactUploader(settings(), progress::add)) {
      return uploader.upload(exportDir, manifest, target);
    }
  }

  /** A prefix of its own for each test. */
  private S3Location newTarget() {
    return S3Location.parse("s3://" + BUCKET + "/exports/run-" + PREFIXES.incrementAndGet());
  }

  /**
   * A published export as {@link dev.flatdump.artifact.write.LocalPublisher} leaves it: one shard
   * above the 5 MiB test threshold, one below, a compressed copy, an empty rejects file, a report,
   * and the manifest. {@code seed} varies the bytes.
   */
  private static Manifest export(Path dir, long seed) throws IOException {
    Files.createDirectories(dir);
    Random random = new Random(seed);
    List<ArtifactFile> files = new ArrayList<>();
    files.add(write(dir, "organizations-00000.fb", "flatbuffers", random, 12 * MIB + 321, 0));
    files.add(write(dir, "organizations-00001.fb", "flatbuffers", random, 100_000, 1));
    files.add(write(dir, "organizations-00000.fb.zst", "zstd", random, 70_000, 0));
    files.add(write(dir, "rejects.jsonl", "jsonl", random, 0, null));
    Files.writeString(dir.resolve("report.json"), "{\"seed\": " + seed + "}\n");
    files.add(file(dir, "report.json", "json", null, null));
    Manifest manifest =
        new Manifest(
            Manifest.FORMAT_VERSION,
            new Manifest.Schema("organizations.fbs", "c".repeat(64), "ORGS", "organizations.bfbs"),
            new Manifest.Source("shop", "organizations", "{}"),
            new Manifest.Options("strings,attributes,vectors", List.of("zstd"), 1L << 30, false, 1),
            new Manifest.Counts(7, 7, 0),
            files,
            Instant.parse("2024-05-01T10:15:30Z"),
            Instant.parse("2024-05-01T10:16:01Z"));
    manifest.write(dir);
    return manifest;
  }

  private static ArtifactFile write(
      Path dir, String name, String format, Random random, long size, Integer shard)
      throws IOException {
    byte[] bytes = new byte[(int) size];
    random.nextBytes(bytes);
    Files.write(dir.resolve(name), bytes);
    return file(dir, name, format, shard, shard == null ? 0L : 3L + shard);
  }

  private static ArtifactFile file(
      Path dir, String name, String format, Integer shard, Long records) throws IOException {
    Path path = dir.resolve(name);
    return new ArtifactFile(name, format, Files.size(path), Checksums.sha256(path), shard, records);
  }

  private List<String> keys(S3Location target) {
    return s3
        .listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(target.prefix()))
        .contents()
        .stream()
        .map(S3Object::key)
        .toList();
  }

  private Map<String, String> etagsAndDates(S3Location target) {
    Map<String, String> result = new LinkedHashMap<>();
    for (String key : keys(target)) {
      HeadObjectResponse head = head(key);
      result.put(key, head.eTag() + " " + head.lastModified());
    }
    return result;
  }

  private HeadObjectResponse head(String key) {
    return s3.headObject(b -> b.bucket(BUCKET).key(key));
  }

  private HeadObjectResponse headWithChecksum(String key) {
    return s3.headObject(b -> b.bucket(BUCKET).key(key).checksumMode(ChecksumMode.ENABLED));
  }

  private static String base64Sha256(byte[] bytes) {
    return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(Checksums.sha256(bytes)));
  }

  /** What S3 reports for a file uploaded in parts of {@code partSize}, computed independently. */
  private static String compositeSha256(Path file, long partSize) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    StringBuilder partDigests = new StringBuilder();
    int parts = 0;
    for (int off = 0; off < bytes.length; off += (int) partSize, parts++) {
      byte[] part = Arrays.copyOfRange(bytes, off, (int) Math.min(bytes.length, off + partSize));
      partDigests.append(Checksums.sha256(part));
    }
    return base64Sha256(HexFormat.of().parseHex(partDigests)) + "-" + parts;
  }

  private byte[] get(String key) {
    return s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray();
  }

  /** A loopback port nothing listens on (a moment ago). */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    }
  }
}
