package dev.flatdump.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdInputStream;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.ShardFile;
import dev.flatdump.encode.DedupOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.scope.context.StepContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.test.MetaDataInstanceFactory;

/** {@code compressStep} run on a staging directory of real shards, with no MongoDB behind it. */
class CompressTaskletTest {

  @TempDir Path out;
  Path staging;
  MongoClient unused;

  @BeforeEach
  void client() {
    unused = MongoClients.create("mongodb://127.0.0.1:1"); // never connects: the step reads none
  }

  @AfterEach
  void close() {
    unused.close();
  }

  private ExportOptions options(List<String> compress) {
    return new ExportOptions(
        "127.0.0.1:1",
        "shop",
        "organizations",
        out,
        "{}",
        compress,
        6,
        3,
        DedupOptions.ALL,
        List.of(),
        1 << 20,
        RejectLimit.NONE,
        1000,
        LocalDate.of(2026, 5, 1),
        0,
        ExportOptions.DEFAULT_KEEP,
        false,
        null,
        false,
        1);
  }

  /**
   * Stages {@code n} shards of random bytes and an empty rejects file, as exportStep leaves them.
   */
  private List<ShardFile> stageShards(int n) throws IOException {
    staging = Files.createDirectories(out.resolve(".flatdump").resolve("staging"));
    Random random = new Random(7);
    List<ShardFile> shards = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] bytes = new byte[50_000 + 1000 * i];
      for (int b = 0; b < bytes.length; b++) {
        bytes[b] = (byte) ('a' + random.nextInt(4)); // compressible, as FlatBuffers are
      }
      String name = String.format("organizations-%05d.fb", i);
      Files.write(staging.resolve(name), bytes);
      shards.add(new ShardFile(i, name, 10 + i, bytes.length, Checksums.sha256(bytes)));
    }
    Files.write(staging.resolve("rejects.jsonl"), new byte[0]);
    SchemaFiles.bundled().stage(staging); // as exportStep stages it
    return shards;
  }

  /** Runs the step as Spring Batch would; returns the files it listed in the job's context. */
  private List<ArtifactFile> run(List<String> compress, List<ShardFile> shards) {
    StepExecution step =
        MetaDataInstanceFactory.createStepExecution(options(compress).toJobParameters());
    var jobCtx = step.getJobExecution().getExecutionContext();
    jobCtx.putString(JobState.SHARDS, JobState.shards(shards));
    jobCtx.putLong(JobState.REJECTED, 0);
    var runtime = new JobRuntime(unused, "jdbc:h2:mem:x", line -> {}, Duration.ZERO, 2);
    new CompressTasklet(runtime)
        .execute(new StepContribution(step), new ChunkContext(new StepContext(step)));
    return JobState.files(jobCtx.getString(JobState.FILES));
  }

  private static byte[] decompress(Path file) throws IOException {
    try (InputStream raw = Files.newInputStream(file);
        InputStream in =
            file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : new ZstdInputStream(raw)) {
      return in.readAllBytes();
    }
  }

  private Map<String, String> checksums() throws IOException {
    Map<String, String> sums = new TreeMap<>();
    try (Stream<Path> files = Files.list(staging)) {
      for (Path p : files.toList()) {
        sums.put(p.getFileName().toString(), Checksums.sha256(p));
      }
    }
    return sums;
  }

  @Test
  void writesCopiesThatDecompressToEachShardAndListsThemWithTheirChecksums() throws IOException {
    List<ShardFile> shards = stageShards(2);

    List<ArtifactFile> files = run(List.of("gzip", "zstd"), shards);

    assertThat(files)
        .extracting(ArtifactFile::name)
        .containsExactly(
            "organizations-00000.fb",
            "organizations-00001.fb",
            "organizations-00000.fb.gz",
            "organizations-00001.fb.gz",
            "organizations-00000.fb.zst",
            "organizations-00001.fb.zst",
            "rejects.jsonl");
    for (ArtifactFile f : files) {
      Path p = staging.resolve(f.name());
      assertThat(f.bytes()).as(f.name()).isEqualTo(Files.size(p));
      assertThat(f.sha256()).as(f.name()).isEqualTo(Checksums.sha256(p));
      if (f.format().equals("gzip") || f.format().equals("zstd")) {
        ShardFile shard = shards.get(f.shard());
        assertThat(Checksums.sha256(decompress(p)))
            .as("%s decompresses to %s", f.name(), shard.fileName())
            .isEqualTo(shard.sha256());
        assertThat(f.bytes())
            .as("%s is smaller than its shard", f.name())
            .isLessThan(shard.bytes());
        assertThat(f.records()).isEqualTo(shard.records());
      }
    }
  }

  @Test
  void writesNoCopyWithCompressNone() throws IOException {
    List<ArtifactFile> files = run(List.of(), stageShards(2));

    assertThat(files)
        .extracting(ArtifactFile::format)
        .containsExactly("flatbuffers", "flatbuffers", "jsonl");
    try (Stream<Path> staged = Files.list(staging)) {
      assertThat(staged.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.endsWith(".gz") || n.endsWith(".zst"));
    }
  }

  @Test
  void aRerunAfterACrashMidCopyWritesTheSameBytesAndLeavesNoTemporary() throws IOException {
    List<ShardFile> shards = stageShards(2);
    run(List.of("gzip", "zstd"), shards);
    Map<String, String> first = checksums();
    // as a crash while writing the second shard's gzip copy leaves it
    Files.delete(staging.resolve("organizations-00001.fb.gz"));
    Files.delete(staging.resolve("organizations-00000.fb.zst"));
    Files.write(staging.resolve(".organizations-00001.fb.gz.tmp"), new byte[] {31, -117, 8});

    run(List.of("gzip", "zstd"), shards);

    assertThat(checksums()).isEqualTo(first);
  }

  @Test
  void listsAShardWithTheChecksumTakenAsItWasWrittenWithoutReadingTheFile() throws IOException {
    staging = Files.createDirectories(out.resolve("staging"));
    // No file: an entry that needed to read it would fail.
    ShardFile shard = new ShardFile(2, "organizations-00002.fb", 7, 1234, "ab".repeat(32));

    assertThat(CompressTasklet.shardFile(shard).sha256()).isEqualTo("ab".repeat(32));
  }
}
