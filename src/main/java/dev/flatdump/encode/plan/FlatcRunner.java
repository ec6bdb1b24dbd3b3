package dev.flatdump.encode.plan;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Compiles a {@code .fbs} into a binary schema with flatc ({@code -b --schema --bfbs-builtins}),
 * the same flatc 2.0.8 that generated the Java reading it. Which flatc: the system property {@code
 * flatdump.flatc}, else the environment variable {@code FLATDUMP_FLATC}, else the Linux x86-64
 * build bundled in the jar, copied once into {@code ~/.cache/flatdump} (or {@code
 * $FLATDUMP_CACHE}). Stateless; each call runs flatc once.
 */
public final class FlatcRunner {

  /** The flatc version bundled, the same as flatbuffers-java's. */
  public static final String VERSION = "2.0.8";

  private static final String BUNDLED = "flatc-linux-x86_64";
  private static final long TIMEOUT_SECONDS = 60;

  private FlatcRunner() {}

  /**
   * The binary schema of {@code fbs}; its includes are looked up beside it.
   *
   * @throws SchemaException with flatc's own message (file, line, column) when it refuses the
   *     schema, or when no flatc can run here
   */
  public static byte[] compile(Path fbs) {
    if (!Files.isRegularFile(fbs)) {
      throw new SchemaException("no such schema file: " + fbs);
    }
    Path flatc = flatc();
    Path out;
    try {
      out = Files.createTempDirectory("flatdump-bfbs-");
    } catch (IOException e) {
      throw new SchemaException("cannot create a temporary directory: " + e.getMessage(), e);
    }
    try {
      Path dir = fbs.toAbsolutePath().getParent();
      Process p =
          new ProcessBuilder(
                  flatc.toString(),
                  "-b",
                  "--schema",
                  "--bfbs-builtins",
                  "-I",
                  dir.toString(),
                  "-o",
                  out.toString(),
                  fbs.toAbsolutePath().toString())
              .redirectErrorStream(true)
              .start();
      p.getOutputStream().close();
      String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new SchemaException("flatc did not finish compiling " + fbs + " in 60 s");
      }
      if (p.exitValue() != 0) {
        throw new SchemaException("flatc refused the schema " + fbs + ": " + said);
      }
      String base = fbs.getFileName().toString().replaceFirst("\\.fbs$", "");
      Path bfbs = out.resolve(base + ".bfbs");
      if (!Files.isRegularFile(bfbs)) {
        throw new SchemaException("flatc wrote no " + bfbs.getFileName() + " for " + fbs);
      }
      return Files.readAllBytes(bfbs);
    } catch (IOException e) {
      throw new SchemaException("cannot run " + flatc + " on " + fbs + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SchemaException("interrupted while compiling " + fbs, e);
    } finally {
      deleteTree(out);
    }
  }

  /**
   * The flatc to run (see the class comment), installed from the jar if that is where it comes
   * from.
   *
   * @throws SchemaException when none can run here
   */
  public static Path flatc() {
    String given = System.getProperty("flatdump.flatc");
    if (given == null || given.isBlank()) {
      given = System.getenv("FLATDUMP_FLATC");
    }
    if (given != null && !given.isBlank()) {
      Path p = Path.of(given);
      if (!Files.isExecutable(p)) {
        throw new SchemaException("flatc " + p + " (flatdump.flatc / FLATDUMP_FLATC) cannot run");
      }
      return p;
    }
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "");
    if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
      throw new SchemaException(
          "flatdump bundles flatc for Linux x86-64 only, not "
              + os
              + " "
              + arch
              + ": set FLATDUMP_FLATC to a flatc "
              + VERSION
              + ", or give a binary schema (flatc -b --schema --bfbs-builtins FILE.fbs)");
    }
    return bundled();
  }

  private static Path bundled() {
    String cache = System.getenv("FLATDUMP_CACHE");
    Path dir =
        (cache == null || cache.isBlank()
                ? Path.of(System.getProperty("user.home"), ".cache", "flatdump")
                : Path.of(cache))
            .resolve("flatc-" + VERSION);
    Path target = dir.resolve("flatc");
    try (InputStream in = FlatcRunner.class.getResourceAsStream(BUNDLED)) {
      if (in == null) {
        throw new SchemaException("flatc is missing from this build (" + BUNDLED + ")");
      }
      byte[] bytes = in.readAllBytes();
      if (Files.isExecutable(target) && Files.size(target) == bytes.length) {
        return target;
      }
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, ".flatc-", ".tmp");
      Files.write(tmp, bytes);
      tmp.toFile().setExecutable(true);
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return target;
    } catch (IOException e) {
      throw new SchemaException("cannot install flatc into " + dir + ": " + e.getMessage(), e);
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a temporary directory: the system cleans it up
    }
  }
}
