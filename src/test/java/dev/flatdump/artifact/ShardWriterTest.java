package dev.flatdump.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.flatdump.Attr;
import dev.flatdump.Org;
import dev.flatdump.OrgType;
import dev.flatdump.encode.DedupOptions;
import dev.flatdump.encode.DedupStats;
import dev.flatdump.encode.FlatBufferOrgs;
import dev.flatdump.encode.FlatBufferOrgsBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShardWriterTest {

  private static final int TINY = 1024;
  private static final int ONE_MIB = 1 << 20;

  @TempDir Path dir;

  /** Orgs whose names and attributes partly repeat, so that de-dup has work to do. */
  static List<Org> orgs(int count) {
    var orgs = new ArrayList<Org>(count);
    OrgType[] types = OrgType.values();
    for (int i = 0; i < count; i++) {
      var attrs = new ArrayList<Attr>();
      for (int a = 0; a < i % 4; a++) {
        attrs.add(
            new Attr(
                "attr-" + a,
                (byte) (i % 3),
                (byte) -a,
                (short) (a * 1000),
                a == 3 ? -0.0 : a * 0.5,
                a % 2 == 0));
      }
      orgs.add(
          new Org(
              "Org number " + i,
              "category " + (i % 5),
              i % 2 == 0 ? "ES" : "FR",
              types[i % 3],
              attrs));
    }
    return orgs;
  }

  static ShardWriter fresh(Path dir, long shardSize) {
    return new ShardWriter(dir, DedupOptions.ALL, shardSize, 4096, 0, List.of(), null);
  }

  static ByteBuffer read(Path file) throws IOException {
    return ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
  }

  static List<Org> readBack(Path dir, List<ShardFile> shards) throws IOException {
    var orgs = new ArrayList<Org>();
    for (ShardFile shard : shards) {
      FlatBufferOrgs.iterator(read(dir.resolve(shard.fileName()))).forEachRemaining(orgs::add);
    }
    return orgs;
  }

  /** Every file in the directory by name, with the SHA-256 of its bytes. */
  static Map<String, String> files(Path dir) throws IOException {
    var files = new LinkedHashMap<String, String>();
    try (Stream<Path> list = Files.list(dir).sorted()) {
      for (Path p : list.toList()) {
        files.put(p.getFileName().toString(), Checksums.sha256(Files.readAllBytes(p)));
      }
    }
    return files;
  }

  /** Writes everything in one go and returns the completed shards. */
  static List<ShardFile> writeAll(ShardWriter writer, List<Org> orgs) {
    orgs.forEach(writer::add);
    writer.finish();
    return writer.shards();
  }

  @Test
  void namesShardsWithAFiveDigitIndex() {
    assertThat(ShardWriter.shardName(0)).isEqualTo("organizations-00000.fb");
    assertThat(ShardWriter.shardName(42)).isEqualTo("organizations-00042.fb");
  }

  @Nested
  class OneShard {

    @Test
    void writesOneShardWhenTheRecordsFitUnderTheSize() throws IOException {
      List<Org> orgs = orgs(50);
      ShardWriter writer = fresh(dir, ONE_MIB);

      for (Org org : orgs) {
        assertThat(writer.add(org)).isFalse();
      }
      assertThat(writer.shards()).isEmpty();
      writer.finish();

      Path file = dir.resolve("organizations-00000.fb");
      assertThat(writer.shards())
          .containsExactly(
              new ShardFile(
                  0, "organizations-00000.fb", 50, Files.size(file), Checksums.sha256(file)));
      assertThat(readBack(dir, writer.shards())).containsExactlyElementsOf(orgs);
      assertThat(files(dir)).containsOnlyKeys("organizations-00000.fb");
    }

    @Test
    void finishWithoutRecordsWritesOneEmptyShard() throws IOException {
      ShardWriter writer = fresh(dir, ONE_MIB);

      writer.finish();

      Path file = dir.resolve("organizations-00000.fb");
      assertThat(writer.shards())
          .containsExactly(
              new ShardFile(
                  0, "organizations-00000.fb", 0, Files.size(file), Checksums.sha256(file)));
      assertThat(FlatBufferOrgs.hasIdentifier(read(file))).isTrue();
      assertThat(FlatBufferOrgs.count(read(file))).isZero();
    }

    @Test
    void finishTwiceWritesNothingMore() throws IOException {
      ShardWriter writer = fresh(dir, ONE_MIB);
      orgs(3).forEach(writer::add);
      writer.finish();
      Map<String, String> before = files(dir);

      writer.finish();

      assertThat(writer.shards()).hasSize(1);
      assertThat(files(dir)).containsOnlyKeys(before.keySet());
    }
  }

  @Nested
  class SeveralShards {

    @Test
    void splitsIntoNumberedShardsOnceEachReachesTheSize() throws IOException {
      List<Org> orgs = orgs(300);
      ShardWriter writer = fresh(dir, TINY);
      int completedByAdd = 0;
      for (Org org : orgs) {
        if (writer.add(org)) {
          completedByAdd++;
        }
      }
      writer.finish();
      List<ShardFile> shards = writer.shards();

      assertThat(shards).hasSizeGreaterThan(3);
      assertThat(completedByAdd).isBetween(shards.size() - 1, shards.size());
      for (int i = 0; i < shards.size(); i++) {
        ShardFile shard = shards.get(i);
        Path file = dir.resolve(shard.fileName());
        assertThat(shard.index()).isEqualTo(i);
        assertThat(shard.fileName()).isEqualTo(String.format("organizations-%05d.fb", i));
        assertThat(shard.bytes()).isEqualTo(Files.size(file));
        assertThat(shard.sha256()).isEqualTo(Checksums.sha256(file));
        assertThat(shard.records()).isPositive().isEqualTo(FlatBufferOrgs.count(read(file)));
        if (i < shards.size() - 1) {
          // The cut counts what finishing adds in advance, up to 48 bytes more than it adds
          // (FlatBufferOrgsBuilder.finishedSizeBound).
          assertThat(shard.bytes()).as("full shard %d", i).isGreaterThanOrEqualTo(TINY - 48);
        }
      }
      assertThat(shards.stream().mapToLong(ShardFile::records).sum()).isEqualTo(orgs.size());
      assertThat(files(dir)).hasSize(shards.size());
    }

    @Test
    void shardsReadBackAsTheInputInOrder() throws IOException {
      List<Org> orgs = orgs(300);

      List<ShardFile> shards = writeAll(fresh(dir, TINY), orgs);

      assertThat(shards).hasSizeGreaterThan(3);
      assertThat(readBack(dir, shards)).containsExactlyElementsOf(orgs);
    }

    @Test
    void aRecordThatCompletesTheLastShardLeavesNoEmptyShardBehind() throws IOException {
      ShardWriter writer = fresh(dir, TINY);
      List<Org> orgs = orgs(300);
      int n = 0;
      while (!writer.add(orgs.get(n++))) {
        // until the first shard completes
      }

      writer.finish();

      assertThat(writer.shards()).hasSize(1);
      assertThat(writer.shards().get(0).records()).isEqualTo(n);
    }

    @Test
    void statsAreTheSumOverTheShards() throws IOException {
      List<Org> orgs = orgs(300);
      ShardWriter writer = fresh(dir, TINY);
      List<ShardFile> shards = writeAll(writer, orgs);

      // each shard de-dups on its own: build every shard's records again, separately
      DedupStats expected = DedupStats.EMPTY;
      int from = 0;
      for (ShardFile shard : shards) {
        var builder = new FlatBufferOrgsBuilder(DedupOptions.ALL, 4096);
        orgs.subList(from, from + (int) shard.records()).forEach(builder::add);
        from += (int) shard.records();
        expected = expected.plus(builder.stats());
      }

      assertThat(writer.stats()).isEqualTo(expected);
      assertThat(writer.stats().vectors().total()).isEqualTo(orgs.size());
      assertThat(writer.stats().strings().shared()).isPositive();
    }

    @Test
    void theInitialCapacityDoesNotChangeTheBytes() throws IOException {
      List<Org> orgs = orgs(300);
      Path small = Files.createDirectory(dir.resolve("small"));
      Path large = Files.createDirectory(dir.resolve("large"));

      writeAll(new ShardWriter(small, DedupOptions.ALL, TINY, 1, 0, List.of(), null), orgs);
      writeAll(new ShardWriter(large, DedupOptions.ALL, TINY, ONE_MIB, 0, List.of(), null), orgs);

      assertThat(files(small)).isEqualTo(files(large));
    }

    @Test
    void aForecastOfTheOrgsDoesNotChangeTheBytesRightOrWrong() throws IOException {
      // Shards of a few thousand orgs each, so that the forecast applies (after 1,000 orgs).
      List<Org> orgs = orgs(8_000);
      Path none = Files.createDirectory(dir.resolve("none"));
      Path right = Files.createDirectory(dir.resolve("right"));
      Path under = Files.createDirectory(dir.resolve("under"));
      Path over = Files.createDirectory(dir.resolve("over"));

      List<ShardFile> shards = writeAll(forecasting(none, 0), orgs);
      writeAll(forecasting(right, orgs.size()), orgs);
      writeAll(forecasting(under, 10), orgs);
      writeAll(forecasting(over, 1_000_000_000_000L), orgs);

      assertThat(shards).hasSizeGreaterThan(2).allMatch(s -> s.records() > 1_000);
      assertThat(files(right)).isEqualTo(files(none));
      assertThat(files(under)).isEqualTo(files(none));
      assertThat(files(over)).isEqualTo(files(none));
    }

    @Test
    void aNegativeForecastIsRefused() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> forecasting(dir, -1))
          .withMessage("expectedOrgs must be >= 0, got -1");
    }

    private ShardWriter forecasting(Path shardDir, long expectedOrgs) {
      return new ShardWriter(
          shardDir, DedupOptions.ALL, 128 << 10, 1024, expectedOrgs, List.of(), null);
    }
  }

  @Nested
  class Restart {

    @Test
    void reAddingTheRecordsAfterTheLastCompletedShardGivesTheSameBytes() throws IOException {
      List<Org> orgs = orgs(400);
      Path oneGo = Files.createDirectory(dir.resolve("one-go"));
      Path restarted = Files.createDirectory(dir.resolve("restarted"));
      ShardWriter uninterrupted = fresh(oneGo, TINY);
      List<ShardFile> expectedShards = writeAll(uninterrupted, orgs);
      assertThat(expectedShards).hasSizeGreaterThan(4);

      // The first run completes 3 shards, adds some records to a 4th, then dies.
      ShardWriter first = fresh(restarted, TINY);
      Iterator<Org> input = orgs.iterator();
      while (first.shards().size() < 3) {
        first.add(input.next());
      }
      for (int i = 0; i < 5; i++) {
        first.add(input.next());
      }
      assertThat(first.shards()).hasSize(3);
      List<ShardFile> completed = first.shards();
      DedupStats statsSoFar = first.stats();
      long done = completed.stream().mapToLong(ShardFile::records).sum();

      ShardWriter second =
          new ShardWriter(restarted, DedupOptions.ALL, TINY, 4096, 0, completed, statsSoFar);
      orgs.subList((int) done, orgs.size()).forEach(second::add);
      second.finish();

      assertThat(second.shards()).isEqualTo(expectedShards);
      assertThat(second.stats()).isEqualTo(uninterrupted.stats());
      assertThat(files(restarted)).isEqualTo(files(oneGo));
    }

    @Test
    void aRestartAfterTheLastShardWritesNoExtraShard() throws IOException {
      List<Org> orgs = orgs(100);
      ShardWriter first = fresh(dir, ONE_MIB);
      List<ShardFile> completed = writeAll(first, orgs);
      Map<String, String> before = files(dir);

      ShardWriter second =
          new ShardWriter(dir, DedupOptions.ALL, ONE_MIB, 4096, 0, completed, first.stats());
      second.finish();

      assertThat(second.shards()).isEqualTo(completed);
      assertThat(files(dir)).isEqualTo(before);
    }

    @Test
    void withoutStatsSoFarStartsFromZero() {
      ShardWriter writer = fresh(dir, ONE_MIB);

      assertThat(writer.stats()).isEqualTo(DedupStats.EMPTY);
    }
  }

  @Nested
  class ShardSize {

    @Test
    void acceptsTheBounds() {
      assertThat(fresh(dir, 1024)).isNotNull();
      assertThat(fresh(dir, ShardWriter.MAX_SHARD_SIZE)).isNotNull();
    }

    @Test
    void rejectsASizeBelowOneKibNamingIt() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> fresh(dir, 1023))
          .withMessageContaining("shard size")
          .withMessageContaining("got 1023");
    }

    @Test
    void rejectsASizeAboveOneGibNamingIt() {
      long size = ShardWriter.MAX_SHARD_SIZE + 1;

      assertThatIllegalArgumentException()
          .isThrownBy(() -> fresh(dir, size))
          .withMessageContaining("shard size")
          .withMessageContaining("got " + size);
    }
  }
}
