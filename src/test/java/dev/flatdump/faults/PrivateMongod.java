package dev.flatdump.faults;

import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A mongod of one test's own, run by {@code bin/mongod-local} in its own state directory, so that
 * the test may stop it and start it again on the same port and data. The project directory comes
 * from the system property {@code flatdump.basedir}. Closing it stops the server (the state
 * directory stays for the caller to delete); it also stops when this JVM dies ({@code
 * --watch-pid}).
 */
public final class PrivateMongod implements AutoCloseable {

  private static final Duration START_LIMIT = Duration.ofMinutes(5);
  private static final Duration STOP_LIMIT = Duration.ofMinutes(1);

  private final Path script;
  private final Path state;
  private final Map<String, String> env;
  private int port;

  private PrivateMongod(Path script, Path state, Map<String, String> env) {
    this.script = script;
    this.state = state;
    this.env = env;
  }

  /** Starts a server on a free port, with its data in {@code state}. */
  public static PrivateMongod start(Path state) throws IOException, InterruptedException {
    return start(state, Map.of());
  }

  /**
   * Starts a server on a free port, with its data in {@code state}, and {@code env} added to {@code
   * bin/mongod-local}'s environment (e.g. {@code FLATDUMP_MONGOD_CONFIG}).
   */
  public static PrivateMongod start(Path state, Map<String, String> env)
      throws IOException, InterruptedException {
    Path basedir = Path.of(System.getProperty("flatdump.basedir", System.getProperty("user.dir")));
    PrivateMongod m = new PrivateMongod(basedir.resolve("bin").resolve("mongod-local"), state, env);
    Files.createDirectories(state);
    String uri = m.run(START_LIMIT, "start", "--watch-pid", pid()).strip();
    uri = uri.substring(uri.lastIndexOf('\n') + 1);
    m.port = Integer.parseInt(uri.substring(uri.lastIndexOf(':') + 1));
    return m;
  }

  public int port() {
    return port;
  }

  /** {@code bin/mongod-local stop}: SIGTERM, a clean shutdown that closes every connection. */
  void stop() throws IOException, InterruptedException {
    run(STOP_LIMIT, "stop");
  }

  /**
   * Starts the server again on the same port and data. A server that closed its connections leaves
   * them in TIME_WAIT on its port for up to 60 s, during which {@code bin/mongod-local} calls the
   * port busy (mongod itself would bind it); so this retries for up to {@code patience}.
   */
  void startAgain(Duration patience) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    while (true) {
      try {
        run(START_LIMIT, "start", "--port", Integer.toString(port), "--watch-pid", pid());
        return;
      } catch (IllegalStateException e) {
        if (!e.getMessage().contains("is busy") || System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(2000);
      }
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    stop();
  }

  private static String pid() {
    return Long.toString(ProcessHandle.current().pid());
  }

  /** Runs the script and returns its stdout; fails with its stderr on a non-zero exit. */
  private String run(Duration limit, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
    cmd.addAll(List.of(args));
    Path stdout = state.resolve(args[0] + ".stdout");
    Path stderr = state.resolve(args[0] + ".stderr");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectInput(Redirect.from(new File("/dev/null")))
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile());
    pb.environment().putAll(env);
    pb.environment().put("FLATDUMP_MONGOD_STATE", state.toString());
    Process p = pb.start();
    if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(String.join(" ", cmd) + " took longer than " + limit);
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException(
          String.join(" ", cmd)
              + " exited with "
              + p.exitValue()
              + ": "
              + Files.readString(stderr));
    }
    return Files.readString(stdout);
  }
}
