package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.sample.Profile;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import dev.flatdump.testing.S3MockServer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code export --upload} against a real mongod and a real S3-API server (S3Mock, its own process).
 */
@ExtendWith(MongoDbExtension.class)
class ExportUploadIT {

  private static final String BUCKET = "artifacts";
  private static final String SECRET = "s3cr3t-upload-key";

  @BeforeAll
  static void credentials() {
    // the SDK's default chain reads these system properties, as it reads AWS_* variables
    System.setProperty("aws.accessKeyId", "flatdump-it");
    System.setProperty("aws.secretAccessKey", SECRET);
  }

  @AfterAll
  static void clearCredentials() {
    System.clearProperty("aws.accessKeyId");
    System.clearProperty("aws.secretAccessKey");
  }

  private static void assertUploaded(S3MockServer server, Path out, String prefix) {
    Manifest m = Manifest.read(out.resolve("manifest.json"));
    try (S3Client s3 = server.client()) {
      for (var f : m.files()) {
        byte[] bytes =
            s3.getObject(
                    b -> b.bucket(BUCKET).key(prefix + f.name()), ResponseTransformer.toBytes())
                .asByteArray();
        assertThat(Checksums.sha256(bytes)).as(f.name()).isEqualTo(f.sha256());
      }
      byte[] manifest =
          s3.getObject(
                  b -> b.bucket(BUCKET).key(prefix + "manifest.json"),
                  ResponseTransformer.toBytes())
              .asByteArray();
      assertThat(Checksums.sha256(manifest))
          .isEqualTo(Checksums.sha256(out.resolve("manifest.json")));
    }
  }

  @Test
  void uploadsTheExportDataFirstAndManifestLast(
      MongoServer mongo, MongoDatabase db, @TempDir Path out) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 8, 400);
    try (S3MockServer s3 = S3MockServer.start(BUCKET)) {
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
      assertThat(run.err().lastIndexOf("manifest.json"))
          .as("manifest uploaded last")
          .isGreaterThan(run.err().lastIndexOf("organizations.fb.zst"));
      assertThat(run.toString()).doesNotContain(SECRET);
      assertUploaded(s3, out, "nightly/orgs/");
    }
  }

  @Test
  void aFailedUploadFailsTheJobAndARestartRedoesOnlyTheUpload(
      MongoServer mongo, MongoDatabase db, @TempDir Path out) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 9, 300);
    String endpoint;
    try (S3MockServer down = S3MockServer.start(BUCKET)) {
      endpoint = down.endpoint().toString();
    } // stopped: nothing listens there any more
    CliRun failed =
        ExportCommandIT.export(
            mongo,
            db,
            "orgs",
            out,
            "--run-date",
            "2026-04-01",
            "--upload",
            "s3://" + BUCKET + "/orgs",
            "--s3-endpoint",
            endpoint,
            "--s3-path-style");
    assertThat(failed.exitCode()).as(failed.toString()).isEqualTo(1);
    assertThat(failed.err()).contains("uploadStep").contains("cannot upload");
    assertThat(failed.toString()).doesNotContain(SECRET);
    assertThat(out.resolve("manifest.json")).as("the local export itself completed").exists();

    try (S3MockServer up = S3MockServer.start(BUCKET)) {
      // the endpoint changed: upload options don't identify the run, so a restart may fix them
      CliRun resumed =
          CliRun.withEnv(
              Map.of(),
              "export",
              "--uri",
              mongo.uri(),
              "--db",
              db.getName(),
              "--collection",
              "orgs",
              "--out",
              out.toString(),
              "--restart",
              "--upload",
              "s3://" + BUCKET + "/orgs",
              "--s3-endpoint",
              up.endpoint().toString(),
              "--s3-path-style");
      assertThat(resumed.exitCode()).as(resumed.toString()).isZero();
      assertThat(resumed.out()).contains("uploadStep").doesNotContain("exportStep ");
      assertUploaded(up, out, "orgs/");
    }
  }
}
