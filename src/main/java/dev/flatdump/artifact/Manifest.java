package dev.flatdump.artifact;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
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
  public record Schema(
      String file,
      String sha256,
      String fileIdentifier,
      String binary,
      @JsonInclude(JsonInclude.Include.NON_NULL) Lookup lookup) {
    public Schema {
      Objects.requireNonNull(file, "Manifest.Schema.file");
      Objects.requireNonNull(sha256, "Manifest.Schema.sha256");
      Objects.requireNonNull(binary, "Manifest.Schema.binary");
    }

    /** A schema whose records have no key. */
    public Schema(String file, String sha256, String fileIdentifier, String binary) {
      this(file, sha256, fileIdentifier, binary, null);
    }
  }

  /**
   * What a reader in any language needs to look records up by key without the binary schema: the
   * root table's records vector and the records' {@code (key)} field, each by name and vtable
   * offset. Each shard's entry then holds its first and last key ({@link ArtifactFile#firstKey}).
   * Within a shard the records are in key order (strings by their UTF-8 bytes compared unsigned,
   * integers by value), strictly for a key on {@code _id}'s field, whose shards' ranges then follow
   * each other when every {@code _id} has one BSON type (the order is enforced within a shard
   * only); a key on another field sorts each shard on its own, equal keys allowed.
   *
   * @param keyType {@code string}, or the integer kind in the schema's words ({@code byte} ...
   *     {@code ulong})
   * @param keyDefault for an integer key, the value a record holds when its table omits the field
   *     (FlatBuffers leaves out a scalar equal to its default); null for a string key
   */
  public record Lookup(
      String recordsField,
      int recordsVoffset,
      String keyField,
      String keyType,
      int keyVoffset,
      @JsonInclude(JsonInclude.Include.NON_NULL) Long keyDefault) {
    public Lookup {
      Objects.requireNonNull(recordsField, "Manifest.Lookup.recordsField");
      Objects.requireNonNull(keyField, "Manifest.Lookup.keyField");
      Objects.requireNonNull(keyType, "Manifest.Lookup.keyType");
    }

    /** The lookup of {@code plan}'s records, or null when they have no {@code (key)}. */
    public static Lookup of(SchemaPlan plan) {
      FieldPlan key = plan.record().key();
      if (key == null) {
        return null;
      }
      return new Lookup(
          plan.records().name(),
          plan.records().slot(),
          key.name(),
          key.kind().name().toLowerCase(Locale.ROOT),
          key.slot(),
          key.kind() == FieldKind.STRING ? null : key.defaultInteger());
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
