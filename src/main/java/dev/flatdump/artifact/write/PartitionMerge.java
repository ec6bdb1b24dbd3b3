package dev.flatdump.artifact.write;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.AtomicFiles;
import dev.flatdump.artifact.ShardFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Combines the partitions of a partitioned export into one export in the staging directory: every
 * partition's shards, in partition order ({@code _id} order), numbered again as one sequence, and
 * their rejects in one {@code rejects.jsonl}. A shard is moved, not rewritten, so its bytes and
 * checksum stay those its partition took.
 *
 * <p>Partitions whose range held no record leave an empty shard, which is dropped, unless no
 * partition exported anything: the export then has one empty shard, as an unpartitioned one has.
 * One shard in all is named {@code BASE.fb}, several {@code BASE-00000.fb}, ..., as in an export of
 * one partition.
 *
 * <p>Repeatable: the rejects are written first, then the shards moved, then the partitions'
 * directory deleted; a rerun after a crash anywhere in it ends the same way.
 */
public final class PartitionMerge {

  /** The directory, inside the staging directory, that holds each partition's own. */
  public static final String PARTITIONS_DIR = "partitions";

  /**
   * What one partition staged.
   *
   * @param dir its staging directory
   * @param shards its shards, in order, by their names in {@code dir}
   * @param rejectsLength how many bytes of its {@code rejects.jsonl} hold its rejects
   */
  public record Part(Path dir, List<ShardFile> shards, long rejectsLength) {
    public Part {
      Objects.requireNonNull(dir, "dir");
      shards = List.copyOf(shards);
      if (shards.isEmpty()) {
        throw new IllegalArgumentException(
            "a finished partition has a shard, " + dir + " has none");
      }
    }
  }

  private PartitionMerge() {}

  /**
   * Moves the partitions' shards into {@code staging} and joins their rejects there.
   *
   * @param parts every partition, in order
   * @return the export's shards, in order, under their names in {@code staging}
   */
  public static List<ShardFile> merge(Path staging, String baseName, List<Part> parts) {
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("no partitions to merge");
    }
    List<ShardFile> kept = new ArrayList<>();
    List<Path> from = new ArrayList<>();
    for (Part p : parts) {
      for (ShardFile s : p.shards()) {
        if (s.records() > 0) {
          kept.add(s);
          from.add(p.dir().resolve(s.fileName()));
        }
      }
    }
    if (kept.isEmpty()) {
      Part first = parts.get(0);
      kept.add(first.shards().get(0));
      from.add(first.dir().resolve(first.shards().get(0).fileName()));
    }
    Path partitions = staging.resolve(PARTITIONS_DIR);
    boolean moving = Files.isDirectory(partitions);
    if (moving) {
      RejectsWriter.join(
          staging,
          parts.stream().map(p -> new RejectsWriter.Written(p.dir(), p.rejectsLength())).toList());
    }
    List<ShardFile> merged = new ArrayList<>(kept.size());
    for (int i = 0; i < kept.size(); i++) {
      ShardFile s = kept.get(i);
      String name = ShardFile.fileName(baseName, i, kept.size());
      Path target = staging.resolve(name);
      if (Files.exists(from.get(i))) {
        AtomicFiles.move(from.get(i), target);
      } else if (!Files.exists(target)) {
        throw new ArtifactException(
            "cannot merge the partitions: "
                + from.get(i)
                + " is gone and "
                + target
                + " was never written; start a fresh export with --new-run");
      }
      merged.add(new ShardFile(i, name, s.records(), s.bytes(), s.sha256()));
    }
    if (moving) {
      AtomicFiles.deleteTree(partitions);
    }
    return merged;
  }
}
