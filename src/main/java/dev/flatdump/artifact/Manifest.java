package dev.flatdump.artifact;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code manifest.json}: what an export produced and from what. It is published last, so a consumer
 * that sees it sees a complete set of files. It holds no secrets: the source is named by database
 * and collection, never by a connection string.
 *
 * @param formatVersion this manifest layout's version, {@value #FORMAT_VERSION}
 * @param schema the FlatBuffers schema the data files follow
 * @param source where the data came from
 * @param options the export options that shape the bytes
 * @param counts records read, exported and rejected
 * @param files every file of the export, data shards in order first
 * @param startedAt when the run started
 * @param finishedAt when the manifest was written
 */
public record Manifest(
    int formatVersion,
    Schema schema,
    Source source,
    Options options,
    Counts counts,
    List<ArtifactFile> files,
    Instant startedAt,
    Instant finishedAt) {

  public static final int FORMAT_VERSION = 1;
  public static final String FILE_NAME = "manifest.json";

  private static final JsonMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  public Manifest {
    Objects.requireNonNull(schema, "Manifest.schema");
    Objects.requireNonNull(source, "Manifest.source");
    Objects.requireNonNull(options, "Manifest.options");
    Objects.requireNonNull(counts, "Manifest.counts");
    files = List.copyOf(files);
  }

  /**
   * @param file the schema's file name: its {@code .fbs}, or its {@code .bfbs} when the user gave
   *     only that
   * @param sha256 of that file
   * @param fileIdentifier the shards' file identifier ({@code ORGS} for organizations), or null
   *     when the schema declares none
   * @param binary the binary schema's file name ({@code .bfbs}), from which a reader of the export
   *     takes the plan
   */
  public record Schema(String file, String sha256, String fileIdentifier, String binary) {
    public Schema {
      Objects.requireNonNull(file, "Manifest.Schema.file");
      Objects.requireNonNull(sha256, "Manifest.Schema.sha256");
      Objects.requireNonNull(binary, "Manifest.Schema.binary");
    }
  }

  /**
   * @param query the filter as JSON text, {@code {}} for the whole collection
   */
  public record Source(String database, String collection, String query) {}

  /**
   * @param strict whether a field the schema does not name rejected its document
   * @param partitions how many {@code _id} ranges were exported each into shards of their own
   *     ({@code --partitions}), which places the shard boundaries
   */
  public record Options(
      String dedup, List<String> compress, long shardSizeBytes, boolean strict, int partitions) {}

  public record Counts(long read, long exported, long rejected) {
    public Counts {
      if (read != exported + rejected) {
        throw new IllegalArgumentException(
            "read ("
                + read
                + ") must equal exported ("
                + exported
                + ") + rejected ("
                + rejected
                + ")");
      }
    }
  }

  /** The data shards ({@code flatbuffers} files), in order. */
  public List<ArtifactFile> shards() {
    return files.stream().filter(f -> "flatbuffers".equals(f.format())).toList();
  }

  public String toJson() {
    return JSON.writeValueAsString(this);
  }

  public static Manifest read(Path file) {
    try {
      return JSON.readValue(Files.readString(file, StandardCharsets.UTF_8), Manifest.class);
    } catch (java.io.IOException | JacksonException e) {
      throw new ArtifactException("cannot read manifest " + file + ": " + e.getMessage(), e);
    }
  }

  /** Writes this manifest to {@code dir/manifest.json} atomically. */
  public void write(Path dir) {
    byte[] bytes = toJson().getBytes(StandardCharsets.UTF_8);
    AtomicFiles.write(dir.resolve(FILE_NAME), out -> out.write(bytes));
  }
}
