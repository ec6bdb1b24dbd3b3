package dev.flatdump.bench;

import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgCodec;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.encode.engine.PutsOnly;
import dev.flatdump.encode.engine.ShardBuilder;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.encode.plan.SchemaPlan;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.bson.BsonBinaryReader;
import org.bson.BsonBinaryWriter;
import org.bson.BsonObjectId;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.codecs.DecoderContext;
import org.bson.codecs.DocumentCodec;
import org.bson.io.BasicOutputBuffer;

/**
 * The export's CPU work per document, without MongoDB: generated orgs are written as BSON documents
 * in memory once, then each row decodes (and encodes) all of them on this thread, timed in this
 * thread's CPU time. No cursor, no mongod and no other thread share the figure, so it moves far
 * less with the machine's load than {@code bench export}'s wall times; garbage collection, which
 * runs on other threads, is not in it (the bytes allocated per document say what it is given to
 * do).
 *
 * <p>Rows run interleaved (run 1 of every row, then run 2, ...), after a warm-up run of each. Each
 * run starts a fresh decoder and builder, as each export does. Not thread-safe.
 */
public final class CpuBenchmark {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /**
   * @param profile how the orgs are generated
   * @param orgs how many; at least 1
   * @param seed the generator's seed
   * @param runs measured runs per row, after one warm-up run; at least 1
   */
  public record Settings(Profile profile, int orgs, long seed, int runs) {
    public Settings {
      Objects.requireNonNull(profile, "profile must be set");
      if (orgs < 1) {
        throw new IllegalArgumentException("orgs must be >= 1, got " + orgs);
      }
      if (runs < 1) {
        throw new IllegalArgumentException("runs must be >= 1, got " + runs);
      }
    }
  }

  /** One row: what it does to every document; it returns a checksum that says it did it. */
  private record Row(String name, ToLongFunction<List<RawBsonDocument>> work) {}

  private final Settings settings;
  private final Consumer<String> log;

  private CpuBenchmark(Settings settings, Consumer<String> log) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.log = Objects.requireNonNull(log, "log");
  }

  /**
   * Runs every row.
   *
   * @param log receives a line per measured run (progress); must not be null
   */
  public static CpuReport run(Settings settings, Consumer<String> log) {
    return new CpuBenchmark(settings, log).run();
  }

  private CpuReport run() {
    if (!THREADS.isCurrentThreadCpuTimeSupported()) {
      throw new IllegalStateException("this JVM cannot measure a thread's CPU time");
    }
    THREADS.setThreadCpuTimeEnabled(true);
    log.accept(
        "generating "
            + settings.orgs()
            + " "
            + settings.profile().name().toLowerCase(Locale.ROOT)
            + " orgs as BSON");
    List<RawBsonDocument> documents = documents();
    long bsonBytes = documents.stream().mapToLong(d -> d.getByteBuffer().remaining()).sum();
    List<Org> decoded = new ArrayList<>(documents.size());
    var codec = new OrgCodec();
    documents.forEach(d -> decoded.add(codec.decode(d)));
    List<Row> rows =
        List.of(
            new Row("driver Document decode (DocumentCodec)", CpuBenchmark::documentDecode),
            new Row(
                "OrgCodec decode into records (BsonBinaryReader)",
                docs -> attributes(docs, new OrgCodec()::decode)),
            new Row(
                "flatdump engine on organizations.fbs, all de-dup (the export's)",
                engineRow(
                    (plan, capacity) ->
                        new ShardBuilder(plan, Sharing.Kinds.ALL, false, capacity))),
            new Row(
                "flatdump engine on organizations.fbs, strings only",
                engineRow(
                    (plan, capacity) ->
                        new ShardBuilder(
                            plan, new Sharing.Kinds(true, false, false), false, capacity))),
            new Row(
                "protobuf: the decoded records built and serialized (as the articles)",
                docs -> ProtobufFileCodec.message(decoded).toByteArray().length),
            new Row(
                "flatdump engine, all de-dup, tables through the builder's puts (no BuilderSpace)",
                engineRow(
                    (plan, capacity) ->
                        PutsOnly.shardBuilder(plan, Sharing.Kinds.ALL, false, capacity))));
    long[][] nanos = new long[rows.size()][settings.runs()];
    long[][] allocated = new long[rows.size()][settings.runs()];
    long[] checksums = new long[rows.size()];
    for (int run = -1; run < settings.runs(); run++) {
      for (int i = 0; i < rows.size(); i++) {
        long bytesBefore = THREADS.getCurrentThreadAllocatedBytes();
        long before = THREADS.getCurrentThreadCpuTime();
        long checksum = rows.get(i).work().applyAsLong(documents);
        long cpu = THREADS.getCurrentThreadCpuTime() - before;
        long bytes = THREADS.getCurrentThreadAllocatedBytes() - bytesBefore;
        if (run >= 0) {
          nanos[i][run] = cpu;
          allocated[i][run] = bytes;
          checksums[i] = checksum;
          log.accept(
              String.format(
                  Locale.ROOT,
                  "%s run %d: %,d ns CPU per document",
                  rows.get(i).name(),
                  run + 1,
                  cpu / documents.size()));
        }
      }
    }
    List<CpuRow> result = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      result.add(
          new CpuRow(
              rows.get(i).name(),
              documents.size(),
              Figures.median(nanos[i]),
              min(nanos[i]),
              Figures.median(allocated[i]),
              checksums[i],
              java.util.Arrays.stream(nanos[i]).boxed().toList()));
    }
    return new CpuReport(
        settings, bsonBytes, MachineInfo.describe(), MachineInfo.loadAverage(), result);
  }

  private List<RawBsonDocument> documents() {
    var generator = new OrgGenerator(settings.profile(), settings.seed());
    var codec = new OrgCodec();
    List<RawBsonDocument> documents = new ArrayList<>(settings.orgs());
    for (int i = 0; i < settings.orgs(); i++) {
      var out = new BasicOutputBuffer();
      codec.encode(
          new BsonBinaryWriter(out), new BsonObjectId(generator.idOf(i)), generator.next());
      documents.add(new RawBsonDocument(out.toByteArray()));
    }
    return documents;
  }

  /** Fields decoded, so the decoding cannot be skipped. */
  private static long documentDecode(List<RawBsonDocument> documents) {
    var codec = new DocumentCodec();
    var context = DecoderContext.builder().build();
    long fields = 0;
    for (RawBsonDocument document : documents) {
      try (var reader = new BsonBinaryReader(document.getByteBuffer().asNIO())) {
        Document decoded = codec.decode(reader, context);
        fields += decoded.size();
      }
    }
    return fields;
  }

  /** Attributes decoded, by a decoder made for this run (the byte walk's caches start empty). */
  private static long attributes(
      List<RawBsonDocument> documents, Function<RawBsonDocument, Org> decode) {
    long attributes = 0;
    for (RawBsonDocument document : documents) {
      attributes += decode.apply(document).attributes().size();
    }
    return attributes;
  }

  /**
   * The export's engine on the documents, with the schema bundled in the jar, in the shard builder
   * made by {@code builder} (for a plan and a first buffer size): the finished buffer's size.
   */
  private static ToLongFunction<List<RawBsonDocument>> engineRow(
      java.util.function.BiFunction<SchemaPlan, Integer, ShardBuilder> builder) {
    SchemaPlan plan = SchemaFiles.bundled().plan();
    return documents -> {
      // what the export starts a default 128 MiB shard with at most: a quarter of it
      var shard = builder.apply(plan, 32 << 20);
      for (RawBsonDocument document : documents) {
        var bytes = document.getByteBuffer();
        shard.add(bytes.array(), bytes.arrayOffset(), bytes.remaining());
      }
      return shard.finish().remaining();
    };
  }

  private static long min(long[] values) {
    long min = Long.MAX_VALUE;
    for (long value : values) {
      min = Math.min(min, value);
    }
    return min;
  }
}
