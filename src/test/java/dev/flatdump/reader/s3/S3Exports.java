package dev.flatdump.reader.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.check.ExportCheckFixtures;
import dev.flatdump.publish.ArtifactUploader;
import dev.flatdump.publish.S3Location;
import dev.flatdump.publish.S3Settings;
import dev.flatdump.testing.MinioServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Exports published to a real S3 server as flatdump publishes them, for the pull's tests: {@link
 * ExportCheckFixtures} writes a real export (shards of the bundled organizations schema, their gzip
 * and zstd copies, schema files, manifest) into {@code ROOT/NAME}, and the real {@link
 * ArtifactUploader} publishes it under {@code prefix/exports/NAME/}, then {@code prefix/CURRENT}.
 * Public for the CLI's tests.
 */
public final class S3Exports implements AutoCloseable {

  private final MinioServer server;
  private final S3Location root;
  private final Path local;
  private final ArtifactUploader uploader;

  /**
   * @param local where the exports are written before their upload, each in a directory of its own
   */
  public S3Exports(MinioServer server, String rootUri, Path local) {
    this.server = server;
    this.root = S3Location.parse(rootUri);
    this.local = local;
    // the SDK's default chain reads these system properties, as it reads AWS_* variables
    System.setProperty("aws.accessKeyId", MinioServer.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", MinioServer.SECRET_KEY);
    this.uploader =
        new ArtifactUploader(
            S3Settings.defaults().withEndpointOverride(server.endpoint()).withPathStyleAccess(true),
            line -> {});
  }

  /** Writes export {@code name} of {@code seed}'s orgs, uploads it and points CURRENT at it. */
  public Path publish(String name, long seed) {
    return publish(name, seed, ExportCheckFixtures.ORGS, 32 * 1024);
  }

  /** As {@link #publish(String, long)}, with {@code orgs} orgs in shards of {@code shardSize}. */
  public Path publish(String name, long seed, int orgs, int shardSize) {
    Path dir = local.resolve(name);
    Manifest manifest;
    if (Files.isRegularFile(dir.resolve(Manifest.FILE_NAME))) {
      manifest = Manifest.read(dir.resolve(Manifest.FILE_NAME));
    } else {
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      manifest = ExportCheckFixtures.export(dir, seed, orgs, shardSize);
    }
    uploader.publish(dir, name, manifest, root);
    return dir;
  }

  /** The key of {@code relative} below the root prefix. */
  public String key(String relative) {
    return root.prefix() + relative;
  }

  public String bucket() {
    return root.bucket();
  }

  /** Deletes every object of export {@code name}, as a lifecycle rule on the prefix would. */
  public void delete(String name) {
    try (S3Client s3 = server.client()) {
      List<S3Object> objects =
          s3
              .listObjectsV2Paginator(b -> b.bucket(bucket()).prefix(key("exports/" + name + "/")))
              .contents()
              .stream()
              .toList();
      for (S3Object o : objects) {
        s3.deleteObject(b -> b.bucket(bucket()).key(o.key()));
      }
    }
  }

  /** Replaces the object {@code relative} with its bytes, one of them changed. */
  public void corrupt(String relative) {
    try (S3Client s3 = server.client()) {
      byte[] bytes = s3.getObjectAsBytes(b -> b.bucket(bucket()).key(key(relative))).asByteArray();
      bytes[bytes.length / 2] ^= 0x10;
      s3.putObject(
          b -> b.bucket(bucket()).key(key(relative)),
          software.amazon.awssdk.core.sync.RequestBody.fromBytes(bytes));
    }
  }

  /** Every file of {@code expected} is in {@code actual} with the same bytes, and no other. */
  public static void assertSameFiles(Path actual, Path expected) {
    try (Stream<Path> a = Files.list(actual);
        Stream<Path> e = Files.list(expected)) {
      List<String> names = e.map(p -> p.getFileName().toString()).sorted().toList();
      assertThat(a.map(p -> p.getFileName().toString()).sorted().toList())
          .as(actual.toString())
          .isEqualTo(names);
      for (String n : names) {
        assertThat(Files.mismatch(actual.resolve(n), expected.resolve(n)))
            .as(actual.resolve(n) + " against " + expected.resolve(n))
            .isEqualTo(-1L);
      }
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  @Override
  public void close() {
    uploader.close();
  }
}
