package dev.flatdump.bench;

import dev.flatdump.artifact.compress.Compression;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Reproduces the articles' table from in-memory records, in this JVM: generates the orgs once, then
 * for each {@link OrgFileCodec} row writes them to a file (one warm-up run, then {@code runs}
 * measured ones: time and heap), measures the file raw, gzipped and zstd-compressed, and reads it
 * back twice (some fields, all fields; again a warm-up and {@code runs} measured reads each).
 *
 * <p>Times include writing the file into the page cache, never an fsync; reads come from the page
 * cache. Runs are interleaved across rows (run 1 of every row, then run 2, ...), and all rows share
 * one JVM, its JIT and its heap: compare ratios within one run, not absolute times across machines.
 * All files exist until the end. Not thread-safe; run one at a time.
 */
public final class CodecBenchmark {

  /** Every FlatBuffers row starts from this buffer size and lets it double, as the export does. */
  public static final int FLATBUFFERS_INITIAL_CAPACITY = 1 << 20;

  /**
   * @param profile how the orgs are generated
   * @param orgs how many orgs; at least 1
   * @param seed the generator's seed
   * @param runs measured runs per figure, after one warm-up run; at least 1
   * @param dir where the files are written (created if missing)
   * @param keepFiles keep the files afterwards; otherwise each is deleted once measured
   */
  public record Settings(
      Profile profile, int orgs, long seed, int runs, Path dir, boolean keepFiles) {
    public Settings {
      Objects.requireNonNull(profile, "profile must be set");
      Objects.requireNonNull(dir, "dir must be set");
      if (orgs < 1) {
        throw new IllegalArgumentException("orgs must be >= 1, got " + orgs);
      }
      if (runs < 1) {
        throw new IllegalArgumentException("runs must be >= 1, got " + runs);
      }
    }
  }

  @FunctionalInterface
  private interface Read {
    long checksum(Path file) throws IOException;
  }

  private record Reads(long nanos, long checksum) {}

  private final Settings settings;
  private final Consumer<String> log;
  private final Compression gzip = Compression.create("gzip", null);
  private final Compression zstd = Compression.create("zstd", null);
  private final HeapProbe probe = new HeapProbe();

  private CodecBenchmark(Settings settings, Consumer<String> log) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.log = Objects.requireNonNull(log, "log");
  }

  /**
   * Runs every row.
   *
   * @param log receives a line per measured run (progress); must not be null
   */
  public static CodecReport run(Settings settings, Consumer<String> log) throws IOException {
    return new CodecBenchmark(settings, log).run();
  }

  private CodecReport run() throws IOException {
    String loadBefore = MachineInfo.loadAverage();
    log.accept(
        String.format(
            Locale.ROOT,
            "generating %,d %s orgs (seed %d)",
            settings.orgs(),
            settings.profile().name().toLowerCase(Locale.ROOT),
            settings.seed()));
    List<Org> orgs =
        new OrgGenerator(settings.profile(), settings.seed())
            .stream().limit(settings.orgs()).toList();
    Files.createDirectories(settings.dir());
    List<OrgFileCodec> codecs = OrgFileCodec.articleTable(FLATBUFFERS_INITIAL_CAPACITY);
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < codecs.size(); i++) {
      files.add(settings.dir().resolve("codec-" + (i + 1) + "." + codecs.get(i).extension()));
    }
    try {
      return measure(codecs, files, orgs, loadBefore);
    } finally {
      if (!settings.keepFiles()) {
        for (Path file : files) {
          Files.deleteIfExists(file);
        }
      }
    }
  }

  /**
   * Runs are interleaved: each run writes (then reads) with every codec in turn, so that drift in
   * the machine's load spreads over all rows instead of hitting the rows measured last.
   */
  private CodecReport measure(
      List<OrgFileCodec> codecs, List<Path> files, List<Org> orgs, String loadBefore)
      throws IOException {
    int n = codecs.size();
    int runs = settings.runs();
    long[][] writeNanos = new long[n][runs];
    long[][] peakUsed = new long[n][runs];
    long[][] peakLive = new long[n][runs];
    for (int run = -1; run < runs; run++) { // run -1 warms up
      for (int i = 0; i < n; i++) {
        OrgFileCodec codec = codecs.get(i);
        probe.start();
        long start = System.nanoTime();
        Object held = codec.write(orgs, files.get(i));
        long took = System.nanoTime() - start;
        HeapProbe.HeapUse use = probe.stop(held);
        held = null; // unreachable before the next probe's baseline, even when interpreted
        log.accept(
            String.format(
                Locale.ROOT,
                "%s: write %s: %s, peak heap used %s, peak live %s",
                codec.name(),
                runName(run),
                Figures.millis(took),
                Figures.bytes(use.peakUsedBytes()),
                Figures.bytes(use.peakLiveBytes())));
        if (run >= 0) {
          writeNanos[i][run] = took;
          peakUsed[i][run] = use.peakUsedBytes();
          peakLive[i][run] = use.peakLiveBytes();
        }
      }
    }
    long[][] sizes = new long[n][];
    for (int i = 0; i < n; i++) {
      Path file = files.get(i);
      sizes[i] =
          new long[] {
            Files.size(file), CompressedSizes.of(file, gzip), CompressedSizes.of(file, zstd)
          };
      log.accept(
          codecs.get(i).name()
              + ": "
              + Figures.bytes(sizes[i][0])
              + ", gzip "
              + Figures.bytes(sizes[i][1])
              + ", zstd "
              + Figures.bytes(sizes[i][2]));
    }
    Reads[] some = new Reads[n];
    Reads[] all = new Reads[n];
    long[][] someNanos = new long[n][runs];
    long[][] allNanos = new long[n][runs];
    for (int run = -1; run < runs; run++) {
      for (int i = 0; i < n; i++) {
        OrgFileCodec codec = codecs.get(i);
        some[i] = read(codec.name() + ": read some", codec::readSome, files.get(i), run, some[i]);
        all[i] = read(codec.name() + ": read all", codec::readAll, files.get(i), run, all[i]);
        if (run >= 0) {
          someNanos[i][run] = some[i].nanos();
          allNanos[i][run] = all[i].nanos();
        }
      }
    }
    List<CodecRow> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(
          new CodecRow(
              codecs.get(i).name(),
              Figures.median(writeNanos[i]),
              sizes[i][0],
              sizes[i][1],
              sizes[i][2],
              Figures.median(peakUsed[i]),
              Figures.median(peakLive[i]),
              Figures.median(someNanos[i]),
              Figures.median(allNanos[i]),
              some[i].checksum(),
              all[i].checksum()));
    }
    return new CodecReport(
        settings, MachineInfo.describe(), loadBefore, MachineInfo.loadAverage(), rows);
  }

  /** One timed read; {@code previous} is this read's result in the run before, or null. */
  private Reads read(String what, Read read, Path file, int run, Reads previous)
      throws IOException {
    HeapProbe.liveHeapBytes(); // start each read from a collected heap, outside the time
    long start = System.nanoTime();
    long checksum = read.checksum(file);
    long took = System.nanoTime() - start;
    if (previous != null && previous.checksum() != checksum) {
      throw new IllegalStateException(what + " read different data in two runs of one file");
    }
    log.accept(what + " " + runName(run) + ": " + Figures.millis(took));
    return new Reads(took, checksum);
  }

  private static String runName(int run) {
    return run < 0 ? "warm-up" : "run " + (run + 1);
  }
}
