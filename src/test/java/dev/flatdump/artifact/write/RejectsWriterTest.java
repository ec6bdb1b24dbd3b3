package dev.flatdump.artifact.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.encode.Reject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RejectsWriterTest {

  @TempDir Path dir;

  private static Reject reject(int id) {
    return new Reject(new BsonInt32(id), "attributes[" + id + "].quantity", "out of range: " + id);
  }

  private Path file() {
    return dir.resolve("rejects.jsonl");
  }

  private List<String> lines() throws IOException {
    return Files.readAllLines(file(), StandardCharsets.UTF_8);
  }

  @Nested
  class Lines {

    @Test
    void writesOneJsonObjectPerLineWithIdFieldAndReason() throws IOException {
      var oid = new ObjectId("65920080a1b2c3d4e5f60718");
      try (var writer = new RejectsWriter(dir, 0, 0)) {
        writer.write(new Reject(new BsonObjectId(oid), "name", "missing"));
        writer.write(new Reject(new BsonInt32(7), "attributes[3].quantity", "300 is not a byte"));
      }

      List<String> lines = lines();
      assertThat(lines).hasSize(2);
      assertThat(BsonDocument.parse(lines.get(0)))
          .isEqualTo(
              new BsonDocument("_id", new BsonObjectId(oid))
                  .append("field", new BsonString("name"))
                  .append("reason", new BsonString("missing")));
      assertThat(BsonDocument.parse(lines.get(1)))
          .isEqualTo(
              new BsonDocument("_id", new BsonInt32(7))
                  .append("field", new BsonString("attributes[3].quantity"))
                  .append("reason", new BsonString("300 is not a byte")));
    }

    @Test
    void aRejectWithoutIdHasANullId() throws IOException {
      try (var writer = new RejectsWriter(dir, 0, 0)) {
        writer.write(new Reject(null, "_id", "missing"));
      }

      assertThat(BsonDocument.parse(lines().get(0)).get("_id")).isEqualTo(BsonNull.VALUE);
    }

    @Test
    void aReasonWithNewlinesAndQuotesStaysOnOneLine() throws IOException {
      String reason = "bad \"value\"\nsecond line\r\tand ünïcode";
      try (var writer = new RejectsWriter(dir, 0, 0)) {
        writer.write(new Reject(new BsonInt32(1), "name", reason));
      }

      assertThat(lines()).hasSize(1);
      assertThat(BsonDocument.parse(lines().get(0)).getString("reason").getValue())
          .isEqualTo(reason);
    }

    @Test
    void countsTheRejectsWritten() {
      try (var writer = new RejectsWriter(dir, 0, 0)) {
        assertThat(writer.count()).isZero();
        writer.write(reject(1));
        writer.write(reject(2));

        assertThat(writer.count()).isEqualTo(2);
      }
    }

    @Test
    void aFreshRunEmptiesAFileLeftByAnEarlierRun() throws IOException {
      Files.writeString(file(), "{\"_id\": 99, \"field\": \"x\", \"reason\": \"old\"}\n");

      try (var writer = new RejectsWriter(dir, 0, 0)) {
        writer.write(reject(1));
      }

      assertThat(lines()).containsExactly(reject(1).toJsonLine());
    }

    @Test
    void createsAnEmptyFileWhenNothingIsRejected() throws IOException {
      new RejectsWriter(dir, 0, 0).close();

      assertThat(file()).isEmptyFile();
    }
  }

  @Nested
  class Checkpoint {

    @Test
    void returnsTheFileLength() throws IOException {
      try (var writer = new RejectsWriter(dir, 0, 0)) {
        assertThat(writer.checkpoint()).isZero();
        writer.write(reject(1));
        writer.write(reject(2));

        long length = writer.checkpoint();

        assertThat(length)
            .isEqualTo(Files.size(file()))
            .isEqualTo(
                (reject(1).toJsonLine() + "\n" + reject(2).toJsonLine() + "\n")
                    .getBytes(StandardCharsets.UTF_8)
                    .length);
      }
    }

    @Test
    void resumingTruncatesTheLinesWrittenAfterTheCheckpoint() throws IOException {
      long checkpoint;
      try (var writer = new RejectsWriter(dir, 0, 0)) {
        writer.write(reject(1));
        writer.write(reject(2));
        checkpoint = writer.checkpoint();
        writer.write(reject(3)); // written, but the chunk never committed
      }

      try (var writer = new RejectsWriter(dir, checkpoint, 2)) {
        assertThat(file()).hasSize(checkpoint);
        assertThat(writer.count()).isEqualTo(2);
        writer.write(reject(4));

        assertThat(writer.count()).isEqualTo(3);
        assertThat(writer.checkpoint()).isEqualTo(Files.size(file()));
      }

      assertThat(lines())
          .containsExactly(reject(1).toJsonLine(), reject(2).toJsonLine(), reject(4).toJsonLine());
    }

    @Test
    void resumingAtTheEndKeepsEveryLine() throws IOException {
      long checkpoint;
      try (var writer = new RejectsWriter(dir, 0, 0)) {
        writer.write(reject(1));
        checkpoint = writer.checkpoint();
      }

      try (var writer = new RejectsWriter(dir, checkpoint, 1)) {
        writer.write(reject(2));
      }

      assertThat(lines()).containsExactly(reject(1).toJsonLine(), reject(2).toJsonLine());
    }

    @Test
    void aFileShorterThanTheCheckpointIsAnErrorNamingItAndLeftUnchanged() throws IOException {
      Files.writeString(file(), "{}\n"); // 3 bytes

      assertThatThrownBy(() -> new RejectsWriter(dir, 100, 5))
          .isInstanceOf(ArtifactException.class)
          .hasMessageContaining(file().toString());
      assertThat(Files.readString(file())).isEqualTo("{}\n");
    }

    @Test
    void aFileShorterThanTheCheckpointIsAnErrorNamingBothLengths() throws IOException {
      Files.writeString(file(), "{}\n"); // 3 bytes

      assertThatThrownBy(() -> new RejectsWriter(dir, 100, 5))
          .isInstanceOf(ArtifactException.class)
          .hasMessageContaining(file().toString())
          .hasMessageContaining("3 bytes")
          .hasMessageContaining("100 bytes");
    }

    @Test
    void aMissingFileWithACheckpointIsAnError() {
      assertThatThrownBy(() -> new RejectsWriter(dir, 10, 1))
          .isInstanceOf(ArtifactException.class)
          .hasMessageContaining(file().toString());
    }
  }
}
