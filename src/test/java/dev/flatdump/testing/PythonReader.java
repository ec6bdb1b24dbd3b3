package dev.flatdump.testing;

import dev.flatdump.encode.plan.FlatcRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code sample-data/python/compare_export.py}, the Python consumer of an export, in a virtual
 * environment made once in the cache with the {@code flatbuffers} and {@code pymongo} packages from
 * PyPI.
 */
public final class PythonReader {

  private static final List<String> PACKAGES = List.of("flatbuffers==2.0.7", "pymongo==4.10.1");

  private PythonReader() {}

  /** What the program said and its exit code. */
  public record Result(int exitCode, String output) {}

  public static Result compare(Path export, String uri, String db, String collection)
      throws IOException, InterruptedException {
    Path python = venv().resolve("bin").resolve("python");
    List<String> command =
        new ArrayList<>(
            List.of(
                python.toString(),
                Path.of("sample-data", "python", "compare_export.py").toAbsolutePath().toString(),
                export.toString(),
                "--uri",
                uri,
                "--db",
                db,
                "--collection",
                collection,
                "--flatc",
                FlatcRunner.flatc().toString()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException("compare_export.py did not finish in 5 minutes: " + said);
    }
    return new Result(p.exitValue(), said.strip());
  }

  private static synchronized Path venv() throws IOException, InterruptedException {
    Path dir = PackageFiles.cache().resolve("python-reader-flatbuffers-2.0.7-pymongo-4.10.1");
    if (Files.isRegularFile(dir.resolve("ready"))) {
      return dir;
    }
    Files.createDirectories(dir.getParent());
    Path work = Files.createTempDirectory(dir.getParent(), ".python-reader-");
    PackageFiles.run(work, List.of("python3", "-m", "venv", "--clear", dir.toString()));
    List<String> install =
        new ArrayList<>(
            List.of(
                dir.resolve("bin").resolve("python").toString(),
                "-m",
                "pip",
                "install",
                "--disable-pip-version-check",
                "--quiet"));
    install.addAll(PACKAGES);
    PackageFiles.run(work, install);
    Files.writeString(dir.resolve("ready"), String.join("\n", PACKAGES) + "\n");
    return dir;
  }
}
