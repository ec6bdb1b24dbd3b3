package dev.flatdump.testing;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ProcessBuilder.Redirect;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3-compatible server for integration tests: Adobe's S3Mock executable jar, started as its
 * own {@code java} process, listening on 127.0.0.1 only, storing objects in a fresh temporary
 * directory. Use from {@code @BeforeAll}/{@code @AfterAll}, or in try-with-resources:
 *
 * <pre>{@code
 * try (S3MockServer s3 = S3MockServer.start("flatdump")) {
 *   URI endpoint = s3.endpoint(); // http://127.0.0.1:<port>, path-style, any credentials
 * }
 * }</pre>
 *
 * <p>The jar comes from the system property {@value #JAR_PROPERTY}, which Failsafe sets to the copy
 * {@code maven-dependency-plugin} makes at {@code pre-integration-test}. S3Mock answers any
 * credentials and does not check signatures.
 *
 * <p>{@link #close()} stops the process and deletes its directory; a shutdown hook does the same if
 * the test JVM exits first. Not thread-safe: one owner starts and stops it.
 */
public final class S3MockServer implements AutoCloseable {

  /** The system property naming S3Mock's executable jar. */
  public static final String JAR_PROPERTY = "flatdump.s3mock.jar";

  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
  private static final String LOOPBACK = S3MockLoopbackConnectors.ADDRESS;

  private final Process process;
  private final Path workDir;
  private final Path log;
  private final URI endpoint;
  private final Thread shutdownHook;
  private boolean stopped;

  private S3MockServer(Process process, Path workDir, Path log, URI endpoint) {
    this.process = process;
    this.workDir = workDir;
    this.log = log;
    this.endpoint = endpoint;
    this.shutdownHook = new Thread(this::stopQuietly, "S3MockServer-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts S3Mock with the given buckets and waits until it answers.
   *
   * @throws IllegalStateException when the jar is missing, or the server exits or does not answer
   *     in time; the message carries the end of its log
   */
  public static S3MockServer start(String... initialBuckets) throws IOException {
    Path jar = jar();
    Path workDir = Files.createTempDirectory("flatdump-s3mock-");
    Path log = workDir.resolve("s3mock.log");
    int port = freePort();
    int secondPort = freePort();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // A small, quick-starting JVM: the tests move a few MiB.
    command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    // PropertiesLauncher instead of the jar's own launcher, to add loader/ to its class path.
    command.addAll(
        List.of(
            "-cp",
            jar.toString(),
            "-Dloader.path=" + loaderDir(workDir),
            "-Dloader.main=com.adobe.testing.s3mock.S3MockApplication",
            "org.springframework.boot.loader.launch.PropertiesLauncher"));
    command.addAll(
        List.of(
            // The main connector: plain HTTP on loopback (S3Mock's default is HTTPS).
            "--server.address=" + LOOPBACK,
            "--server.port=" + port,
            "--server.ssl.enabled=false",
            // The second connector S3Mock always opens, bound to loopback too.
            "--com.adobe.testing.s3mock.http-port=" + secondPort,
            "--spring.main.sources=" + S3MockLoopbackConnectors.class.getName(),
            "--spring.main.banner-mode=off",
            "--com.adobe.testing.s3mock.store.root=" + workDir.resolve("root"),
            "--com.adobe.testing.s3mock.store.initial-buckets="
                + String.join(",", initialBuckets)));
    Process process =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectInput(Redirect.from(Path.of("/dev/null").toFile()))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    S3MockServer server =
        new S3MockServer(process, workDir, log, URI.create("http://" + LOOPBACK + ":" + port));
    try {
      server.awaitAnswer();
    } catch (RuntimeException | IOException e) {
      server.stopQuietly();
      throw e;
    }
    return server;
  }

  /** Where the server listens: {@code http://127.0.0.1:<port>}; address buckets path-style. */
  /**
   * A client for this server, for tests to look at what was uploaded: path-style, us-east-1, and
   * fixed credentials (S3Mock does not check them). The caller closes it.
   */
  public S3Client client() {
    return S3Client.builder()
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .endpointOverride(endpoint())
        .forcePathStyle(true)
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("s3mock", "s3mock")))
        .build();
  }

  public URI endpoint() {
    return endpoint;
  }

  /** Whether the process is still running. */
  public boolean isRunning() {
    return process.isAlive();
  }

  /** Stops the server (SIGTERM, then SIGKILL after 30 s) and deletes its directory. Idempotent. */
  @Override
  public void close() throws IOException {
    if (stopped) {
      return;
    }
    stopped = true;
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shutdownInProgress) {
      // called from the hook itself
    }
    process.destroy();
    try {
      if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    deleteRecursively(workDir);
  }

  @Override
  public String toString() {
    return "S3Mock at " + endpoint + " (pid " + process.pid() + ")";
  }

  private void stopQuietly() {
    try {
      close();
    } catch (IOException | RuntimeException e) {
      System.err.println("S3MockServer: could not clean up " + workDir + ": " + e);
    }
  }

  private static Path jar() {
    String property = System.getProperty(JAR_PROPERTY);
    Path jar = property == null || property.isBlank() ? null : Path.of(property);
    if (jar == null || !Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "S3Mock's executable jar not found: the system property "
              + JAR_PROPERTY
              + " is "
              + (property == null ? "not set" : "'" + property + "'")
              + ". Run the integration tests through './mvnw verify', which copies"
              + " com.adobe.testing:s3mock:<s3mock.version>:jar:exec there at"
              + " pre-integration-test, or set the property to an s3mock-<version>-exec.jar.");
    }
    return jar;
  }

  /** A directory holding only {@link S3MockLoopbackConnectors}, for S3Mock's class path. */
  private static Path loaderDir(Path workDir) throws IOException {
    Class<?> type = S3MockLoopbackConnectors.class;
    String resource = type.getName().replace('.', '/') + ".class";
    Path target = workDir.resolve("loader").resolve(resource);
    Files.createDirectories(target.getParent());
    try (InputStream in = type.getClassLoader().getResourceAsStream(resource)) {
      Files.copy(Objects.requireNonNull(in, resource), target);
    }
    return workDir.resolve("loader");
  }

  /** Polls {@code GET /} (ListBuckets, which S3Mock answers unsigned) until it returns 200. */
  private void awaitAnswer() throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "S3Mock exited with " + process.exitValue() + " while starting" + tail());
      }
      if (answers()) {
        return;
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for S3Mock", e);
      }
    }
    throw new IllegalStateException(
        "S3Mock did not answer at " + endpoint + " within " + START_TIMEOUT + tail());
  }

  private boolean answers() {
    try {
      HttpURLConnection connection =
          (HttpURLConnection) endpoint.resolve("/").toURL().openConnection();
      connection.setConnectTimeout(1000);
      connection.setReadTimeout(5000);
      try {
        return connection.getResponseCode() == 200;
      } finally {
        connection.disconnect();
      }
    } catch (IOException notYet) {
      return false;
    }
  }

  private String tail() throws IOException {
    List<String> lines = Files.readAllLines(log);
    List<String> last = lines.subList(Math.max(0, lines.size() - 30), lines.size());
    return "; the end of " + log + ":\n  " + String.join("\n  ", last);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return socket.getLocalPort();
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
