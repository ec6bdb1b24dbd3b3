package dev.flatdump.bench;

import dev.flatdump.bench.samples.Org;
import dev.flatdump.reader.ExportReader;
import dev.flatdump.reader.Snapshot;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The memory of a process that serves lookups, measured in a process of its own (the hidden {@code
 * flatdump-bench reader-child}): it loads the data (maps the export, or decodes the JSON into a
 * {@code HashMap}), looks every key up once, collects garbage, and prints one line of figures,
 * which {@link #spawn} parses in the benchmark's process.
 */
public final class ReaderChild {

  /** What a child serves lookups from. */
  public enum Mode {
    /** {@code ExportReader.open(DIR)} with full checksums, lookups through {@code Snapshot}. */
    EXPORT,
    /** The JSON file decoded by Jackson into a {@code HashMap<String, Org>}. */
    JSON
  }

  /**
   * A child's figures, in bytes.
   *
   * @param heap heap in use after two full collections, the data still held
   * @param resident the process's resident set
   * @param export what the process maps from the export's files (zeros in {@link Mode#JSON})
   */
  record Served(long heap, ProcessMemory.Resident resident, ProcessMemory.Mapped export) {}

  private static final String MAIN = "dev.flatdump.bench.cli.FlatdumpBench";

  private ReaderChild() {}

  /**
   * Loads, looks every key of {@code keysFile} (one per line) up, prints the figures line on {@code
   * out}, and holds the data until standard input ends (the parent closes it).
   *
   * @throws IllegalStateException when a key is not found
   */
  public static void serve(Mode mode, Path path, Path keysFile, PrintStream out)
      throws IOException {
    List<String> keys = Files.readAllLines(keysFile, StandardCharsets.UTF_8);
    long found = 0;
    if (mode == Mode.EXPORT) {
      try (ExportReader reader = ExportReader.open(path, ExportReader.Verify.CHECKSUMS)) {
        KeyedOrganization o = new KeyedOrganization();
        Snapshot.RecordAt<KeyedOrganization> at = o::__assign;
        for (String key : keys) {
          try (Snapshot s = reader.snapshot()) {
            found += s.lookup(key, at) == null ? 0 : 1;
          }
        }
        out.println(line(found, keys.size(), ProcessMemory.mappedUnder(path)));
        out.flush();
        awaitParent();
        return;
      }
    }
    List<Org> orgs = new JacksonFileCodec().parse(path);
    Map<String, Org> byKey = new HashMap<>();
    for (int i = 0; i < orgs.size(); i++) {
      byKey.put(keys.get(i), orgs.get(i));
    }
    orgs = null;
    for (String key : keys) {
      found += byKey.get(key) == null ? 0 : 1;
    }
    out.println(line(found, keys.size(), new ProcessMemory.Mapped(0, 0, 0, 0)));
    out.flush();
    awaitParent();
    java.lang.ref.Reference.reachabilityFence(byKey);
  }

  private static String line(long found, int keys, ProcessMemory.Mapped export) {
    if (found != keys) {
      throw new IllegalStateException(found + " of " + keys + " keys found");
    }
    long heap = HeapProbe.liveHeapBytes();
    ProcessMemory.Resident r = ProcessMemory.resident();
    return String.format(
        Locale.ROOT,
        "heap=%d rss=%d anon=%d file=%d mappedRss=%d mappedPss=%d mappedShared=%d"
            + " mappedPrivate=%d",
        heap,
        r.total(),
        r.anon(),
        r.file(),
        export.rss(),
        export.pss(),
        export.shared(),
        export.private_());
  }

  /**
   * Runs a child JVM on this JVM's class path with {@code jvmOptions}, and parses its figures
   * ({@link Served}). The child keeps its data until {@code whileServing} has run here.
   *
   * @throws IllegalStateException when the child fails
   */
  static Served spawn(
      Mode mode, Path path, Path keysFile, List<String> jvmOptions, Runnable whileServing) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            MAIN,
            "reader-child",
            "--mode",
            mode.name().toLowerCase(Locale.ROOT),
            "--path",
            path.toString(),
            "--keys",
            keysFile.toString()));
    try {
      Process child =
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String line;
      try (var out =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        line = out.readLine();
        if (line != null) {
          whileServing.run();
        }
        child.getOutputStream().close(); // the child's cue to exit
        out.transferTo(Writer.nullWriter());
      }
      int exit = child.waitFor();
      if (exit != 0 || line == null) {
        throw new IllegalStateException("reader-child " + mode + " exited with " + exit);
      }
      return parse(line.strip());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reader-child ran", e);
    }
  }

  /** Waits until the parent closes this process's standard input, holding what it serves from. */
  static void awaitParent() throws IOException {
    System.in.transferTo(OutputStream.nullOutputStream());
  }

  /** This JVM's {@code -Xmx} option, for a child that needs as much heap; empty if none. */
  static List<String> maxHeapOption() {
    return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("-Xmx"))
        .toList();
  }

  static Served parse(String line) {
    Map<String, Long> v = new HashMap<>();
    for (String pair : line.substring(line.lastIndexOf('\n') + 1).split(" ")) {
      int eq = pair.indexOf('=');
      v.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
    }
    return new Served(
        v.get("heap"),
        new ProcessMemory.Resident(v.get("rss"), v.get("anon"), v.get("file")),
        new ProcessMemory.Mapped(
            v.get("mappedRss"), v.get("mappedPss"), v.get("mappedShared"), v.get("mappedPrivate")));
  }
}
