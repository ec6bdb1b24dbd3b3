package dev.flatdump.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One {@code java -jar flatdump.jar ...} child process, so that a test can kill it with SIGKILL or
 * watch it fail. Its stdout and stderr go to one log file. Closing it kills it if it still runs.
 *
 * <p>The child runs with {@code -XX:TieredStopAtLevel=1}: the same code, a JIT that starts faster,
 * which matters on a small CI machine. The jar is the system property {@code flatdump.jar}.
 */
final class JarRun implements AutoCloseable {

  static final Path JAR = Path.of(System.getProperty("flatdump.jar", "target/flatdump.jar"));

  private final Process process;
  private final Path log;

  private JarRun(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** Starts {@code flatdump args...}; its output goes to {@code log}. */
  static JarRun start(Path log, List<String> args) throws IOException {
    return start(log, List.of(), args);
  }

  /**
   * Starts {@code java JVM_OPTIONS -jar flatdump.jar args...}, e.g. with {@code
   * -Dflatdump.crashAt=publish.renamed}; its output goes to {@code log}.
   */
  static JarRun start(Path log, List<String> jvmOptions, List<String> args) throws IOException {
    if (!Files.isRegularFile(JAR)) {
      throw new IllegalStateException(
          JAR + " not found: build it with 'package' first (system property flatdump.jar)");
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-jar", JAR.toString()));
    cmd.addAll(args);
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new JarRun(p, log);
  }

  boolean isAlive() {
    return process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  /**
   * Polls {@code condition} every {@code pollMillis} (0: spins, for short windows) until it holds,
   * the process exits, or {@code limit} passes.
   *
   * @return whether the condition holds
   */
  boolean awaitWhileAlive(BooleanSupplier condition, long pollMillis, Duration limit)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        return condition.getAsBoolean();
      }
      if (pollMillis > 0) {
        Thread.sleep(pollMillis);
      } else {
        Thread.onSpinWait();
      }
    }
    return true;
  }

  /** SIGKILL: no shutdown hooks, no finally blocks, no cleanup. Waits until it is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("pid " + process.pid() + " survived SIGKILL for 30 s");
    }
  }

  /** Waits for the exit code; kills the process and fails if it takes longer than {@code limit}. */
  int awaitExit(Duration limit) throws InterruptedException {
    if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      kill();
      throw new AssertionError("still running after " + limit + "; log:\n" + log());
    }
    return process.exitValue();
  }

  /** Everything it printed so far. */
  String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
