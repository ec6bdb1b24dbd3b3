package dev.flatdump.bench.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.load.ExtendedJsonLoader;
import dev.flatdump.load.LoadSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonObjectId;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SampleWriterTest {

  @TempDir Path dir;

  private final OrgCodec codec = new OrgCodec();

  @Test
  void writesGeneratedOrganizationsWithTheirIdsInBatches() {
    List<List<RawBsonDocument>> batches = new ArrayList<>();
    List<Long> progress = new ArrayList<>();

    long written =
        new SampleWriter(4, batches::add)
            .write(new OrgGenerator(Profile.REALISTIC, 9), 10, progress::add);

    assertThat(written).isEqualTo(10);
    assertThat(batches).extracting(List::size).containsExactly(4, 4, 2);
    assertThat(progress).containsExactly(4L, 8L, 10L);
    List<RawBsonDocument> documents = batches.stream().flatMap(List::stream).toList();
    List<Org> expected = new OrgGenerator(Profile.REALISTIC, 9).stream().limit(10).toList();
    for (int i = 0; i < 10; i++) {
      RawBsonDocument document = documents.get(i);
      assertThat(document.getFirstKey()).isEqualTo("_id");
      assertThat(document.get("_id")).isEqualTo(new BsonObjectId(OrgGenerator.objectId(9, i)));
      assertThat(codec.decode(document)).isEqualTo(expected.get(i));
    }
  }

  @Test
  void writesNothingForZeroOrganizations() {
    List<List<RawBsonDocument>> batches = new ArrayList<>();

    new SampleWriter(4, batches::add).write(new OrgGenerator(Profile.ARTICLE, 1), 0, n -> {});

    assertThat(batches).isEmpty();
    assertThatThrownBy(() -> new SampleWriter(0, batches::add))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void writesAnExtendedJsonFileTheLoaderReadsBack() throws IOException {
    Path file = dir.resolve("orgs.jsonl.gz");
    List<RawBsonDocument> written = new ArrayList<>();
    try (var out = new ExtendedJsonFileWriter(file)) {
      new SampleWriter(
              7,
              batch -> {
                written.addAll(batch);
                out.writeAll(batch);
              })
          .write(new OrgGenerator(Profile.ARTICLE, 3), 20, n -> {});
      assertThat(file).doesNotExist();
      out.finish();
    }

    List<RawBsonDocument> loaded = new ArrayList<>();
    LoadSummary summary = new ExtendedJsonLoader(100, loaded::addAll, e -> {}).load(file);

    assertThat(summary.loaded()).isEqualTo(20);
    assertThat(loaded).isEqualTo(written);
    assertThat(loaded)
        .extracting(codec::decode)
        .isEqualTo(new OrgGenerator(Profile.ARTICLE, 3).stream().limit(20).toList());
    assertThat(Files.list(dir)).containsExactly(file);
  }

  @Test
  void writesTheSameBytesEveryTime() throws IOException {
    byte[] first = writeFile(dir.resolve("a.jsonl.gz"));
    byte[] second = writeFile(dir.resolve("b.jsonl.gz"));

    assertThat(second).isEqualTo(first);
  }

  private byte[] writeFile(Path file) throws IOException {
    try (var out = new ExtendedJsonFileWriter(file)) {
      new SampleWriter(5, out::writeAll)
          .write(new OrgGenerator(Profile.REALISTIC, 42), 12, n -> {});
      out.finish();
    }
    return Files.readAllBytes(file);
  }

  @Test
  void leavesNoFileWhenNotFinished() throws IOException {
    Path file = dir.resolve("partial.jsonl");
    try (var out = new ExtendedJsonFileWriter(file)) {
      out.write(RawBsonDocument.parse("{\"_id\": 1}"));
    }

    assertThat(Files.list(dir)).isEmpty();
  }
}
