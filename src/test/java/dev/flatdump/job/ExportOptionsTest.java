package dev.flatdump.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.tuple;

import dev.flatdump.artifact.compress.Compression;
import dev.flatdump.artifact.write.SchemaShardWriter;
import dev.flatdump.encode.DedupOptions;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.batch.core.job.parameters.JobParameter;
import org.springframework.batch.core.job.parameters.JobParameters;

class ExportOptionsTest {

  @TempDir Path out;

  /** The constructor's arguments, valid until a test changes one. */
  private final class Args {
    String source = "db1.example.com:27017";
    String database = "shop";
    String collection = "organizations";
    Path dir = out;
    String query =
        "{\"country\": \"ES\", \"_id\": {\"$gt\": {\"$oid\": \"65920080a1b2c3d4e5f60718\"}}}";
    List<String> compress = List.of("gzip", "zstd");
    int gzipLevel = 6;
    int zstdLevel = 9;
    DedupOptions dedup = DedupOptions.ALL;
    List<String> compare = List.of("plain", "protobuf");
    long shardSize = 64L << 20;
    RejectLimit maxRejects = RejectLimit.count(100);
    int batchSize = 1000;
    LocalDate runDate = LocalDate.of(2024, 5, 1);
    long runId = 0;
    int keep = ExportOptions.DEFAULT_KEEP;
    boolean fsyncSource = false;
    Path schema = null;
    boolean strict = false;
    int partitions = 1;

    ExportOptions build() {
      return new ExportOptions(
          source,
          database,
          collection,
          dir,
          query,
          compress,
          gzipLevel,
          zstdLevel,
          dedup,
          compare,
          shardSize,
          maxRejects,
          batchSize,
          runDate,
          runId,
          keep,
          fsyncSource,
          schema,
          strict,
          partitions);
    }
  }

  private ExportOptions options(Consumer<Args> change) {
    var args = new Args();
    change.accept(args);
    return args.build();
  }

  private ExportOptions valid() {
    return options(a -> {});
  }

  @Nested
  class JobParametersRoundTrip {

    @Test
    void readsBackTheSameOptions() {
      ExportOptions options = valid();

      assertThat(ExportOptions.from(options.toJobParameters())).isEqualTo(options);
    }

    @Test
    void readsBackOptionsWithoutCompressionsBaselinesOrDedup() {
      ExportOptions options =
          options(
              a -> {
                a.compress = List.of();
                a.compare = List.of();
                a.dedup = DedupOptions.NONE;
                a.maxRejects = RejectLimit.NONE;
                a.query = "{}";
              });

      assertThat(ExportOptions.from(options.toJobParameters())).isEqualTo(options);
    }

    @Test
    void readsBackEveryBoundValue() {
      ExportOptions options =
          options(
              a -> {
                a.gzipLevel = 9;
                a.zstdLevel = 22;
                a.shardSize = SchemaShardWriter.MAX_SHARD_SIZE;
                a.batchSize = Integer.MAX_VALUE;
                a.runId = Long.MAX_VALUE;
                a.dedup = DedupOptions.STRINGS_ONLY;
              });

      assertThat(ExportOptions.from(options.toJobParameters())).isEqualTo(options);
    }

    @Test
    void everyParameterButTheBatchSizeIdentifiesTheJobInstance() {
      JobParameters parameters = valid().toJobParameters();

      assertThat(parameters.getIdentifyingParameters())
          .extracting(JobParameter::name)
          .containsExactlyInAnyOrder(
              "source",
              "database",
              "collection",
              "out",
              "query",
              "compress",
              "gzipLevel",
              "zstdLevel",
              "dedup",
              "compare",
              "shardSize",
              "maxRejects",
              "runDate",
              "runId");
      assertThat(parameters.getLong("batchSize")).isEqualTo(1000L);
    }

    @Test
    void readsBackASchemaAndStrict() {
      ExportOptions options =
          options(
              a -> {
                a.schema = Path.of("schemas", "states.fbs");
                a.strict = true;
                a.compare = List.of("plain", "strings", "json");
              });

      assertThat(ExportOptions.from(options.toJobParameters())).isEqualTo(options);
      assertThat(options.schema()).isAbsolute();
      assertThat(options.schemaName()).isEqualTo("states");
    }

    @Test
    void aSchemaAndStrictIdentifyTheJobInstanceOnlyWhenSet() {
      JobParameters with =
          options(
                  a -> {
                    a.schema = Path.of("states.fbs");
                    a.compare = List.of();
                  })
              .toJobParameters();

      assertThat(with.getIdentifyingParameters())
          .extracting(JobParameter::name)
          .contains("schema", "strict");
      assertThat(valid().toJobParameters().parameters())
          .extracting(JobParameter::name)
          .doesNotContain("schema", "strict");
      assertThat(options(a -> a.strict = true).toJobParameters().getIdentifyingParameters())
          .extracting(JobParameter::name)
          .contains("strict")
          .doesNotContain("schema");
    }

    @Test
    void partitionsIdentifyTheJobInstanceOnlyAboveOne() {
      ExportOptions four = options(a -> a.partitions = 4);

      assertThat(four.toJobParameters().getIdentifyingParameters())
          .extracting(JobParameter::name)
          .contains("partitions");
      assertThat(ExportOptions.from(four.toJobParameters())).isEqualTo(four);
      assertThat(valid().toJobParameters().parameters())
          .extracting(JobParameter::name)
          .doesNotContain("partitions");
      assertThat(ExportOptions.from(valid().toJobParameters()).partitions()).isEqualTo(1);
    }

    @Test
    void followTheBundledSchemaWhenTheyNameNone() {
      ExportOptions options = options(a -> a.strict = true);

      assertThat(options.schema()).isNull();
      assertThat(options.schemaName()).isEqualTo("organizations");
      assertThat(ExportOptions.from(options.toJobParameters())).isEqualTo(options);
    }

    @Test
    void holdsNoConnectionString() {
      assertThat(valid().toJobParameters().toString()).doesNotContain("mongodb://");
    }
  }

  @Nested
  class Normalizes {

    @Test
    void compressionsToTheirCanonicalOrder() {
      ExportOptions zstdFirst = options(a -> a.compress = List.of("zstd", "gzip"));
      ExportOptions gzipFirst = options(a -> a.compress = List.of("gzip", "zstd"));

      assertThat(zstdFirst.compress()).containsExactly("gzip", "zstd");
      assertThat(zstdFirst.toJobParameters()).isEqualTo(gzipFirst.toJobParameters());
      assertThat(zstdFirst.toJobParameters().getString("compress")).isEqualTo("gzip,zstd");
    }

    @Test
    void baselinesToTheirCanonicalOrder() {
      ExportOptions options = options(a -> a.compare = List.of("json", "protobuf", "plain"));

      assertThat(options.compare()).containsExactly("plain", "protobuf", "json");
      assertThat(options.toJobParameters().getString("compare")).isEqualTo("plain,protobuf,json");
    }

    @Test
    void repeatedValuesToOne() {
      assertThat(options(a -> a.compress = List.of("zstd", "zstd")).compress())
          .containsExactly("zstd");
    }

    @Test
    void theOutputDirectoryToAnAbsoluteNormalPath() {
      ExportOptions options = options(a -> a.dir = Path.of("exports", "..", "exports", "today"));

      assertThat(options.out())
          .isAbsolute()
          .isEqualTo(Path.of("exports", "today").toAbsolutePath());
      assertThat(options.staging()).isEqualTo(options.out().resolve(".flatdump/staging"));
    }

    @Test
    void aRestartReadsTheSameJobParametersForTheSameSets() {
      JobParameters first = options(a -> a.compare = List.of("strings", "plain")).toJobParameters();

      JobParameters again = ExportOptions.from(first).toJobParameters();

      assertThat(again).isEqualTo(first);
    }
  }

  @Nested
  class Rejects {

    @ParameterizedTest
    @ValueSource(strings = {"not json", "{\"a\": ", "[1, 2]", "{\"a\": 1"})
    void aQueryThatIsNotAJsonDocument(String query) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> options(a -> a.query = query))
          .withMessageContaining("query")
          .withMessageContaining(query);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, ExportOptions.MAX_PARTITIONS + 1})
    void partitionsOutOfRange(int partitions) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> options(a -> a.partitions = partitions))
          .withMessage("partitions must be 1..1024, got " + partitions);
    }

    @Test
    void aQueryWithTextAfterTheDocument() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> options(a -> a.query = "{\"a\": 1}, {\"b\": 1}"))
          .withMessageContaining("query");
    }

    @Test
    void aBlankQuery() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> options(a -> a.query = " "))
          .withMessage("query must be set");
    }

    @Test
    void anUnknownCompression() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> options(a -> a.compress = List.of("gzip", "lz4")))
          .withMessageContaining("compress")
          .withMessageContaining("'lz4'");
    }

    @Test
    void anUnknownBaseline() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> options(a -> a.compare = List.of("xml")))
          .withMessageContaining("compare")
          .withMessageContaining("'xml'");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 10, -1})
    void aGzipLevelOutOfRange(int level) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> options(a -> a.gzipLevel = level))
          .withMessageContaining("gzip level")
          .withMessageContaining("got " + level);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 23})
    void aZstdLevelOutOfRange(int level) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> options(a -> a.zstdLevel = level))
          .withMessageContaining("zstd level")
          .withMessageContaining("got " + level);
    }

    @Test
    void aShardSizeBelowOneKib() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> options(a -> a.shardSize = 1023))
          .withMessageContaining("shard size")
          .withMessageContaining("got 1023");
    }

    @Test
    void aShardSizeAboveTheMaximum() {
      long size = SchemaShardWriter.MAX_SHARD_SIZE + 1;

      assertThatIllegalArgumentException()
          .isThrownBy(() -> options(a -> a.shardSize = size))
          .withMessageContaining("shard size")
          .withMessageContaining("got " + size);
    }

    @Test
    void acceptsTheShardSizeBounds() {
      assertThat(options(a -> a.shardSize = 1024).shardSize()).isEqualTo(1024);
      assertThat(options(a -> a.shardSize = SchemaShardWriter.MAX_SHARD_SIZE).shardSize())
          .isEqualTo(SchemaShardWriter.MAX_SHARD_SIZE);
    }

    @Test
    void requiresMaxRejects() {
      assertThatNullPointerException()
          .isThrownBy(() -> options(a -> a.maxRejects = null))
          .withMessageContaining("max rejects");
    }

    @Test
    void readsBackAPercentageOrNoMaxRejects() {
      for (String limit : List.of("1%", "0.5%", "100%", "0", "none")) {
        ExportOptions options = options(a -> a.maxRejects = RejectLimit.parse(limit));

        assertThat(ExportOptions.from(options.toJobParameters()).maxRejects())
            .hasToString(limit)
            .isEqualTo(options.maxRejects());
      }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -5})
    void aBatchSizeBelowOne(int batchSize) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> options(a -> a.batchSize = batchSize))
          .withMessageContaining("batch size")
          .withMessageContaining("got " + batchSize);
    }

    @Test
    void blankNamesNamingTheField() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> options(a -> a.source = ""))
          .withMessage("source must be set");
      assertThatIllegalArgumentException()
          .isThrownBy(() -> options(a -> a.database = " "))
          .withMessage("database must be set");
      assertThatIllegalArgumentException()
          .isThrownBy(() -> options(a -> a.collection = null))
          .withMessage("collection must be set");
    }

    @Test
    void missingValuesNamingTheField() {
      assertThatNullPointerException()
          .isThrownBy(() -> options(a -> a.dir = null))
          .withMessageContaining("out");
      assertThatNullPointerException()
          .isThrownBy(() -> options(a -> a.dedup = null))
          .withMessageContaining("dedup");
      assertThatNullPointerException()
          .isThrownBy(() -> options(a -> a.compress = null))
          .withMessageContaining("compress");
      assertThatNullPointerException()
          .isThrownBy(() -> options(a -> a.runDate = null))
          .withMessageContaining("runDate");
    }
  }

  @Nested
  class Compressions {

    @Test
    void areTheCopiesChosenInTheirCanonicalOrderAtTheOptionsLevels() {
      ExportOptions options = options(a -> a.compress = List.of("zstd", "gzip"));

      assertThat(options.compressions(3))
          .extracting(Compression::name, Compression::level, Compression::threads)
          .containsExactly(tuple("gzip", 6, 3), tuple("zstd", 9, 3));
    }

    @Test
    void areNoneWithCompressNoneWhileTheBaselinesStillMeasureBothAtTheOptionsLevels() {
      ExportOptions options =
          options(
              a -> {
                a.compress = List.of();
                a.gzipLevel = 2;
                a.zstdLevel = 19;
              });

      assertThat(options.compressions(2)).isEmpty();
      assertThat(options.gzip(2)).extracting(Compression::level).isEqualTo(2);
      assertThat(options.zstd(2)).extracting(Compression::level).isEqualTo(19);
    }
  }

  @Nested
  class ParseList {

    @Test
    void noneIsEmpty() {
      assertThat(ExportOptions.parseList("none")).isEmpty();
      assertThat(ExportOptions.parseList(" NONE ")).isEmpty();
    }

    @Test
    void blankOrNullIsEmpty() {
      assertThat(ExportOptions.parseList("")).isEmpty();
      assertThat(ExportOptions.parseList("  ")).isEmpty();
      assertThat(ExportOptions.parseList(null)).isEmpty();
    }

    @Test
    void splitsTrimsAndLowersKeepingTheOrder() {
      assertThat(ExportOptions.parseList(" Zstd , GZIP,,")).containsExactly("zstd", "gzip");
    }
  }
}
