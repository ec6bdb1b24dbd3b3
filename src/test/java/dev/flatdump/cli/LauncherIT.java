package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
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
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/flatdump} in a home of its own (the launcher and a copy of the built jar): it runs the
 * jar from an extracted layout made once per build of the jar, and the fat jar when it cannot make
 * one; the first export that ends well from a layout records a class data archive there, which
 * later launches start from.
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
    assertThat(archives(layout)).as("only an export leaves a class archive").isEmpty();
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

  /**
   * The first export that ends well leaves a class data archive in the layout, and later launches
   * load flatdump's classes from it; a failed export, {@code export --help}, other commands and
   * FLATDUMP_CDS=off leave none or do not use it.
   */
  @Test
  @ExtendWith(MongoDbExtension.class)
  void theFirstExportThatEndsWellLeavesAClassArchiveThatLaterLaunchesUse(
      MongoServer server, MongoDatabase db) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 3, 200);
    String[] exportMissing = export(server, db, "missing", home.resolve("out-missing"));
    Map<String, String> classLoading = Map.of("FLATDUMP_JAVA_OPTS", "-Xlog:class+load=info");

    for (String[] launch :
        List.of(new String[] {"--version"}, new String[] {"export", "--help"}, exportMissing)) {
      Launch l = await(start(Map.of(), launch));
      assertThat(l.exit() == 0).as(l.out()).isEqualTo(launch != exportMissing);
      assertThat(archives(layouts().get(0))).as(String.join(" ", launch)).isEmpty();
    }
    Launch off =
        await(
            start(Map.of("FLATDUMP_CDS", "off"), export(server, db, "orgs", home.resolve("out"))));
    assertThat(off.exit()).as(off.out()).isZero();
    assertThat(archives(layouts().get(0))).isEmpty();

    // what a launcher killed while it recorded would leave: no process has that pid
    Path killed = Files.writeString(layouts().get(0).resolve(".flatdump-cds.4194305.jsa"), "part");

    Launch first = await(start(Map.of(), export(server, db, "orgs", home.resolve("out-first"))));

    assertThat(first.exit()).as(first.out()).isZero();
    assertThat(first.out()).doesNotContain("[cds]").contains("report: ");
    Path layout = layouts().get(0);
    assertThat(archives(layout)).singleElement().asString().matches("flatdump-[0-9]+\\.jsa");
    assertThat(killed).doesNotExist();
    Launch later =
        await(start(classLoading, export(server, db, "orgs", home.resolve("out-later"))));
    assertThat(later.exit()).as(later.out()).isZero();
    assertThat(later.out())
        .contains("dev.flatdump.cli.Flatdump source: shared objects file (top)")
        .contains("dev.flatdump.encode.engine.RecordEncoder source: shared objects file (top)");
    Launch without =
        await(
            start(
                Map.of("FLATDUMP_CDS", "off", "FLATDUMP_JAVA_OPTS", "-Xlog:class+load=info"),
                "--version"));
    assertThat(without.out())
        .contains("dev.flatdump.cli.Flatdump source: file:")
        .doesNotContain("source: shared objects file (top)");
    assertThat(archives(layout)).hasSize(1);

    // once the archive exists, no launch records again: any launch removes what a killed one left
    Path killedLater = Files.writeString(layout.resolve(".flatdump-cds.4194306.jsa"), "part");
    assertThat(await(start(Map.of(), "--version")).exit()).isZero();
    assertThat(killedLater).doesNotExist();
    assertThat(archives(layout)).hasSize(1);
  }

  /**
   * A signal to the launcher while the first export runs (and would leave an archive) reaches the
   * JVM, which the launcher does not replace in that run: both end, and nothing is published.
   */
  @Test
  @ExtendWith(MongoDbExtension.class)
  void aSignalDuringTheFirstExportEndsItsJvmAndPublishesNoArchive(
      MongoServer server, MongoDatabase db) throws Exception {
    ExportCommandIT.generate(db, "orgs", Profile.REALISTIC, 3, 200);
    assertThat(launch(Map.of()).exit()).isZero(); // the layout, made before the export starts
    Process launcher = start(Map.of(), export(server, db, "orgs", home.resolve("out")));
    ProcessHandle jvm = child(launcher, "ArchiveClassesAtExit");
    assertThat(jvm).as("the export's JVM, a child of the launcher").isNotNull();

    launcher.destroy(); // SIGTERM, to the launcher only

    Launch ended = await(launcher);
    assertThat(jvm.onExit().get(60, TimeUnit.SECONDS).isAlive()).isFalse();
    // ended by the signal, not by finishing the export, whose pointer is written last
    assertThat(home.resolve("out").resolve("CURRENT")).doesNotExist();
    assertThat(ended.exit()).as(ended.out()).isNotZero();
    assertThat(archives(layouts().get(0))).isEmpty();
  }

  /**
   * The launcher's child process whose command line contains {@code part}, as soon as there is one
   * (polled for up to 30 s), or null.
   */
  private static ProcessHandle child(Process launcher, String part) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      var found =
          launcher
              .toHandle()
              .children()
              .filter(c -> c.info().commandLine().orElse("").contains(part))
              .findFirst();
      if (found.isPresent()) {
        return found.get();
      }
      Thread.sleep(20);
    }
    return null;
  }

  private static String[] export(MongoServer server, MongoDatabase db, String coll, Path out) {
    return ExportCommandIT.exportArgs(server, db, coll, out, "--compress", "none");
  }

  /** A signal while the launcher extracts the layout leaves neither a layout nor its copy. */
  @Test
  void aSignalWhileExtractingLeavesNoHalfMadeLayout() throws Exception {
    Process launcher = start(Map.of());
    ProcessHandle extract = child(launcher, "-Djarmode=tools");
    assertThat(extract).as("the extract tool, a child of the launcher").isNotNull();

    launcher.destroy(); // SIGTERM, to the launcher only

    Launch ended = await(launcher);
    assertThat(ended.exit()).as(ended.out()).isEqualTo(143);
    assertThat(ended.out()).doesNotContain("flatdump ");
    assertThat(extract.onExit().get(60, TimeUnit.SECONDS).isAlive()).isFalse();
    assertThat(leftovers()).isEmpty();
    assertThat(layouts()).isEmpty();
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
    return start(env, "--version");
  }

  /** The launcher with these arguments; the JVM shows its settings unless env says otherwise. */
  private Process start(Map<String, String> env, String... args) throws IOException {
    Path log = Files.createTempFile(home, "launch", ".log");
    List<String> command = new ArrayList<>();
    command.add(home.resolve("bin").resolve("flatdump").toString());
    command.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    Map<String, String> e = new HashMap<>(env);
    e.putIfAbsent("FLATDUMP_JAVA_OPTS", "-XshowSettings:properties");
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

  /** Class data archives in the layout, published ({@code flatdump-*.jsa}) or not. */
  private static List<String> archives(Path layout) throws IOException {
    try (Stream<Path> s = Files.list(layout)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jsa")).toList();
    }
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
