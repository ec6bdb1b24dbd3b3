package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/flatdump} in a home of its own (the launcher and a copy of the built jar): it runs the
 * jar from an extracted layout made once per build of the jar, and the fat jar when it cannot make
 * one.
 */
class LauncherIT {

  private static final Path BASEDIR = Path.of(System.getProperty("flatdump.basedir", "."));
  private static final Path JAR =
      Path.of(System.getProperty("flatdump.jar", "target/flatdump.jar"));
  private static final Pattern CLASS_PATH = Pattern.compile("(?m)^\\s*java\\.class\\.path = (.*)$");

  @TempDir Path home;

  private final Map<Process, Path> logs = new HashMap<>();

  private record Launch(int exit, String out) {

    /** The JVM's class path, from -XshowSettings:properties. */
    String classPath() {
      Matcher m = CLASS_PATH.matcher(out);
      assertThat(m.find()).as("class path in:%n%s", out).isTrue();
      return m.group(1).trim();
    }
  }

  @BeforeEach
  void install() throws IOException {
    Files.createDirectories(home.resolve("bin"));
    Files.createDirectories(home.resolve("target"));
    Path launcher = home.resolve("bin").resolve("flatdump");
    Files.copy(BASEDIR.resolve("bin").resolve("flatdump"), launcher);
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.copy(JAR, home.resolve("target").resolve("flatdump.jar"));
  }

  @Test
  void runsFromALayoutExtractedOnce() throws Exception {
    Launch first = launch(Map.of());

    assertThat(first.exit()).as(first.out()).isZero();
    assertThat(first.out()).contains("flatdump ");
    List<Path> layouts = layouts();
    assertThat(layouts).hasSize(1);
    Path layout = layouts.get(0);
    assertThat(layout.resolve("flatdump.jar")).isRegularFile();
    try (Stream<Path> libs = Files.list(layout.resolve("lib"))) {
      assertThat(libs.filter(p -> p.toString().endsWith(".jar")).count()).isGreaterThan(10);
    }
    assertThat(first.classPath()).isEqualTo(layout.resolve("flatdump.jar").toString());
    FileTime made = Files.getLastModifiedTime(layout.resolve("flatdump.jar"));

    Launch second = launch(Map.of());

    assertThat(second.exit()).as(second.out()).isZero();
    assertThat(layouts()).containsExactly(layout);
    assertThat(Files.getLastModifiedTime(layout.resolve("flatdump.jar"))).isEqualTo(made);
    assertThat(second.classPath()).isEqualTo(first.classPath());
    assertThat(leftovers()).isEmpty();
  }

  @Test
  void aNewBuildGetsItsOwnLayoutWhichConcurrentLaunchesShare() throws Exception {
    assertThat(launch(Map.of()).exit()).isZero();
    Path old = layouts().get(0);
    Path jar = home.resolve("target").resolve("flatdump.jar");
    Files.setLastModifiedTime(
        jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));

    List<Process> running = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      running.add(start(Map.of()));
    }
    List<Launch> launches = new ArrayList<>();
    for (Process p : running) {
      launches.add(await(p));
    }

    List<Path> layouts = layouts();
    assertThat(layouts).hasSize(2).contains(old);
    Path fresh = layouts.stream().filter(p -> !p.equals(old)).findFirst().orElseThrow();
    assertThat(old.resolve("flatdump.jar")).as("a layout is never removed").isRegularFile();
    for (Launch l : launches) {
      assertThat(l.exit()).as(l.out()).isZero();
      assertThat(l.out()).contains("flatdump ");
      assertThat(l.classPath()).isEqualTo(fresh.resolve("flatdump.jar").toString());
    }
    assertThat(leftovers()).isEmpty();
  }

  @Test
  void runsTheFatJarWhenItCannotExtract() throws Exception {
    // A java first on the PATH that fails Spring Boot's extract tool and runs anything else.
    Path fakeBin = Files.createDirectories(home.resolve("fake-bin"));
    Path java = fakeBin.resolve("java");
    Files.writeString(
        java,
        "#!/usr/bin/env bash\n"
            + "for a in \"$@\"; do [ \"$a\" = -Djarmode=tools ] && exit 3; done\n"
            + "exec '"
            + Path.of(System.getProperty("java.home"), "bin", "java")
            + "' \"$@\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));

    Launch l = launch(Map.of("PATH", fakeBin + ":" + System.getenv("PATH")));

    assertThat(l.exit()).as(l.out()).isZero();
    assertThat(l.out()).contains("flatdump ");
    assertThat(l.classPath()).isEqualTo(home.resolve("target").resolve("flatdump.jar").toString());
    assertThat(layouts()).isEmpty();
    assertThat(leftovers()).isEmpty();
  }

  private Launch launch(Map<String, String> env) throws Exception {
    return await(start(env));
  }

  private Process start(Map<String, String> env) throws IOException {
    Path log = Files.createTempFile(home, "launch", ".log");
    ProcessBuilder pb =
        new ProcessBuilder(home.resolve("bin").resolve("flatdump").toString(), "--version")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Map<String, String> e = new HashMap<>(env);
    e.put("FLATDUMP_JAVA_OPTS", "-XshowSettings:properties");
    pb.environment().putAll(e);
    Process p = pb.start();
    logs.put(p, log);
    return p;
  }

  private Launch await(Process p) throws Exception {
    boolean ended = p.waitFor(120, TimeUnit.SECONDS);
    if (!ended) {
      p.destroyForcibly();
    }
    String out = Files.readString(logs.get(p), StandardCharsets.UTF_8);
    assertThat(ended).as("launcher ended within 120 s: %s", out).isTrue();
    return new Launch(p.exitValue(), out);
  }

  private List<Path> layouts() throws IOException {
    try (Stream<Path> s = Files.list(home.resolve("target"))) {
      return s.filter(p -> p.getFileName().toString().startsWith("flatdump-app-")).toList();
    }
  }

  /** Half-made layouts: the launcher's temporary directories. */
  private List<Path> leftovers() throws IOException {
    try (Stream<Path> s = Files.list(home.resolve("target"))) {
      return s.filter(p -> p.getFileName().toString().startsWith(".flatdump-app")).toList();
    }
  }
}
