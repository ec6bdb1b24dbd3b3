package dev.flatdump.job;

import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.compress.Compression;
import dev.flatdump.artifact.write.SchemaShardWriter;
import dev.flatdump.columnar.ColumnarCopy;
import dev.flatdump.encode.DedupOptions;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.json.JsonParseException;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;

/**
 * Everything one export run needs, validated when built. It becomes the job's parameters (all keys
 * are here) and is read back from them by each step. It never holds the connection string: the
 * MongoDB client is handed to the job separately, so no secret reaches the job repository.
 *
 * @param source where the data comes from, for identification only: {@code host:port} list, no
 *     credentials
 * @param database the database name
 * @param collection the collection name
 * @param out the output directory; absolute
 * @param query a filter as Extended JSON, {@code {}} for everything
 * @param compress compressions to write, in order ({@code gzip}, {@code zstd}); empty for none
 * @param gzipLevel gzip level 1..9
 * @param zstdLevel zstd level 1..22
 * @param dedup which de-dup kinds are on
 * @param compare baselines for the report ({@code plain}, {@code strings}, {@code protobuf}, {@code
 *     json}); empty for none
 * @param shardSize finish a shard once it holds this many bytes
 * @param maxRejects how many rejected documents fail the export: a count, a percentage of the
 *     documents read, or none
 * @param batchSize the MongoDB cursor's batch size
 * @param runDate identifies the job instance with the other identifying values
 * @param runId 0 normally; a distinct value forces a fresh job instance
 * @param keep how many published exports {@code out} keeps, the new one included; at least 1
 * @param fsyncSource whether the report flushes the source server ({@code {fsync: 1}}, an admin
 *     command that flushes every database) before reading its storage figures
 * @param schema the user's FlatBuffers schema ({@code .fbs} or {@code .bfbs}) that the documents
 *     are mapped onto; null for the bundled {@code organizations.fbs}
 * @param strict whether a BSON field the schema does not name rejects its document
 * @param partitions how many {@code _id} ranges export in parallel, each into shards of its own; 1
 *     for one cursor over the whole collection
 */
public record ExportOptions(
    String source,
    String database,
    String collection,
    Path out,
    String query,
    List<String> compress,
    int gzipLevel,
    int zstdLevel,
    DedupOptions dedup,
    List<String> compare,
    long shardSize,
    RejectLimit maxRejects,
    int batchSize,
    LocalDate runDate,
    long runId,
    int keep,
    boolean fsyncSource,
    Path schema,
    boolean strict,
    int partitions) {

  /** The most partitions an export takes. */
  public static final int MAX_PARTITIONS = 1024;

  /** Exports kept by default: the new one and the one before, for a consumer still reading it. */
  public static final int DEFAULT_KEEP = 2;

  /** The copy formats {@code --compress} takes: the stream compressions and the columnar copy. */
  public static final List<String> COMPRESSIONS = List.of("gzip", "zstd", ColumnarCopy.FORMAT);

  public static final List<String> BASELINES = List.of("plain", "strings", "protobuf", "json");

  // Job parameter keys: the one place they are named.
  static final String SOURCE = "source";
  static final String DATABASE = "database";
  static final String COLLECTION = "collection";
  static final String OUT = "out";
  static final String QUERY = "query";
  static final String COMPRESS = "compress";
  static final String GZIP_LEVEL = "gzipLevel";
  static final String ZSTD_LEVEL = "zstdLevel";
  static final String DEDUP = "dedup";
  static final String COMPARE = "compare";
  static final String SHARD_SIZE = "shardSize";
  static final String MAX_REJECTS = "maxRejects";
  static final String BATCH_SIZE = "batchSize";
  static final String RUN_DATE = "runDate";
  static final String RUN_ID = "runId";
  static final String KEEP = "keep";
  static final String FSYNC_SOURCE = "fsyncSource";
  static final String SCHEMA = "schema";
  static final String STRICT = "strict";
  static final String PARTITIONS = "partitions";

  public ExportOptions {
    requireText(source, "source");
    requireText(database, "database");
    requireText(collection, "collection");
    Objects.requireNonNull(out, "out must be set");
    out = out.toAbsolutePath().normalize();
    requireText(query, "query");
    parseQuery(query);
    compress = normalized(compress, COMPRESSIONS, "compress");
    if (gzipLevel < 1 || gzipLevel > 9) {
      throw new IllegalArgumentException("gzip level must be 1..9, got " + gzipLevel);
    }
    if (zstdLevel < 1 || zstdLevel > 22) {
      throw new IllegalArgumentException("zstd level must be 1..22, got " + zstdLevel);
    }
    Objects.requireNonNull(dedup, "dedup must be set");
    compare = normalized(compare, BASELINES, "compare");
    SchemaShardWriter.requireShardSize(shardSize);
    Objects.requireNonNull(maxRejects, "max rejects must be set");
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be >= 1, got " + batchSize);
    }
    Objects.requireNonNull(runDate, "runDate must be set");
    if (runDate.getYear() < 1 || runDate.getYear() > 9999) {
      // the export's directory is named after it: RUNDATE-ID, four-digit years only
      throw new IllegalArgumentException(
          "run date must be in the years 0001 to 9999 (YYYY-MM-DD), got " + runDate);
    }
    if (keep < 1) {
      throw new IllegalArgumentException("keep must be >= 1, got " + keep);
    }
    if (schema != null) {
      schema = schema.toAbsolutePath().normalize();
    }
    if (partitions < 1 || partitions > MAX_PARTITIONS) {
      throw new IllegalArgumentException(
          "partitions must be 1.." + MAX_PARTITIONS + ", got " + partitions);
    }
  }

  /** Whether the export runs as partitions ({@code --partitions} above 1). */
  public boolean partitioned() {
    return partitions > 1;
  }

  /**
   * The compressed copies this export writes: {@link #compress}, in its order, at this export's
   * levels, each on {@code threads} threads (which do not change the bytes). The one place the
   * names and levels become compressions.
   */
  List<Compression> compressions(int threads) {
    return compress.stream()
        .filter(Compression.NAMES::contains)
        .map(name -> compression(name, threads))
        .toList();
  }

  /** Whether the export writes each shard's columnar copy ({@code .fbc}). */
  public boolean columnar() {
    return compress.contains(ColumnarCopy.FORMAT);
  }

  /**
   * gzip at this export's level, whether or not it writes gzip copies: the baselines measure it.
   */
  Compression gzip(int threads) {
    return compression("gzip", threads);
  }

  /**
   * zstd at this export's level, whether or not it writes zstd copies: the baselines measure it.
   */
  Compression zstd(int threads) {
    return compression("zstd", threads);
  }

  private Compression compression(String name, int threads) {
    int level = name.equals("gzip") ? gzipLevel : zstdLevel;
    return Compression.create(name, level).withThreads(threads);
  }

  /** The name of the schema this export follows: it names the shards and the schema's files. */
  public String schemaName() {
    return SchemaFiles.nameFor(schema);
  }

  /** Parses a comma list such as {@code gzip,zstd}; {@code none} or blank is the empty list. */
  public static List<String> parseList(String text) {
    if (text == null || text.isBlank() || text.trim().equalsIgnoreCase("none")) {
      return List.of();
    }
    return java.util.Arrays.stream(text.split(","))
        .map(s -> s.trim().toLowerCase(Locale.ROOT))
        .filter(s -> !s.isEmpty())
        .toList();
  }

  /**
   * Parses and checks a {@code --compress} list as the options do: known names only, in their
   * canonical order.
   *
   * @throws IllegalArgumentException naming an unknown value
   */
  public static List<String> parseCompressions(String text) {
    return normalized(parseList(text), COMPRESSIONS, "compress");
  }

  private static List<String> normalized(List<String> values, List<String> allowed, String name) {
    Objects.requireNonNull(values, name + " must be set");
    for (String v : values) {
      if (!allowed.contains(v)) {
        throw new IllegalArgumentException(
            "unknown "
                + name
                + " value '"
                + v
                + "' (expected "
                + String.join(", ", allowed)
                + " or none)");
      }
    }
    // keep the canonical order so that the same set always names the same job instance
    return allowed.stream().filter(values::contains).toList();
  }

  /**
   * A query: exactly one Extended JSON document ({@code BsonDocument.parse} would stop after the
   * first).
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  public static BsonDocument parseQuery(String query) {
    BsonArray parsed;
    try {
      parsed = BsonArray.parse("[" + query + "]");
    } catch (JsonParseException | org.bson.BsonInvalidOperationException e) {
      throw new IllegalArgumentException(
          "query is not a JSON document: " + query + " (" + e.getMessage() + ")");
    }
    if (parsed.size() != 1 || !parsed.get(0).isDocument()) {
      throw new IllegalArgumentException("query must be exactly one JSON document, got: " + query);
    }
    return parsed.get(0).asDocument();
  }

  private static void requireText(String v, String name) {
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException(name + " must be set");
    }
  }

  /**
   * The staging directory, inside {@link #out}, where files are written before they are published.
   */
  public Path staging() {
    return out.resolve(".flatdump").resolve("staging");
  }

  /**
   * These options as job parameters. Those that shape the export are identifying, so that another
   * value is another job instance; the batch size, {@code keep} and {@code fsyncSource} are not.
   * {@code schema} and {@code strict} are there only when set, so that an export without them is
   * the same job instance as one recorded before they existed; {@code partitions} only above 1, for
   * the same reason.
   */
  public JobParameters toJobParameters() {
    JobParametersBuilder b = new JobParametersBuilder();
    if (schema != null) {
      b.addString(SCHEMA, schema.toString());
    }
    if (schema != null || strict) {
      b.addString(STRICT, Boolean.toString(strict));
    }
    if (partitions > 1) {
      b.addLong(PARTITIONS, (long) partitions);
    }
    return b.addString(SOURCE, source)
        .addString(DATABASE, database)
        .addString(COLLECTION, collection)
        .addString(OUT, out.toString())
        .addString(QUERY, query)
        .addString(COMPRESS, String.join(",", compress))
        .addLong(GZIP_LEVEL, (long) gzipLevel)
        .addLong(ZSTD_LEVEL, (long) zstdLevel)
        .addString(DEDUP, dedup.toString())
        .addString(COMPARE, String.join(",", compare))
        .addLong(SHARD_SIZE, shardSize)
        .addString(MAX_REJECTS, maxRejects.toString())
        .addLong(BATCH_SIZE, (long) batchSize, false)
        .addString(RUN_DATE, runDate.toString())
        .addLong(RUN_ID, runId)
        .addLong(KEEP, (long) keep, false)
        .addString(FSYNC_SOURCE, Boolean.toString(fsyncSource), false)
        .toJobParameters();
  }

  /** Reads the options back from a job's parameters. */
  public static ExportOptions from(JobParameters p) {
    return new ExportOptions(
        p.getString(SOURCE),
        p.getString(DATABASE),
        p.getString(COLLECTION),
        Path.of(p.getString(OUT)),
        p.getString(QUERY),
        parseList(p.getString(COMPRESS)),
        p.getLong(GZIP_LEVEL).intValue(),
        p.getLong(ZSTD_LEVEL).intValue(),
        DedupOptions.parse(p.getString(DEDUP)),
        parseList(p.getString(COMPARE)),
        p.getLong(SHARD_SIZE),
        RejectLimit.parse(String.valueOf(p.getParameter(MAX_REJECTS).value())),
        p.getLong(BATCH_SIZE).intValue(),
        LocalDate.parse(p.getString(RUN_DATE)),
        p.getLong(RUN_ID),
        // absent from the parameters of runs recorded before they existed
        p.getLong(KEEP) == null ? DEFAULT_KEEP : p.getLong(KEEP).intValue(),
        Boolean.parseBoolean(p.getString(FSYNC_SOURCE)),
        p.getString(SCHEMA) == null ? null : Path.of(p.getString(SCHEMA)),
        Boolean.parseBoolean(p.getString(STRICT)),
        p.getLong(PARTITIONS) == null ? 1 : p.getLong(PARTITIONS).intValue());
  }
}
