package dev.flatdump.bench;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import dev.flatdump.FlatdumpException;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.write.SchemaShardWriter;
import dev.flatdump.encode.engine.RejectedRecord;
import dev.flatdump.encode.engine.ShardBuilder;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.job.ExportLauncher;
import dev.flatdump.source.CollectionStats;
import dev.flatdump.source.DocumentBlocks;
import dev.flatdump.source.MongoDocumentCursor;
import dev.flatdump.source.PrefetchingIterator;
import dev.flatdump.source.RawDocument;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.conversions.Bson;

/**
 * Measures the export end to end against what reading the same collection costs, in one JVM and one
 * run: a raw cursor scan (the floor: the driver hands over each document's bytes), a scan that
 * decodes every document into a driver {@link Document} (what a naive exporter pays), a scan
 * through flatdump's own cursor and engine ({@link MongoDocumentCursor} into a {@link ShardBuilder}
 * of the bundled schema: every document encoded, nothing written), and the real export through
 * {@link ExportLauncher} into a fresh directory, without compressed copies unless the settings ask
 * for them. Every scan asks the server the same thing the export does: all documents, whole (no
 * projection), in {@code _id} order along the {@code _id} index, in batches of the same size.
 *
 * <p>Each run does every row once, in that order, after warm-up runs of all rows, so that drift in
 * the machine's load hits every row alike. Not thread-safe; run one at a time.
 */
public final class ExportBenchmark {

  private static final Bson ID_INDEX = new BsonDocument("_id", new BsonInt32(1));

  /**
   * @param source the server's {@code host:port} list, without credentials (see {@code
   *     ConnectionStrings.hosts})
   * @param database the database
   * @param collection the collection to scan and export
   * @param runs measured runs, after the warm-up runs; at least 1
   * @param warmups runs of every row before the measured ones, not measured; at least 0
   * @param batchSize the cursor batch size of every row, as the export's {@code --batch-size}
   * @param dir where the exports are written, one directory per run (created if missing)
   * @param keepFiles keep the exports; otherwise each is deleted once measured
   * @param compress the export's compressed copies ({@code gzip}, {@code zstd}), empty for none:
   *     the scans are the same either way, so with copies the export's ratios include writing them
   */
  public record Settings(
      String source,
      String database,
      String collection,
      int runs,
      int warmups,
      int batchSize,
      long shardSize,
      Path dir,
      boolean keepFiles,
      List<String> compress) {
    public Settings {
      compress = List.copyOf(Objects.requireNonNull(compress, "compress must be set"));
      Objects.requireNonNull(source, "source must be set");
      Objects.requireNonNull(database, "database must be set");
      Objects.requireNonNull(collection, "collection must be set");
      Objects.requireNonNull(dir, "dir must be set");
      if (runs < 1) {
        throw new IllegalArgumentException("runs must be >= 1, got " + runs);
      }
      if (warmups < 0) {
        throw new IllegalArgumentException("warm-up runs must be >= 0, got " + warmups);
      }
      if (batchSize < 1) {
        throw new IllegalArgumentException("batch size must be >= 1, got " + batchSize);
      }
      if (shardSize < 1024) {
        throw new IllegalArgumentException("shard size must be >= 1024 bytes, got " + shardSize);
      }
    }

    /**
     * {@code warm-up 2} or {@code run 3}: run numbers below 0 are the warm-ups, counted from 1 like
     * the measured runs.
     */
    String runName(int run) {
      return run < 0 ? "warm-up " + (warmups + run + 1) : "run " + (run + 1);
    }
  }

  /** What one row's run did: documents through it, the bytes it counts, and any detail. */
  private record Pass(long docs, long bytes, String detail) {}

  @FunctionalInterface
  private interface Row {
    Pass run(int run) throws IOException;

    /** Work around a run that its time and memory figures leave out, before the run. */
    default void before(int run) throws IOException {}

    /** The same, after the run. */
    default void after(int run) throws IOException {}
  }

  private final MongoClient client;
  private final Settings settings;
  private final Consumer<String> log;
  private final HeapProbe probe = new HeapProbe();
  private final SchemaPlan plan = SchemaFiles.bundled().plan();

  private ExportBenchmark(MongoClient client, Settings settings, Consumer<String> log) {
    this.client = Objects.requireNonNull(client, "client");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.log = Objects.requireNonNull(log, "log");
  }

  /**
   * Runs every row.
   *
   * @param client a connected client; not closed here
   * @param log receives a line per measured run (progress); must not be null
   * @throws FlatdumpException if an export does not complete
   */
  public static ExportReport run(MongoClient client, Settings settings, Consumer<String> log)
      throws IOException {
    return new ExportBenchmark(client, settings, log).run();
  }

  private ExportReport run() throws IOException {
    String loadBefore = MachineInfo.loadAverage();
    String server = describeServer(client);
    Files.createDirectories(settings.dir());
    List<String> names =
        List.of(
            "raw cursor scan (RawBsonDocument, sum of byte lengths)",
            "driver Document scan (DocumentCodec)",
            "flatdump read ahead + engine, nothing written (no Spring Batch)",
            "flatdump export (ExportLauncher, the bundled organizations.fbs, --compress "
                + (settings.compress().isEmpty() ? "none" : String.join(",", settings.compress()))
                + ")");
    List<Row> rows =
        List.of(run -> rawScan(), run -> documentScan(), run -> engineScan(), new Export("export"));
    int runs = settings.runs();
    long[][] nanos = new long[rows.size()][runs];
    long[][] peakUsed = new long[rows.size()][runs];
    long[][] peakLive = new long[rows.size()][runs];
    long[][] peakRss = new long[rows.size()][runs];
    Pass[] last = new Pass[rows.size()];
    boolean rssPerRow = ProcessMemory.resetPeakRss();
    for (int run = -settings.warmups(); run < runs; run++) { // negative runs warm up
      for (int i = 0; i < rows.size(); i++) {
        rows.get(i).before(run);
        probe.start();
        ProcessMemory.resetPeakRss();
        long start = System.nanoTime();
        Pass pass = rows.get(i).run(run);
        long took = System.nanoTime() - start;
        long rss = ProcessMemory.peakRssBytes();
        HeapProbe.HeapUse use = probe.stop(null);
        rows.get(i).after(run);
        log.accept(
            String.format(
                Locale.ROOT,
                "%s %s: %s, %,d docs, peak heap used %s, peak live %s, peak RSS %s%s",
                names.get(i),
                settings.runName(run),
                Figures.millis(took),
                pass.docs(),
                Figures.bytes(use.peakUsedBytes()),
                Figures.bytes(use.peakLiveBytes()),
                Figures.bytes(rss),
                pass.detail().isEmpty() ? "" : " (" + pass.detail() + ")"));
        if (run >= 0) {
          nanos[i][run] = took;
          peakUsed[i][run] = use.peakUsedBytes();
          peakLive[i][run] = use.peakLiveBytes();
          peakRss[i][run] = rss;
          last[i] = pass;
        }
      }
    }
    List<ExportRow> result = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      result.add(
          new ExportRow(
              names.get(i),
              last[i].docs(),
              last[i].bytes(),
              Figures.median(nanos[i]),
              Figures.median(peakUsed[i]),
              Figures.median(peakLive[i]),
              Figures.median(peakRss[i]),
              last[i].detail(),
              java.util.Arrays.stream(nanos[i]).boxed().toList()));
    }
    return new ExportReport(
        settings,
        MachineInfo.describe(),
        server,
        loadBefore,
        MachineInfo.loadAverage(),
        rssPerRow,
        result);
  }

  /**
   * The server's version and WiredTiger cache, e.g. {@code mongod 6.0.5, WiredTiger cache 256 MiB}:
   * a collection larger than the cache is read back from the data files and decompressed at every
   * scan, which costs mongod more CPU per document (and the export shares the machine's cores with
   * it). What the server does not tell (a user without the right to run {@code serverStatus}, a
   * storage engine without that cache) is said to be unknown.
   */
  static String describeServer(MongoClient client) {
    MongoDatabase admin = client.getDatabase("admin");
    String version;
    try {
      version = "mongod " + admin.runCommand(new Document("buildInfo", 1)).getString("version");
    } catch (MongoException e) {
      version = "mongod version unknown (" + e.getMessage() + ")";
    }
    String cache;
    try {
      Document status = admin.runCommand(new Document("serverStatus", 1));
      Document wiredTiger = status.get("wiredTiger", Document.class);
      Document cacheStats = wiredTiger == null ? null : wiredTiger.get("cache", Document.class);
      Object max = cacheStats == null ? null : cacheStats.get("maximum bytes configured");
      cache =
          max instanceof Number bytes
              ? "WiredTiger cache " + Figures.bytes(bytes.longValue())
              : "WiredTiger cache unknown (serverStatus does not report one)";
    } catch (MongoException e) {
      cache = "WiredTiger cache unknown (" + e.getMessage() + ")";
    }
    return version + ", " + cache;
  }

  private MongoCollection<RawBsonDocument> rawCollection() {
    return client
        .getDatabase(settings.database())
        .getCollection(settings.collection(), RawBsonDocument.class);
  }

  private <T> MongoCursor<T> cursor(MongoCollection<T> collection) {
    return collection
        .find()
        .sort(ID_INDEX)
        .hint(ID_INDEX)
        .batchSize(settings.batchSize())
        .iterator();
  }

  private Pass rawScan() {
    long docs = 0;
    long bytes = 0;
    try (MongoCursor<RawBsonDocument> cursor = cursor(rawCollection())) {
      while (cursor.hasNext()) {
        bytes += cursor.next().getByteBuffer().remaining();
        docs++;
      }
    }
    return new Pass(docs, bytes, Figures.bytes(bytes) + " of BSON");
  }

  private Pass documentScan() {
    long docs = 0;
    long fields = 0;
    MongoCollection<Document> collection =
        client.getDatabase(settings.database()).getCollection(settings.collection());
    try (MongoCursor<Document> cursor = cursor(collection)) {
      while (cursor.hasNext()) {
        fields += cursor.next().size();
        docs++;
      }
    }
    return new Pass(docs, fields, "");
  }

  /**
   * The export's reading and encoding without Spring Batch and without writing: the cursor read
   * ahead on a second thread into blocks, as {@code exportStep}'s reader does, and each document's
   * bytes encoded by the engine on the bundled schema into an in-memory shard, pre-sized and capped
   * as the export's, cut where the export cuts one.
   */
  private Pass engineScan() throws IOException {
    long docs = 0;
    long rejected = 0;
    long bytes = 0;
    var cursorSettings =
        new MongoDocumentCursor.Settings(
            settings.batchSize(),
            MongoDocumentCursor.Settings.DEFAULTS.maxReopens(),
            MongoDocumentCursor.Settings.DEFAULTS.reopenBackoff());
    int initial =
        SchemaShardWriter.firstBufferFor(
            CollectionStats.estimate(rawCollection()).size(), settings.shardSize());
    var shard =
        new ShardBuilder(
            plan,
            Sharing.Kinds.ALL,
            false,
            SchemaShardWriter.firstBuffer(settings.shardSize(), initial),
            SchemaShardWriter.bufferCap(settings.shardSize()));
    var blocks = new DocumentBlocks();
    try (var documents =
        new PrefetchingIterator<>(
            new MongoDocumentCursor(
                rawCollection(), new BsonDocument(), null, cursorSettings, blocks),
            2 * settings.batchSize(),
            RawDocument::size,
            64L << 20,
            "bench-reader")) {
      while (documents.hasNext()) {
        RawDocument document = documents.next();
        blocks.reached(document);
        ByteBuffer b = document.bson().getByteBuffer().asNIO();
        docs++;
        try {
          shard.add(b.array(), b.arrayOffset() + b.position(), b.remaining());
        } catch (RejectedRecord e) {
          rejected++;
        }
        if (shard.bytes() >= settings.shardSize()) {
          bytes += shard.finish().remaining();
        }
      }
    }
    if (shard.open()) {
      bytes += shard.finish().remaining();
    }
    return new Pass(docs, bytes, rejected == 0 ? "" : rejected + " rejected");
  }

  /**
   * The export row: each run exports into a directory of its own, emptied before it and deleted
   * after it unless the settings keep files, both outside its time (deleting shards forced to disk
   * takes time of its own).
   */
  private final class Export implements Row {

    private final String prefix;

    /**
     * @param prefix names its directories
     */
    Export(String prefix) {
      this.prefix = prefix;
    }

    @Override
    public void before(int run) throws IOException {
      LauncherExport.delete(dir(run));
    }

    @Override
    public Pass run(int run) throws IOException {
      boolean completed = false;
      try {
        LauncherExport.Outcome outcome = LauncherExport.run(client, settings, dir(run));
        completed = true;
        return new Pass(outcome.docs(), outcome.artifactBytes(), outcome.steps());
      } finally {
        if (!completed) {
          after(run); // the benchmark stops here: what the export left goes as it would have
        }
      }
    }

    @Override
    public void after(int run) throws IOException {
      if (!settings.keepFiles()) {
        LauncherExport.delete(dir(run));
      }
    }

    private Path dir(int run) {
      return settings.dir().resolve(prefix + "-" + settings.runName(run).replace(' ', '-'));
    }
  }
}
