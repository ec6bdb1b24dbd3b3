package dev.flatdump.bench;

import com.github.luben.zstd.Zstd;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import dev.flatdump.FlatdumpException;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.write.ColumnarShardCopy;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.bench.samples.SampleWriter;
import dev.flatdump.columnar.ColumnarCopy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;

/**
 * Measures the columnar copy ({@code .fbc}) against what it is held to: making it against the
 * export's {@code exportStep}, and rebuilding a shard from it against zstd-decompressing the same
 * shard's {@code .zst} copy. For each profile, in one JVM: the generated organizations in MongoDB
 * (generated first unless the collection already holds them), real exports through {@code
 * ExportLauncher} ({@link LauncherExport}) with {@code --compress zstd,columnar} (their {@code
 * exportStep} and {@code compressStep} times, from Spring Batch's step executions), then, on the
 * last export's shard files, every row in turn, run after run, after warm-up runs of all rows: zstd
 * -d of the {@code .zst} (in memory, whole), the rebuild from the {@code .fbc} ({@link
 * ColumnarCopy#rebuild}, which checks the SHA-256), the SHA-256 of the shard alone, the copy made
 * as {@code compressStep} makes it ({@link ColumnarShardCopy#write}: read the shard, write the
 * copy, rebuild it to check it, write it atomically), the write alone in memory ({@link
 * ColumnarCopy#write}), and zstd -3 of the shard in memory on one thread. Not thread-safe; run one
 * at a time.
 */
public final class ColumnarBenchmark {

  /** The copies the exports write. */
  static final List<String> COMPRESS = List.of("zstd", ColumnarCopy.FORMAT);

  /**
   * @param profiles the generator's profiles, one table each
   * @param orgs organizations per profile
   * @param seed the generator's seed
   * @param source the server's {@code host:port} list, without credentials
   * @param database where the collections {@code PROFILE_ORGS} are, or are generated
   * @param exports measured exports per profile, after one warm-up export
   * @param runs measured runs of every row on the shard files, after the warm-up runs
   * @param warmups unmeasured runs of every row first
   * @param shardSize the exports' shard size: the default makes one shard of 100K organizations
   * @param dir where the exports are written (created if missing)
   * @param keepFiles keep the last export of each profile; otherwise it is deleted once measured
   */
  public record Settings(
      List<Profile> profiles,
      int orgs,
      long seed,
      String source,
      String database,
      int exports,
      int runs,
      int warmups,
      int batchSize,
      long shardSize,
      Path dir,
      boolean keepFiles) {
    public Settings {
      profiles = List.copyOf(Objects.requireNonNull(profiles, "profiles must be set"));
      Objects.requireNonNull(source, "source must be set");
      Objects.requireNonNull(database, "database must be set");
      Objects.requireNonNull(dir, "dir must be set");
      if (profiles.isEmpty()) {
        throw new IllegalArgumentException("name at least one profile");
      }
      if (orgs < 1) {
        throw new IllegalArgumentException("orgs must be >= 1, got " + orgs);
      }
      if (exports < 1 || runs < 1 || warmups < 0) {
        throw new IllegalArgumentException(
            "exports and runs must be >= 1 and warm-up runs >= 0, got "
                + exports
                + ", "
                + runs
                + ", "
                + warmups);
      }
    }

    /** The collection of a profile's organizations: {@code realistic_100000}. */
    public String collection(Profile profile) {
      return profile.name().toLowerCase(Locale.ROOT) + "_" + orgs;
    }

    ExportBenchmark.Settings export(Profile profile) {
      return new ExportBenchmark.Settings(
          source,
          database,
          collection(profile),
          exports,
          1,
          batchSize,
          shardSize,
          dir,
          keepFiles,
          COMPRESS);
    }
  }

  /** The rows timed on the shard files, in the order they run. */
  public enum Row {
    ZSTD_DECOMPRESS("zstd -d of the .zst copy (zstd-jni, whole file in memory): the reference"),
    REBUILD("rebuild from the .fbc (ColumnarCopy.rebuild, SHA-256 checked)"),
    SHA256("SHA-256 of the shard alone (MessageDigest)"),
    COPY("the copy as compressStep makes it (ColumnarShardCopy.write: write + check rebuild)"),
    WRITE("write alone (ColumnarCopy.write, in memory)"),
    ZSTD_COMPRESS("zstd -3 of the shard (zstd-jni, in memory, one thread)");

    final String label;

    Row(String label) {
      this.label = label;
    }
  }

  /** One shard's files, read into memory once. */
  private record Shard(Path fb, byte[] bytes, byte[] zst, byte[] fbc, String sha256) {}

  private final MongoClient client;
  private final Settings settings;
  private final Consumer<String> log;
  private final byte[] bfbs = SchemaFiles.bundled().binary();

  private ColumnarBenchmark(MongoClient client, Settings settings, Consumer<String> log) {
    this.client = Objects.requireNonNull(client, "client");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.log = Objects.requireNonNull(log, "log");
  }

  /**
   * Measures every profile.
   *
   * @param client a connected client; not closed here
   * @param log receives a line per step and measured run (progress)
   * @throws FlatdumpException if an export does not complete or a copy does not rebuild its shard
   */
  public static ColumnarReport run(MongoClient client, Settings settings, Consumer<String> log)
      throws IOException {
    var bench = new ColumnarBenchmark(client, settings, log);
    String server = ExportBenchmark.describeServer(client);
    List<ColumnarReport.Profiled> results = new ArrayList<>();
    for (Profile profile : settings.profiles()) {
      results.add(bench.measure(profile));
    }
    return new ColumnarReport(settings, MachineInfo.describe(), server, results);
  }

  private ColumnarReport.Profiled measure(Profile profile) throws IOException {
    String loadBefore = MachineInfo.loadAverage();
    String name = profile.name().toLowerCase(Locale.ROOT);
    ensureGenerated(profile);
    ExportBenchmark.Settings export = settings.export(profile);
    Files.createDirectories(settings.dir());
    long[] exportStep = new long[settings.exports()];
    long[] compressStep = new long[settings.exports()];
    Path last = null;
    long docs = 0;
    for (int run = -1; run < settings.exports(); run++) { // run -1 warms up
      Path out =
          settings.dir().resolve(settings.collection(profile) + (run < 0 ? "-warm-up" : "-" + run));
      LauncherExport.delete(out);
      LauncherExport.Outcome outcome = LauncherExport.run(client, export, out);
      log.accept(
          name + " export " + (run < 0 ? "warm-up" : "run " + (run + 1)) + ": " + outcome.steps());
      if (run >= 0) {
        exportStep[run] = outcome.stepNanos().getOrDefault("exportStep", 0L);
        compressStep[run] = outcome.stepNanos().getOrDefault("compressStep", 0L);
        docs = outcome.docs();
      }
      if (last != null) {
        LauncherExport.delete(last);
      }
      last = out;
    }
    List<Shard> shards = shards(last);
    long[][] nanos = new long[Row.values().length][settings.runs()];
    for (int run = -settings.warmups(); run < settings.runs(); run++) {
      for (Row row : Row.values()) {
        long start = System.nanoTime();
        long bytes = 0;
        for (Shard shard : shards) {
          bytes += time(row, shard);
        }
        long took = System.nanoTime() - start;
        log.accept(
            String.format(
                Locale.ROOT,
                "%s %s %s: %s (%,d bytes)",
                name,
                row.name().toLowerCase(Locale.ROOT),
                run < 0 ? "warm-up " + (settings.warmups() + run + 1) : "run " + (run + 1),
                Figures.millis(took),
                bytes));
        if (run >= 0) {
          nanos[row.ordinal()][run] = took;
        }
      }
    }
    if (!settings.keepFiles()) {
      LauncherExport.delete(last);
    }
    return new ColumnarReport.Profiled(
        profile,
        settings.collection(profile),
        docs,
        shards.size(),
        shards.stream().mapToLong(s -> s.bytes().length).sum(),
        shards.stream().mapToLong(s -> s.zst().length).sum(),
        shards.stream().mapToLong(s -> s.fbc().length).sum(),
        exportStep,
        compressStep,
        nanos,
        loadBefore,
        MachineInfo.loadAverage());
  }

  /**
   * Runs one row on one shard. Its check of what the row gave (a length) is in the row's time,
   * alike in every run; the bytes themselves are compared once, when the shard is read.
   *
   * @return the bytes the row produced
   */
  private long time(Row row, Shard shard) {
    switch (row) {
      case ZSTD_DECOMPRESS -> {
        byte[] out = new byte[shard.bytes().length];
        long n = Zstd.decompressByteArray(out, 0, out.length, shard.zst(), 0, shard.zst().length);
        if (Zstd.isError(n) || n != out.length) {
          throw new FlatdumpException(shard.fb() + ".zst did not decompress to the shard's size");
        }
        return n;
      }
      case REBUILD -> {
        byte[] out = ColumnarCopy.rebuild(shard.fbc(), bfbs);
        if (out.length != shard.bytes().length) {
          throw new FlatdumpException("the .fbc of " + shard.fb() + " rebuilt another size");
        }
        return out.length;
      }
      case SHA256 -> {
        return sha256(shard.bytes()).length;
      }
      case COPY -> {
        return ColumnarShardCopy.write(
                shard.fb(), shard.sha256(), bfbs, ColumnarCopy.DEFAULT_LEVEL, 0, null)
            .bytes();
      }
      case WRITE -> {
        return ColumnarCopy.write(shard.bytes(), bfbs, ColumnarCopy.DEFAULT_LEVEL).length;
      }
      case ZSTD_COMPRESS -> {
        return Zstd.compress(shard.bytes(), 3).length;
      }
      default -> throw new IllegalStateException("no such row: " + row);
    }
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    }
  }

  /** The export's shards with their copies, read into memory, each copy checked once. */
  private List<Shard> shards(Path out) throws IOException {
    Path dir = OutputLayout.resolve(out);
    List<Path> fbs;
    try (Stream<Path> files = Files.list(dir)) {
      fbs = files.filter(p -> p.getFileName().toString().endsWith(".fb")).sorted().toList();
    }
    if (fbs.isEmpty()) {
      throw new FlatdumpException("the export in " + out + " has no shard");
    }
    List<Shard> shards = new ArrayList<>();
    for (Path fb : fbs) {
      byte[] bytes = Files.readAllBytes(fb);
      byte[] zst = Files.readAllBytes(fb.resolveSibling(fb.getFileName() + ".zst"));
      byte[] fbc =
          Files.readAllBytes(fb.resolveSibling(ColumnarCopy.copyName(fb.getFileName().toString())));
      if (!Arrays.equals(ColumnarCopy.rebuild(fbc, bfbs), bytes)
          || !Arrays.equals(Zstd.decompress(zst, bytes.length), bytes)) {
        throw new FlatdumpException("a copy of " + fb + " does not give its bytes back");
      }
      shards.add(new Shard(fb, bytes, zst, fbc, java.util.HexFormat.of().formatHex(sha256(bytes))));
    }
    return shards;
  }

  /**
   * Generates the profile's organizations into {@code PROFILE_ORGS} unless that collection already
   * holds as many documents, the first of which has the generator's first {@code _id} for the seed.
   */
  private void ensureGenerated(Profile profile) {
    String name = settings.collection(profile);
    MongoCollection<RawBsonDocument> collection =
        client.getDatabase(settings.database()).getCollection(name, RawBsonDocument.class);
    var generator = new OrgGenerator(profile, settings.seed());
    RawBsonDocument first =
        collection.find().sort(new BsonDocument("_id", new BsonInt32(1))).first();
    BsonValue firstId = first == null ? null : first.get("_id");
    if (collection.countDocuments() == settings.orgs()
        && firstId != null
        && firstId.isObjectId()
        && firstId.asObjectId().getValue().equals(generator.idOf(0))) {
      log.accept(settings.database() + "." + name + " holds the organizations already");
      return;
    }
    log.accept(
        "generating "
            + settings.orgs()
            + " "
            + profile.name().toLowerCase(Locale.ROOT)
            + " organizations into "
            + settings.database()
            + "."
            + name);
    collection.drop();
    new SampleWriter(1000, collection::insertMany).write(generator, settings.orgs(), n -> {});
  }
}
