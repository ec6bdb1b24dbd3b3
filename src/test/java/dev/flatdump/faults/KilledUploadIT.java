package dev.flatdump.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.testing.MinioServer;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@code kill -9} of {@code export --upload} while uploadStep is sending the data files to MinIO:
 * the bucket holds no {@code manifest.json} and no {@code CURRENT}, so a consumer never sees an
 * incomplete set as an export; running the same command again completes the upload, skipping the
 * objects already there.
 */
@ExtendWith(MongoDbExtension.class)
class KilledUploadIT {

  private static final String BUCKET = "artifacts";
  private static final String PREFIX = "p/";
  private static final String ACCESS_KEY = MinioServer.ACCESS_KEY;
  private static final String SECRET = MinioServer.SECRET_KEY;

  /** Objects that must be in the bucket, without a manifest, before the kill. */
  private static final int OBJECTS_BEFORE_KILL = 3;

  @BeforeAll
  static void credentials() {
    // the in-process rerun: the SDK's default chain reads these system properties
    System.setProperty("aws.accessKeyId", ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", SECRET);
  }

  @AfterAll
  static void clearCredentials() {
    System.clearProperty("aws.accessKeyId");
    System.clearProperty("aws.secretAccessKey");
  }

  private static Set<String> keys(S3Client s3) {
    return s3.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(PREFIX)).contents().stream()
        .map(S3Object::key)
        .collect(Collectors.toSet());
  }

  /** {@code java -jar flatdump.jar args...} with the AWS credentials and region in its env. */
  private static Process startJar(Path log, List<String> args) throws Exception {
    assertThat(JarRun.JAR).as("build it with 'package' first").isRegularFile();
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(
        List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", JarRun.JAR.toString()));
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.redirectOutput(log.toFile());
    pb.environment().put("AWS_ACCESS_KEY_ID", ACCESS_KEY);
    pb.environment().put("AWS_SECRET_ACCESS_KEY", SECRET);
    pb.environment().put("AWS_REGION", "us-east-1");
    return pb.start();
  }

  @Test
  @Timeout(180)
  void killedUploadLeavesNoManifestAndARerunCompletesIt(
      MongoServer mongo, MongoDatabase db, @TempDir Path tmp) throws Exception {
    long t0 = System.nanoTime();
    ReferenceExport.generate(db);
    double generated = (System.nanoTime() - t0) / 1e9;
    Path out = tmp.resolve("out");
    Path log = tmp.resolve("killed.log");

    try (MinioServer server = MinioServer.start(false, BUCKET);
        S3Client s3 = server.client()) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "export",
                  "--schema",
                  Path.of("schemas", "organizations.fbs").toAbsolutePath().toString(),
                  "--uri",
                  mongo.uri(),
                  "--db",
                  db.getName(),
                  "--collection",
                  ReferenceExport.COLLECTION,
                  "--out",
                  out.toString(),
                  "--shard-size",
                  "64KiB",
                  "--run-date",
                  "2026-05-01",
                  "--upload",
                  "s3://" + BUCKET + "/" + PREFIX.substring(0, PREFIX.length() - 1),
                  "--s3-endpoint",
                  server.endpoint().toString(),
                  "--s3-path-style"));

      long started = System.nanoTime();
      Process process = startJar(log, args);
      Set<String> before;
      try {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
          Set<String> k = keys(s3);
          if (k.stream().anyMatch(key -> key.endsWith("/" + Manifest.FILE_NAME))) {
            throw new AssertionError(
                "the upload finished before it could be killed; log:\n" + Files.readString(log));
          }
          if (k.size() >= OBJECTS_BEFORE_KILL) {
            break;
          }
          if (!process.isAlive() || System.nanoTime() > deadline) {
            throw new AssertionError(
                "no upload in progress to kill (alive: "
                    + process.isAlive()
                    + "); log:\n"
                    + Files.readString(log));
          }
          Thread.sleep(10);
        }
        assertThat(process.isAlive()).as("still uploading when killed").isTrue();
        process.destroyForcibly();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("gone after SIGKILL").isTrue();
      } finally {
        if (process.isAlive()) {
          process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
      }
      double killedAfter = (System.nanoTime() - started) / 1e9;
      before = keys(s3);

      Path exportDir = OutputLayout.resolve(out);
      String exportPrefix = PREFIX + "exports/" + exportDir.getFileName() + "/";
      assertThat(before)
          .as("a consumer sees no manifest and no pointer for an incomplete set")
          .doesNotContain(exportPrefix + Manifest.FILE_NAME, PREFIX + "CURRENT");
      Manifest local = Manifest.read(exportDir.resolve(Manifest.FILE_NAME));
      Set<String> listed =
          local.files().stream().map(f -> exportPrefix + f.name()).collect(Collectors.toSet());
      assertThat(listed).as("files of the export").hasSizeGreaterThan(before.size());
      assertThat(before).as("objects of a killed upload").isSubsetOf(listed);

      long rerunStarted = System.nanoTime();
      CliResult rerun = CliResult.inProcess(args.toArray(String[]::new));
      double rerunSeconds = (System.nanoTime() - rerunStarted) / 1e9;
      assertThat(rerun.exitCode()).as(rerun.toString()).isZero();
      assertThat(rerun.out()).contains("uploadStep").contains("COMPLETED");
      assertThat(rerun.toString()).doesNotContain(SECRET);

      Manifest manifest = Manifest.read(exportDir.resolve(Manifest.FILE_NAME));
      for (ArtifactFile f : manifest.files()) {
        byte[] bytes =
            s3.getObject(
                    b -> b.bucket(BUCKET).key(exportPrefix + f.name()),
                    ResponseTransformer.toBytes())
                .asByteArray();
        assertThat(Checksums.sha256(bytes)).as(f.name()).isEqualTo(f.sha256());
      }
      byte[] remoteManifest =
          s3.getObject(
                  b -> b.bucket(BUCKET).key(exportPrefix + Manifest.FILE_NAME),
                  ResponseTransformer.toBytes())
              .asByteArray();
      assertThat(Checksums.sha256(remoteManifest))
          .isEqualTo(Checksums.sha256(exportDir.resolve(Manifest.FILE_NAME)));
      assertThat(keys(s3)).hasSize(manifest.files().size() + 2).contains(PREFIX + "CURRENT");

      boolean resumed = rerun.err().contains("resumed the failed run");
      long skipped = rerun.err().lines().filter(l -> l.contains("skipped, unchanged")).count();
      assertThat(skipped)
          .as("intact objects of the killed run are skipped: %s", rerun)
          .isGreaterThanOrEqualTo(before.size());
      System.out.printf(
          "KilledUploadIT: generated in %.1f s; killed after %.1f s with %d of %d objects"
              + " uploaded; rerun took %.1f s, %s, skipped %d unchanged objects:%n%s",
          generated,
          killedAfter,
          before.size(),
          listed.size(),
          rerunSeconds,
          resumed ? "resumed" : "started over",
          skipped,
          Artifacts.stepTable(rerun.out()));
    }
  }
}
