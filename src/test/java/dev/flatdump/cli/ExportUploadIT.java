package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.testing.MinioServer;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code export --upload} against a real mongod and a real S3 server (MinIO, its own process), over
 * http and over https, as a new user runs it.
 */
@ExtendWith(MongoDbExtension.class)
class ExportUploadIT {

  private static final String BUCKET = "artifacts";

  @BeforeAll
  static void credentials() {
    // the SDK's default chain reads these system properties, as it reads AWS_* variables
    System.setProperty("aws.accessKeyId", MinioServer.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", MinioServer.SECRET_KEY);
  }

  @AfterAll
  static void clearCredentials() {
    System.clearProperty("aws.accessKeyId");
    System.clearProperty("aws.secretAccessKey");
  }

  /**
   * The current export of {@code out} is in the bucket under {@code prefix/exports/NAME/}, byte for
   * byte, and {@code prefix/CURRENT} names it.
   */
  private static void assertUploaded(MinioServer server, Path out, String prefix) {
    Path dir = OutputLayout.resolve(out);
    String exportPrefix = prefix + "exports/" + dir.getFileName() + "/";
    Manifest m = Manifest.read(dir.resolve(Manifest.FILE_NAME));
    try (S3Client s3 = server.client()) {
      for (var f : m.files()) {
        assertThat(Checksums.sha256(get(s3, exportPrefix + f.name())))
            .as(f.name())
            .isEqualTo(f.sha256());
      }
      assertThat(Checksums.sha256(get(s3, exportPrefix + Manifest.FILE_NAME)))
          .isEqualTo(Checksums.sha256(dir.resolve(Manifest.FILE_NAME)));
      assertThat(new String(get(s3, prefix + "CURRENT"), StandardCharsets.UTF_8))
          .isEqualTo("exports/" + dir.getFileName() + "\n");
    }
  }

  private static byte[] get(S3Client s3, String key) {
    return s3.getObject(b -> b.bucket(BUCKET).key(key), ResponseTransformer.toBytes())
        .asByteArray();
  }

  @Test
  void uploadsTheExportUnderItsDirectoryDataFirstThenTheManifestThenThePointer(
      MongoServer mongo, MongoDatabase db, @TempDir Path out) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 8, 400);
    try (MinioServer s3 = MinioServer.start(false, BUCKET)) {
      CliRun run =
          ExportCommandIT.export(
              mongo,
              db,
              "orgs",
              out,
              "--upload",
              "s3://" + BUCKET + "/nightly/orgs",
              "--s3-endpoint",
              s3.endpoint().toString(),
              "--s3-path-style");
      assertThat(run.exitCode()).as(run.toString()).isZero();
      assertThat(run.out()).contains("uploadStep").contains("COMPLETED");
      String err = run.err();
      assertThat(err.indexOf("manifest.json: "))
          .as("manifest uploaded after the data")
          .isGreaterThan(err.lastIndexOf("organizations.fb.zst: "));
      assertThat(err.indexOf("CURRENT: "))
          .as("pointer uploaded last")
          .isGreaterThan(err.indexOf("manifest.json: "));
      assertThat(run.toString()).doesNotContain(MinioServer.SECRET_KEY);
      assertUploaded(s3, out, "nightly/orgs/");
    }
  }

  /**
   * As a user in a cluster with an internal CA runs it: MinIO over https with a self-signed
   * certificate, trusted through the JVM's options (what {@code FLATDUMP_JAVA_OPTS} passes).
   */
  @Test
  void uploadsOverHttpsWithTheCertificateTrustedThroughJavaOptions(
      MongoServer mongo, MongoDatabase db, @TempDir Path tmp) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 10, 300);
    Path out = tmp.resolve("out");
    try (MinioServer s3 = MinioServer.start(true, BUCKET)) {
      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.addAll(
          List.of(
              "-XX:TieredStopAtLevel=1",
              "-Djavax.net.ssl.trustStore=" + s3.trustStore(),
              "-Djavax.net.ssl.trustStorePassword=" + MinioServer.TRUST_STORE_PASSWORD,
              "-Djavax.net.ssl.trustStoreType=PKCS12",
              "-jar",
              Path.of(System.getProperty("flatdump.jar", "target/flatdump.jar")).toString()));
      cmd.addAll(
          List.of(
              ExportCommandIT.exportArgs(
                  mongo,
                  db,
                  "orgs",
                  out,
                  "--upload",
                  "s3://" + BUCKET + "/tls",
                  "--s3-endpoint",
                  s3.endpoint().toString(),
                  "--s3-path-style")));
      Path log = tmp.resolve("https.log");
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
      pb.redirectOutput(log.toFile());
      pb.environment().put("AWS_ACCESS_KEY_ID", MinioServer.ACCESS_KEY);
      pb.environment().put("AWS_SECRET_ACCESS_KEY", MinioServer.SECRET_KEY);
      Process p = pb.start();
      assertThat(p.waitFor(3, TimeUnit.MINUTES)).isTrue();
      assertThat(p.exitValue()).as(Files.readString(log)).isZero();
      assertUploaded(s3, out, "tls/");
    }
  }

  @Test
  void aFailedUploadFailsTheJobAndARestartRedoesOnlyTheUpload(
      MongoServer mongo, MongoDatabase db, @TempDir Path out) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 9, 300);
    try (MinioServer s3 = MinioServer.start(false, BUCKET)) {
      s3.stop(); // nothing listens at its endpoint any more
      String[] args = {
        "--run-date",
        "2026-04-01",
        "--upload",
        "s3://" + BUCKET + "/orgs",
        "--s3-endpoint",
        s3.endpoint().toString(),
        "--s3-path-style"
      };
      CliRun failed = ExportCommandIT.export(mongo, db, "orgs", out, args);
      assertThat(failed.exitCode()).as(failed.toString()).isEqualTo(1);
      assertThat(failed.err()).contains("uploadStep").contains("cannot upload");
      assertThat(failed.toString()).doesNotContain(MinioServer.SECRET_KEY);
      assertThat(OutputLayout.resolve(out).resolve(Manifest.FILE_NAME))
          .as("the local export itself was published")
          .exists();

      s3.startAgain();
      CliRun resumed =
          CliRun.withEnv(Map.of(), ExportCommandIT.exportArgs(mongo, db, "orgs", out, args));
      assertThat(resumed.exitCode()).as(resumed.toString()).isZero();
      assertThat(resumed.out())
          .contains("uploadStep")
          .doesNotContain("exportStep ")
          .doesNotContain("publishStep ");
      assertUploaded(s3, out, "orgs/");
    }
  }
}
