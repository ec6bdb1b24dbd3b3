package dev.flatdump.artifact.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.write.RejectsWriter;
import dev.flatdump.encode.Reject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RejectsReaderTest {

  @TempDir Path dir;

  @Test
  void readsTheLinesInOrderThenNull() throws Exception {
    Path file = dir.resolve(RejectsWriter.FILE_NAME);
    Files.write(file, List.of("{\"_id\": 1}", "{\"_id\": 2}"));

    try (RejectsReader reader = new RejectsReader(file)) {
      assertThat(reader.nextLine()).isEqualTo("{\"_id\": 1}");
      assertThat(reader.nextLine()).isEqualTo("{\"_id\": 2}");
      assertThat(reader.nextLine()).isNull();
    }
  }

  @Test
  void matchesAnInt64IdThatReadsBackAsAnInt32() {
    String line = new Reject(new BsonInt64(7), "n", "70000 out of range for short").toJsonLine();

    assertThat(RejectsReader.idOf(line)).isEqualTo(new BsonInt32(7));
    assertThat(RejectsReader.sameId(RejectsReader.idOf(line), new BsonInt64(7))).isTrue();
    assertThat(RejectsReader.sameId(RejectsReader.idOf(line), new BsonInt64(8))).isFalse();
  }

  @Test
  void matchesAnObjectId() {
    BsonObjectId id = new BsonObjectId(new ObjectId("65920080a1b2c3d4e5f60718"));
    String line = new Reject(id, "s", "expected a string").toJsonLine();

    assertThat(RejectsReader.sameId(RejectsReader.idOf(line), id)).isTrue();
  }

  @Test
  void aNullIdMatchesOnlyADocumentWithoutOne() {
    String line = new Reject(null, "_id", "missing").toJsonLine();

    assertThat(RejectsReader.idOf(line)).isNull();
    assertThat(RejectsReader.sameId(RejectsReader.idOf(line), null)).isTrue();
    assertThat(RejectsReader.sameId(RejectsReader.idOf(line), BsonNull.VALUE)).isTrue();
    assertThat(RejectsReader.sameId(RejectsReader.idOf(line), new BsonInt32(0))).isFalse();
    assertThat(RejectsReader.sameId(new BsonInt32(0), null)).isFalse();
  }

  @Test
  void aLineThatIsNotJsonIsNamed() {
    assertThatThrownBy(() -> RejectsReader.idOf("not json"))
        .isInstanceOf(ArtifactException.class)
        .hasMessage("rejects.jsonl has a line that is not JSON: not json");
  }

  @Test
  void aFileThatCannotBeReadIsNamed() {
    Path missing = dir.resolve("missing.jsonl");

    assertThatThrownBy(() -> new RejectsReader(missing))
        .isInstanceOf(ArtifactException.class)
        .hasMessageStartingWith("cannot read " + missing + ": ");
  }
}
