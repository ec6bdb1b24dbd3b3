package dev.flatdump.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmarks leave the production jar: {@code target/flatdump.jar} holds none of their classes,
 * and {@code target/flatdump-bench.jar} runs them on its own, without the tests beside them.
 */
class BenchJarIT {

  private static final Path JAR = Path.of(System.getProperty("flatdump.jar"));
  private static final Path BENCH_JAR = JAR.resolveSibling("flatdump-bench.jar");

  @Test
  void theProductionJarCarriesNoBenchmark() throws IOException {
    List<String> classes = classes(JAR);
    assertThat(classes).contains("BOOT-INF/classes/dev/flatdump/cli/Flatdump.class");
    assertThat(classes)
        .noneMatch(name -> name.startsWith("BOOT-INF/classes/dev/flatdump/bench/"))
        .noneMatch(name -> name.contains("/Bench"));
  }

  @Test
  void theBenchJarHoldsTheBenchmarksAndNoTest() throws IOException {
    List<String> classes = classes(BENCH_JAR);
    assertThat(classes)
        .contains(
            "dev/flatdump/bench/cli/FlatdumpBench.class", "dev/flatdump/bench/CpuBenchmark.class")
        // with the demo schema's generated Java and the engine's switch the cpu benchmark uses
        .contains(
            "dev/flatdump/schema/fb/Organizations.class",
            "dev/flatdump/schema/pb/Organizations.class",
            "dev/flatdump/encode/engine/PutsOnly.class")
        .allMatch(
            name ->
                name.startsWith("dev/flatdump/bench/")
                    || name.startsWith("dev/flatdump/schema/")
                    || name.equals("dev/flatdump/encode/engine/PutsOnly.class"))
        .noneMatch(name -> name.matches(".*(Test|IT)(\\$.*)?\\.class"))
        .noneMatch(name -> name.contains("BenchRun"));
  }

  @Test
  void theBenchJarRunsOnItsOwn() throws Exception {
    Process p =
        new ProcessBuilder("java", "-jar", BENCH_JAR.toString(), "cpu", "--help")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("Usage: flatdump-bench cpu").contains("--profile");
  }

  @Test
  void theBenchJarGeneratesTheSampleOrganizations(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("orgs.jsonl");
    Process p =
        new ProcessBuilder(
                "java",
                "-jar",
                BENCH_JAR.toString(),
                "generate",
                "--orgs",
                "3",
                "--out",
                file.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(java.nio.file.Files.readAllLines(file)).hasSize(3);
  }

  private static List<String> classes(Path jar) throws IOException {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      return zip.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".class")).toList();
    }
  }
}
