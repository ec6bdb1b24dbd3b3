package dev.flatdump.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.ShardFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompressTaskletTest {

  @TempDir Path staging;

  @Test
  void listsAShardWithTheChecksumTakenAsItWasWrittenWithoutReadingTheFile() {
    // No file: an entry that needed to read it would fail.
    ShardFile shard = new ShardFile(2, "organizations-00002.fb", 7, 1234, "ab".repeat(32));

    ArtifactFile entry = CompressTasklet.shardFile(staging, shard);

    assertThat(entry)
        .isEqualTo(
            new ArtifactFile(
                "organizations-00002.fb", "flatbuffers", 1234, "ab".repeat(32), 2, 7L));
  }

  @Test
  void hashesTheFileOfAShardRecordedWithoutAChecksum() throws IOException {
    byte[] bytes = "a shard's bytes".getBytes(StandardCharsets.US_ASCII);
    Files.write(staging.resolve("organizations.fb"), bytes);
    // As an earlier build recorded shards in the job state, before they carried a checksum.
    List<ShardFile> recorded =
        JobState.shards(
            "[{\"index\":0,\"fileName\":\"organizations.fb\",\"records\":3,\"bytes\":15}]");

    assertThat(recorded).containsExactly(new ShardFile(0, "organizations.fb", 3, 15, null));
    assertThat(CompressTasklet.shardFile(staging, recorded.get(0)))
        .isEqualTo(
            new ArtifactFile(
                "organizations.fb", "flatbuffers", 15, Checksums.sha256(bytes), 0, 3L));
  }

  @Test
  void aShardWithoutAChecksumWhoseFileIsGoneNamesIt() {
    ShardFile shard = new ShardFile(0, "organizations.fb", 3, 15, null);

    assertThatThrownBy(() -> CompressTasklet.shardFile(staging, shard))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("organizations.fb");
  }

  @Test
  void theJobStateKeepsAShardsChecksum() {
    List<ShardFile> shards =
        List.of(
            new ShardFile(0, "organizations-00000.fb", 5, 100, "0f".repeat(32)),
            new ShardFile(1, "organizations-00001.fb", 2, 40, "e1".repeat(32)));

    assertThat(JobState.shards(JobState.shards(shards))).isEqualTo(shards);
  }
}
