package dev.flatdump.artifact.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.ShardFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionMergeTest {

  @TempDir Path staging;

  @Test
  void movesShardsInPartitionOrderNumberedAsOneSequenceAndJoinsRejects() throws Exception {
    PartitionMerge.Part p0 = part(0, "r0\n", "a", "b");
    PartitionMerge.Part empty = part(1, "", "");
    PartitionMerge.Part p2 = part(2, "r2\nextra after the checkpoint", "c");
    // partition 2's rejects file holds more than its checkpoint: only the checkpointed bytes count
    PartitionMerge.Part p2cut = new PartitionMerge.Part(p2.dir(), p2.shards(), 3);

    List<ShardFile> merged = PartitionMerge.merge(staging, "orgs", List.of(p0, empty, p2cut));

    assertThat(merged)
        .extracting(ShardFile::index, ShardFile::fileName, ShardFile::records)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(0, "orgs-00000.fb", 1L),
            org.assertj.core.groups.Tuple.tuple(1, "orgs-00001.fb", 1L),
            org.assertj.core.groups.Tuple.tuple(2, "orgs-00002.fb", 1L));
    assertThat(Files.readString(staging.resolve("orgs-00000.fb"))).isEqualTo("a");
    assertThat(Files.readString(staging.resolve("orgs-00002.fb"))).isEqualTo("c");
    assertThat(merged.get(2).sha256()).isEqualTo(p2.shards().get(0).sha256());
    assertThat(Files.readString(staging.resolve(RejectsWriter.FILE_NAME))).isEqualTo("r0\nr2\n");
    assertThat(staging.resolve(PartitionMerge.PARTITIONS_DIR)).doesNotExist();

    // a rerun after the partitions' directory went: the same result, nothing moved twice
    assertThat(PartitionMerge.merge(staging, "orgs", List.of(p0, empty, p2cut))).isEqualTo(merged);
  }

  @Test
  void oneShardIsNamedAfterTheSchemaAndNoRecordsLeaveOneEmptyShard() throws Exception {
    List<ShardFile> one =
        PartitionMerge.merge(staging, "orgs", List.of(part(0, "", ""), part(1, "", "x")));
    assertThat(one).extracting(ShardFile::fileName).containsExactly("orgs.fb");
    assertThat(Files.readString(staging.resolve("orgs.fb"))).isEqualTo("x");

    Path other = staging.resolve("other");
    Files.createDirectories(other);
    staging = other;
    List<ShardFile> none =
        PartitionMerge.merge(staging, "orgs", List.of(part(0, "", ""), part(1, "", "")));
    assertThat(none).extracting(ShardFile::records).containsExactly(0L);
    assertThat(staging.resolve("orgs.fb")).exists();
  }

  @Test
  void aShardThatIsNeitherStagedNorMergedFails() throws Exception {
    PartitionMerge.Part p0 = part(0, "", "a");
    Files.delete(p0.dir().resolve("orgs-00000.fb"));
    assertThatThrownBy(() -> PartitionMerge.merge(staging, "orgs", List.of(p0)))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("was never written");
  }

  @Test
  void rejectsShorterThanTheirCheckpointFail() throws Exception {
    PartitionMerge.Part p0 = part(0, "r0\n", "a");
    PartitionMerge.Part longer = new PartitionMerge.Part(p0.dir(), p0.shards(), 10);
    assertThatThrownBy(() -> PartitionMerge.merge(staging, "orgs", List.of(longer)))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("is shorter than the 10 bytes its partition saved");
    assertThat(staging.resolve(RejectsWriter.FILE_NAME)).doesNotExist();
  }

  /** A partition's staging: one shard per content ("" is an empty shard) and its rejects. */
  private PartitionMerge.Part part(int index, String rejects, String... shards) throws Exception {
    Path dir = staging.resolve(PartitionMerge.PARTITIONS_DIR).resolve(String.format("%04d", index));
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(RejectsWriter.FILE_NAME), rejects);
    List<ShardFile> files = new java.util.ArrayList<>();
    for (int i = 0; i < shards.length; i++) {
      String name = String.format("orgs-%05d.fb", i);
      byte[] bytes = shards[i].getBytes(StandardCharsets.UTF_8);
      Files.write(dir.resolve(name), bytes);
      files.add(
          new ShardFile(
              i,
              name,
              shards[i].isEmpty() ? 0 : 1,
              bytes.length,
              Checksums.sha256(java.nio.ByteBuffer.wrap(bytes))));
    }
    return new PartitionMerge.Part(dir, files, rejects.getBytes(StandardCharsets.UTF_8).length);
  }
}
