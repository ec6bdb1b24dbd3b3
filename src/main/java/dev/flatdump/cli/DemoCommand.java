package dev.flatdump.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump demo}: starts the local MongoDB ({@code bin/mongod-local}), loads {@code
 * sample-data/}, runs the export with every baseline and prints the report summary.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Exports the sample data from a local mongod, with every baseline.",
      "Starts a local mongod (bin/mongod-local), loads sample-data/ into the collection"
          + " organizations of the database flatdump_demo, exports it with every baseline, and"
          + " prints the report summary and the path of report.html."
    })
public final class DemoCommand implements Callable<Integer> {

  static final String DATABASE = "flatdump_demo";
  static final String COLLECTION = "organizations";
  static final List<String> SAMPLE_FILES =
      List.of("organizations.jsonl.gz", "edge-cases.jsonl", "malformed.jsonl");

  @Spec private CommandSpec spec;

  @Option(
      names = "--uri",
      paramLabel = "URI",
      description = "Use this MongoDB instead of starting bin/mongod-local.")
  private String uri;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Output directory (default: target/demo under the flatdump home).")
  private Path out;

  @Override
  public Integer call() throws IOException, InterruptedException {
    Path home = home();
    PrintWriter err = spec.commandLine().getErr();
    String mongo = uri != null ? uri : startLocalMongod(home, err);
    Path dir = out != null ? out : home.resolve("target").resolve("demo");
    CommandLine root = spec.root().commandLine();
    boolean first = true;
    for (String f : SAMPLE_FILES) {
      Path file = home.resolve("sample-data").resolve(f);
      List<String> args =
          new ArrayList<>(
              List.of(
                  "load",
                  file.toString(),
                  "--uri",
                  mongo,
                  "--db",
                  DATABASE,
                  "--collection",
                  COLLECTION));
      if (first) {
        args.add("--drop");
      }
      first = false;
      int code = root.execute(args.toArray(String[]::new));
      if (code != 0) {
        err.println("flatdump demo: loading " + file + " failed (exit " + code + ")");
        return code;
      }
    }
    int exported =
        root.execute(
            "export",
            "--uri",
            mongo,
            "--db",
            DATABASE,
            "--collection",
            COLLECTION,
            "--out",
            dir.toString(),
            "--schema",
            home.resolve("schemas").resolve("organizations.fbs").toString(),
            "--compare",
            "plain,strings,protobuf,json",
            "--new-run");
    // malformed.jsonl is there to be rejected: a demo that shows its rejects has succeeded
    return exported == Flatdump.EXIT_REJECTS ? 0 : exported;
  }

  /**
   * The flatdump checkout or install: FLATDUMP_HOME (set by bin/flatdump), else the working
   * directory.
   */
  static Path home() {
    String env = System.getenv("FLATDUMP_HOME");
    Path home = Path.of(env != null ? env : ".").toAbsolutePath().normalize();
    if (!Files.isDirectory(home.resolve("sample-data"))) {
      throw new IllegalArgumentException(
          "cannot find sample-data/ in "
              + home
              + "; run the demo through bin/flatdump or set FLATDUMP_HOME");
    }
    return home;
  }

  private static String startLocalMongod(Path home, PrintWriter err)
      throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(home.resolve("bin").resolve("mongod-local").toString(), "start")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String last = null;
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (!line.isBlank()) {
          last = line.trim();
        }
      }
    }
    int code = p.waitFor();
    if (code != 0 || last == null || !last.startsWith("mongodb://")) {
      throw new dev.flatdump.FlatdumpException(
          "bin/mongod-local start failed (exit " + code + "); see its messages above");
    }
    err.println("flatdump demo: MongoDB at " + last);
    return last;
  }
}
