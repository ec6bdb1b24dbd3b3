package dev.flatdump.report;

import static dev.flatdump.report.Checks.copyOf;
import static dev.flatdump.report.Checks.nonNegative;
import static dev.flatdump.report.Checks.notBlank;
import static dev.flatdump.report.Checks.notNull;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.compress.Compression;
import dev.flatdump.encode.engine.EncodeCounts;
import dev.flatdump.source.CollectionStats;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What one export produced, set against MongoDB's own figures for the collection: the input of
 * {@link ReportWriter}.
 *
 * <p>Immutable and thread-safe; every part is validated when built. Sizes are bytes, durations are
 * milliseconds. Ratios are not stored: {@link Source#ratioToSize} and {@link
 * Source#ratioToStorageSize} compute them.
 *
 * @param source MongoDB's statistics for the exported collection
 * @param artifacts the files written, in the order written; may be empty
 * @param baselines the {@code --compare} sizes; empty when none were measured
 * @param dedup what the FlatBuffers de-duplication shared, summed over all shards, and the BSON
 *     fields the schema does not name
 * @param records how many documents were read, exported and rejected
 * @param steps the job's steps in the order they ran
 * @param docsPerSecond exported documents per second of the export; finite, {@code >= 0}
 * @param peakHeapBytes the largest heap use seen during the run
 * @param startedAt when the run started
 * @param finishedAt when the run finished; not before {@code startedAt}
 * @param options the options the run used, as the user gave them
 */
public record SizeReport(
    Source source,
    List<Artifact> artifacts,
    List<BaselineSize> baselines,
    Dedup dedup,
    Records records,
    List<Step> steps,
    double docsPerSecond,
    long peakHeapBytes,
    Instant startedAt,
    Instant finishedAt,
    Options options) {

  public SizeReport {
    notNull("SizeReport.source", source);
    artifacts = copyOf("SizeReport.artifacts", artifacts);
    baselines = copyOf("SizeReport.baselines", baselines);
    notNull("SizeReport.dedup", dedup);
    notNull("SizeReport.records", records);
    steps = copyOf("SizeReport.steps", steps);
    if (!Double.isFinite(docsPerSecond) || docsPerSecond < 0) {
      throw new IllegalArgumentException(
          "SizeReport.docsPerSecond must be finite and >= 0, was " + docsPerSecond);
    }
    nonNegative("SizeReport.peakHeapBytes", peakHeapBytes);
    notNull("SizeReport.startedAt", startedAt);
    notNull("SizeReport.finishedAt", finishedAt);
    if (finishedAt.isBefore(startedAt)) {
      throw new IllegalArgumentException(
          "SizeReport.finishedAt must not be before startedAt "
              + startedAt
              + ", was "
              + finishedAt);
    }
    notNull("SizeReport.options", options);
  }

  /**
   * What the de-duplication shared, kind by kind, and the BSON fields the schema does not name.
   *
   * @param kinds strings, vectors and each table type, in that order
   * @param unknownFields path → documents that had a field there the schema does not name; sorted
   * @param fieldsCounted whether such fields were counted (false only in reports read back from
   *     before they were)
   * @param unions per union (its full name), per member (its name, in declaration order), how many
   *     of the exported records' values went to that member; empty when the schema has no union
   */
  public record Dedup(
      List<Shared> kinds,
      Map<String, Long> unknownFields,
      boolean fieldsCounted,
      Map<String, Map<String, Long>> unions) {

    public Dedup {
      kinds = copyOf("Dedup.kinds", kinds);
      notNull("Dedup.unknownFields", unknownFields);
      unknownFields = Collections.unmodifiableMap(new TreeMap<>(unknownFields));
      notNull("Dedup.unions", unions);
      Map<String, Map<String, Long>> copy = new java.util.LinkedHashMap<>();
      unions.forEach(
          (u, members) ->
              copy.put(u, Collections.unmodifiableMap(new java.util.LinkedHashMap<>(members))));
      unions = Collections.unmodifiableMap(copy);
    }

    public Dedup(List<Shared> kinds, Map<String, Long> unknownFields, boolean fieldsCounted) {
      this(kinds, unknownFields, fieldsCounted, Map.of());
    }

    /** These counts with the union members' counts ({@code UnionCounts}, read from the shards). */
    public Dedup withUnions(Map<String, Map<String, Long>> counts) {
      return new Dedup(kinds, unknownFields, fieldsCounted, counts);
    }

    /** The engine's counts. */
    public static Dedup of(EncodeCounts counts) {
      return new Dedup(
          counts.sharing().stream()
              .map(c -> new Shared(c.kind(), c.kind(), c.total(), c.unique(), c.bytesSaved()))
              .toList(),
          counts.unknownFields(),
          true);
    }
  }

  /**
   * One kind of shared object.
   *
   * @param kind its key in {@code report.json}: {@code strings}, {@code vectors} or a table type
   * @param label how the tables name it
   * @param total how many were asked for
   * @param unique how many were written
   * @param bytesSaved bytes that sharing the others saved; null where not measured
   */
  public record Shared(String kind, String label, long total, long unique, Long bytesSaved) {

    public Shared {
      notBlank("Shared.kind", kind);
      notBlank("Shared.label", label);
      if (unique < 0 || unique > total) {
        throw new IllegalArgumentException(
            "Shared.unique must be 0.." + total + " (total), was " + unique);
      }
      if (bytesSaved != null && bytesSaved < 0) {
        throw new IllegalArgumentException("Shared.bytesSaved must be >= 0, was " + bytesSaved);
      }
    }

    /** How many were shared instead of written. */
    public long shared() {
      return total - unique;
    }
  }

  /** The run's wall-clock time, {@code finishedAt - startedAt}. */
  public Duration duration() {
    return Duration.between(startedAt, finishedAt);
  }

  /**
   * Whether MongoDB's {@code storageSize} cannot hold these records yet: it was read without a
   * flush ({@code --fsync-source}) and is smaller than the export's smallest compressed copy.
   * WiredTiger compresses a collection page by page, so once a checkpoint has written the documents
   * they take more room than the same records de-duplicated and compressed whole; a smaller figure
   * is one taken before the checkpoint. False when there is no compressed copy to compare with.
   */
  public boolean storageNotCheckpointed() {
    if (source.storageFlushed()) {
      return false;
    }
    long smallest =
        artifacts.stream()
            .map(Artifact::format)
            .filter(f -> !f.equals("flatbuffers"))
            .distinct()
            .mapToLong(this::totalBytes)
            .min()
            .orElse(0);
    return source.storageSize() < smallest;
  }

  /** Bytes of all artifacts of one format, e.g. all FlatBuffers shards. */
  public long totalBytes(String format) {
    return artifacts.stream()
        .filter(a -> a.format().equals(format))
        .mapToLong(Artifact::bytes)
        .sum();
  }

  /**
   * MongoDB's statistics for the collection, as {@code $collStats} reports them.
   *
   * @param database the database name
   * @param collection the collection name; any characters
   * @param query the export's filter as JSON text, {@code "{}"} for the whole collection
   * @param count documents in the collection
   * @param size uncompressed BSON bytes of the documents
   * @param storageSize bytes on disk for the documents (WiredTiger, compressed)
   * @param freeStorageSize reusable bytes inside {@code storageSize}
   * @param totalIndexSize bytes on disk of all indexes
   * @param blockCompressor WiredTiger's block compressor, e.g. {@code snappy}, {@code zstd}, {@code
   *     none}
   * @param avgObjSize average BSON bytes per document
   * @param storageFlushed whether MongoDB flushed its data files ({@code {fsync: 1}}) before the
   *     figures were read; without it {@code storageSize} can lag the last checkpoint
   */
  public record Source(
      String database,
      String collection,
      String query,
      long count,
      long size,
      long storageSize,
      long freeStorageSize,
      long totalIndexSize,
      String blockCompressor,
      long avgObjSize,
      boolean storageFlushed) {

    /** MongoDB's figures {@code stats} for the export of {@code query} from a collection. */
    public static Source of(
        String database, String collection, String query, CollectionStats stats) {
      return new Source(
          database,
          collection,
          query,
          stats.count(),
          stats.size(),
          stats.storageSize(),
          stats.freeStorageSize(),
          stats.totalIndexSize(),
          stats.blockCompressor(),
          stats.avgObjSize(),
          stats.flushed());
    }

    /** What the report says of storage figures read without a flush; empty when flushed. */
    public String storageCaveat() {
      return storageFlushed
          ? ""
          : "storage figures were read without flushing MongoDB first (--fsync-source) and can"
              + " lag the last checkpoint";
    }

    public Source {
      notBlank("Source.database", database);
      notBlank("Source.collection", collection);
      notBlank("Source.query", query);
      nonNegative("Source.count", count);
      nonNegative("Source.size", size);
      nonNegative("Source.storageSize", storageSize);
      nonNegative("Source.freeStorageSize", freeStorageSize);
      nonNegative("Source.totalIndexSize", totalIndexSize);
      notBlank("Source.blockCompressor", blockCompressor);
      nonNegative("Source.avgObjSize", avgObjSize);
    }

    /** {@code bytes / size}; {@code NaN} when the collection is empty. */
    public double ratioToSize(long bytes) {
      return ratio(bytes, size);
    }

    /** {@code bytes / storageSize}; {@code NaN} when nothing is stored. */
    public double ratioToStorageSize(long bytes) {
      return ratio(bytes, storageSize);
    }

    private static double ratio(long bytes, long reference) {
      return reference == 0 ? Double.NaN : (double) bytes / reference;
    }
  }

  /**
   * One file the export wrote.
   *
   * @param name the file name, without directories
   * @param format {@code flatbuffers}, {@code gzip} or {@code zstd}
   * @param bytes the file's size
   * @param sha256 the file's SHA-256, 64 hex digits (stored in lower case)
   * @param shard the shard index, from 0; {@code null} when the export is not sharded
   */
  public record Artifact(String name, String format, long bytes, String sha256, Integer shard) {

    /** The formats an artifact can have: the shards', and their compressed copies'. */
    public static final Set<String> FORMATS = formats();

    private static Set<String> formats() {
      Set<String> formats = new java.util.HashSet<>(Compression.NAMES);
      formats.add("flatbuffers");
      formats.add("columnar");
      return Set.copyOf(formats);
    }

    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    public Artifact {
      notBlank("Artifact.name", name);
      notNull("Artifact.format", format);
      if (!FORMATS.contains(format)) {
        throw new IllegalArgumentException(
            "Artifact.format must be flatbuffers, columnar, "
                + String.join(" or ", Compression.NAMES)
                + ", was '"
                + format
                + "'");
      }
      nonNegative("Artifact.bytes", bytes);
      notNull("Artifact.sha256", sha256);
      sha256 = sha256.toLowerCase(Locale.ROOT);
      if (!SHA256.matcher(sha256).matches()) {
        throw new IllegalArgumentException(
            "Artifact.sha256 must be 64 hex digits, was '" + sha256 + "'");
      }
      if (shard != null && shard < 0) {
        throw new IllegalArgumentException("Artifact.shard must be >= 0, was " + shard);
      }
    }

    /** The data files among an export's files, in order: its shards and their compressed copies. */
    public static List<Artifact> dataFiles(List<ArtifactFile> files) {
      return files.stream()
          .filter(f -> FORMATS.contains(f.format()))
          .map(f -> new Artifact(f.name(), f.format(), f.bytes(), f.sha256(), f.shard()))
          .toList();
    }

    /** An artifact of an export that is not sharded. */
    public Artifact(String name, String format, long bytes, String sha256) {
      this(name, format, bytes, sha256, null);
    }
  }

  /**
   * What happened to the documents read.
   *
   * @param read documents the reader returned
   * @param exported documents written to the artifacts
   * @param rejected documents skipped as invalid; {@code read == exported + rejected}
   */
  public record Records(long read, long exported, long rejected) {

    public Records {
      nonNegative("Records.read", read);
      nonNegative("Records.exported", exported);
      nonNegative("Records.rejected", rejected);
      if (read != exported + rejected) {
        throw new IllegalArgumentException(
            "Records.read must equal exported + rejected = "
                + (exported + rejected)
                + ", was "
                + read);
      }
    }
  }

  /**
   * One step of the job and how long it took.
   *
   * @param name the step's name, e.g. {@code exportStep}
   * @param millis its wall-clock time
   */
  public record Step(String name, long millis) {

    public Step {
      notBlank("Step.name", name);
      nonNegative("Step.millis", millis);
    }
  }

  /**
   * The options the run used, in their text form.
   *
   * @param dedup e.g. {@code strings,tables,vectors} or {@code none}
   * @param compress e.g. {@code gzip,zstd} or {@code none}
   * @param shardSize in bytes, at least 1
   */
  public record Options(String dedup, String compress, long shardSize) {

    public Options {
      notBlank("Options.dedup", dedup);
      notBlank("Options.compress", compress);
      if (shardSize < 1) {
        throw new IllegalArgumentException(
            "SizeReport.Options.shardSize must be >= 1, got " + shardSize);
      }
    }
  }
}
