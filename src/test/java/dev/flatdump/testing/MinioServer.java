package dev.flatdump.testing;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3 server for integration tests: MinIO, built once by {@code bin/minio-local} from the Go
 * module proxy, run as its own process on 127.0.0.1 only, storing objects in a fresh temporary
 * directory. Over http, or over https with a self-signed certificate for 127.0.0.1 that {@link
 * #trustStore()} holds (in PKCS12, password {@value #TRUST_STORE_PASSWORD}).
 *
 * <pre>{@code
 * try (MinioServer s3 = MinioServer.start(false, "artifacts")) {
 *   URI endpoint = s3.endpoint(); // http://127.0.0.1:<port>, path-style
 * }
 * }</pre>
 *
 * <p>Unlike a mock, MinIO checks signatures and checksums as S3 does. Credentials: {@link
 * #ACCESS_KEY} / {@link #SECRET_KEY}. {@link #stop()} and {@link #startAgain()} stop and restart it
 * on the same port with the same objects; {@link #close()} stops it and deletes its directory (a
 * shutdown hook does the same if the test JVM exits first). Not thread-safe: one owner.
 */
public final class MinioServer implements AutoCloseable {

  public static final String ACCESS_KEY = "flatdump-minio";
  public static final String SECRET_KEY = "flatdump-minio-secret-7Rk2";
  public static final String TRUST_STORE_PASSWORD = "changeit";

  private static final Duration START_TIMEOUT = Duration.ofMinutes(20); // includes a first build
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
  private static final String LOOPBACK = "127.0.0.1";
  private static final Path SCRIPT =
      Path.of(System.getProperty("flatdump.basedir", "."), "bin", "minio-local").toAbsolutePath();

  private final Path workDir;
  private final int port;
  private final boolean https;
  private final Thread shutdownHook;
  private Process process;
  private boolean closed;

  private MinioServer(Path workDir, int port, boolean https) {
    this.workDir = workDir;
    this.port = port;
    this.https = https;
    this.shutdownHook = new Thread(this::closeQuietly, "MinioServer-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts MinIO (building it first if this machine has no build yet) with the given buckets, and
   * waits until it answers.
   *
   * @param https serve https with a fresh self-signed certificate instead of http
   */
  public static MinioServer start(boolean https, String... buckets) throws IOException {
    Path workDir = Files.createTempDirectory("flatdump-minio-");
    MinioServer server = new MinioServer(workDir, freePort(), https);
    try {
      if (https) {
        server.makeCertificate();
      }
      server.startAgain();
      try (S3Client s3 = server.client()) {
        for (String bucket : buckets) {
          s3.createBucket(b -> b.bucket(bucket));
        }
      }
    } catch (IOException | RuntimeException e) {
      server.closeQuietly();
      throw e;
    }
    return server;
  }

  /** Starts the server again after {@link #stop()}, on the same port, with the same objects. */
  public void startAgain() throws IOException {
    if (process != null && process.isAlive()) {
      return;
    }
    List<String> command =
        new ArrayList<>(
            List.of(
                SCRIPT.toString(),
                "run",
                "--data",
                workDir.resolve("data").toString(),
                "--port",
                Integer.toString(port)));
    if (https) {
      command.addAll(List.of("--certs-dir", workDir.resolve("certs").toString()));
    }
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .redirectInput(Redirect.from(Path.of("/dev/null").toFile()))
            .redirectErrorStream(true)
            .redirectOutput(Redirect.appendTo(log().toFile()));
    pb.environment().put("MINIO_ROOT_USER", ACCESS_KEY);
    pb.environment().put("MINIO_ROOT_PASSWORD", SECRET_KEY);
    process = pb.start();
    awaitAnswer();
  }

  /**
   * Stops the server (SIGTERM, then SIGKILL after 30 s); its objects stay for {@link #startAgain}.
   */
  public void stop() {
    if (process == null) {
      return;
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
  }

  /** {@code http://127.0.0.1:<port>} or {@code https://...}; address buckets path-style. */
  public URI endpoint() {
    return URI.create((https ? "https" : "http") + "://" + LOOPBACK + ":" + port);
  }

  /** The PKCS12 trust store holding this server's certificate; only for an https server. */
  public Path trustStore() {
    if (!https) {
      throw new IllegalStateException("an http server has no certificate");
    }
    return workDir.resolve("truststore.p12");
  }

  /**
   * A client for this server, for tests to set up and look at what was uploaded: path-style,
   * us-east-1, this server's credentials, trusting its certificate. The caller closes it.
   */
  public S3Client client() {
    UrlConnectionHttpClient.Builder http = UrlConnectionHttpClient.builder();
    if (https) {
      http.tlsTrustManagersProvider(() -> trustManagers().getTrustManagers());
    }
    return S3Client.builder()
        .httpClientBuilder(http)
        .endpointOverride(endpoint())
        .forcePathStyle(true)
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        .build();
  }

  /** Stops the server and deletes its directory. Idempotent. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shutdownInProgress) {
      // called from the hook itself
    }
    stop();
    deleteRecursively(workDir);
  }

  @Override
  public String toString() {
    return "MinIO at " + endpoint();
  }

  private Path log() {
    return workDir.resolve("minio.log");
  }

  private void closeQuietly() {
    try {
      close();
    } catch (IOException | RuntimeException e) {
      System.err.println("MinioServer: could not clean up " + workDir + ": " + e);
    }
  }

  /** A self-signed certificate for 127.0.0.1 (openssl), and a trust store holding it (keytool). */
  private void makeCertificate() throws IOException {
    Path certs = Files.createDirectories(workDir.resolve("certs"));
    run(
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        certs.resolve("private.key").toString(),
        "-out",
        certs.resolve("public.crt").toString());
    run(
        Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
        "-importcert",
        "-noprompt",
        "-alias",
        "minio",
        "-file",
        certs.resolve("public.crt").toString(),
        "-keystore",
        trustStore().toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        TRUST_STORE_PASSWORD);
  }

  private TrustManagerFactory trustManagers() {
    try (var in = Files.newInputStream(trustStore())) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, TRUST_STORE_PASSWORD.toCharArray());
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(store);
      return tmf;
    } catch (IOException | java.security.GeneralSecurityException e) {
      throw new IllegalStateException("cannot load " + trustStore() + ": " + e, e);
    }
  }

  private void run(String... command) throws IOException {
    Path out = workDir.resolve("setup.log");
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(Redirect.appendTo(out.toFile()))
            .start();
    try {
      if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
        throw new IllegalStateException(
            String.join(" ", command) + " failed:\n" + Files.readString(out));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + command[0], e);
    }
  }

  /** Polls MinIO's liveness endpoint until it answers 200. */
  private void awaitAnswer() throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "MinIO exited with " + process.exitValue() + " while starting" + tail());
      }
      if (answers()) {
        return;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for MinIO", e);
      }
    }
    throw new IllegalStateException(
        "MinIO did not answer at " + endpoint() + " within " + START_TIMEOUT + tail());
  }

  private boolean answers() {
    try {
      HttpURLConnection connection =
          (HttpURLConnection) endpoint().resolve("/minio/health/live").toURL().openConnection();
      if (connection instanceof HttpsURLConnection tls) {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers().getTrustManagers(), null);
        tls.setSSLSocketFactory(context.getSocketFactory());
      }
      connection.setConnectTimeout(1000);
      connection.setReadTimeout(5000);
      try {
        return connection.getResponseCode() == 200;
      } finally {
        connection.disconnect();
      }
    } catch (IOException | java.security.GeneralSecurityException notYet) {
      return false;
    }
  }

  private String tail() throws IOException {
    List<String> lines = Files.exists(log()) ? Files.readAllLines(log()) : List.of();
    List<String> last = lines.subList(Math.max(0, lines.size() - 30), lines.size());
    return "; the end of " + log() + ":\n  " + String.join("\n  ", last);
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
