package dev.flatdump.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.FlatdumpException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.bson.BsonDocument;
import org.bson.BsonType;
import org.bson.RawBsonDocument;
import org.bson.json.JsonParseException;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExtendedJsonLoaderTest {

  @TempDir Path dir;

  private final List<List<RawBsonDocument>> batches = new ArrayList<>();
  private final List<LineError> errors = new ArrayList<>();

  private LoadSummary load(Path file, int batchSize) {
    return new ExtendedJsonLoader(batchSize, batches::add, errors::add).load(file);
  }

  private List<RawBsonDocument> loaded() {
    return batches.stream().flatMap(List::stream).toList();
  }

  private Path write(String name, String content) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, content, StandardCharsets.UTF_8);
    return file;
  }

  @Nested
  class Parsing {

    @Test
    void keepsTypesOrderAndDuplicateNames() {
      RawBsonDocument document =
          ExtendedJsonLoader.parse(
              "{\"_id\": {\"$oid\": \"659200800000000000000001\"}, \"q\": {\"$numberLong\": \"5\"},"
                  + " \"p\": {\"$numberDouble\": \"NaN\"}, \"d\": {\"$numberDecimal\": \"0.1\"},"
                  + " \"q\": 1.0, \"i\": 7}");

      assertThat(document.keySet()).containsExactly("_id", "q", "p", "d", "i");
      assertThat(document.size()).isEqualTo(6); // both q fields are kept
      assertThat(document.get("_id").getBsonType()).isEqualTo(BsonType.OBJECT_ID);
      assertThat(document.get("q").getBsonType()).isEqualTo(BsonType.INT64);
      assertThat(document.get("p").asDouble().getValue()).isNaN();
      assertThat(document.get("d").getBsonType()).isEqualTo(BsonType.DECIMAL128);
      assertThat(document.get("i").getBsonType()).isEqualTo(BsonType.INT32);
    }

    @Test
    void acceptsShellForms() {
      assertThat(
              ExtendedJsonLoader.parse(
                  "{_id: ObjectId(\"659200800000000000000001\"), 'a': NumberLong(3)}"))
          .isEqualTo(
              BsonDocument.parse(
                  "{\"_id\": {\"$oid\": \"659200800000000000000001\"}, \"a\": {\"$numberLong\":"
                      + " \"3\"}}"));
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "{\"a\": ",
          "{\"a\": 1",
          "{\"a\": 1}}",
          "{\"a\": 1} trailing",
          "{\"a\": 1} {\"b\": 2}",
          "not json",
          "[1, 2]",
          "42",
          "\"text\"",
          "{\"a\": {\"$numberLong\": \"x\"}}",
          "{\"a\": {\"$oid\": \"123\"}}",
          "{\"a\" 1}",
          "{\"a\": {\"$date\": \"yesterday\"}}"
        })
    void rejectsALineThatIsNotOneJsonDocument(String line) {
      assertThatThrownBy(() -> ExtendedJsonLoader.parse(line))
          .isInstanceOf(JsonParseException.class)
          .hasMessageStartingWith("not valid JSON: ");
    }

    @Test
    void saysWhatItGotInsteadOfAnObject() {
      assertThatThrownBy(() -> ExtendedJsonLoader.parse("[1, 2]"))
          .hasMessage("not valid JSON: expected a JSON object, got an array");
      assertThatThrownBy(() -> ExtendedJsonLoader.parse("{\"a\": 1} {\"b\": 2}"))
          .hasMessage("not valid JSON: unexpected text after the document");
    }
  }

  @Nested
  class LoadingFiles {

    @Test
    void loadsGoodLinesAndReportsBadOnesWithTheirLineNumbers() throws IOException {
      Path file =
          write(
              "mixed.jsonl",
              "{\"_id\": 1}\n"
                  + "{\"_id\": 2, \"name\": }\n"
                  + "\n"
                  + "   \n"
                  + "{\"_id\": 3, \"name\": \"not validated: any shape loads\", \"type\": 5}\n"
                  + "oops\n"
                  + "{\"_id\": 4}\r\n"
                  + "{\"_id\": 5}");

      LoadSummary summary = load(file, 2);

      assertThat(summary).isEqualTo(new LoadSummary(file, 8, 4, 2));
      assertThat(summary.ok()).isFalse();
      assertThat(loaded())
          .extracting(d -> d.get("_id").asInt32().getValue())
          .containsExactly(1, 3, 4, 5);
      assertThat(batches).extracting(List::size).containsExactly(2, 2);
      assertThat(errors).extracting(LineError::line).containsExactly(2L, 6L);
      assertThat(errors.get(0).file()).isEqualTo(file);
      assertThat(errors.get(0).toString()).startsWith(file + ":2: not valid JSON: ");
    }

    @Test
    void readsGzipFilesAndSkipsAByteOrderMark() throws IOException {
      Path file = dir.resolve("docs.jsonl.gz");
      try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
        out.write("\uFEFF{\"_id\": \"é😀\"}\n{\"_id\": 2}\n".getBytes(StandardCharsets.UTF_8));
      }

      LoadSummary summary = load(file, 1000);

      assertThat(summary).isEqualTo(new LoadSummary(file, 2, 2, 0));
      assertThat(summary.ok()).isTrue();
      assertThat(loaded().get(0).getString("_id").getValue()).isEqualTo("é😀");
      assertThat(errors).isEmpty();
    }

    @Test
    void loadsAnEmptyFile() throws IOException {
      assertThat(load(write("empty.jsonl", ""), 10))
          .isEqualTo(new LoadSummary(dir.resolve("empty.jsonl"), 0, 0, 0));
      assertThat(batches).isEmpty();
    }

    @Test
    void failsOnAMissingFile() {
      Path missing = dir.resolve("missing.jsonl");

      assertThatThrownBy(() -> load(missing, 10))
          .isInstanceOf(FlatdumpException.class)
          .hasMessage(missing + ": no such file");
    }

    @Test
    void namesTheLinesOfABatchTheSinkFailedOn() throws IOException {
      Path file = write("two.jsonl", "{\"_id\": 1}\n\n{\"_id\": 2}\n");
      var loader =
          new ExtendedJsonLoader(
              10,
              batch -> {
                throw new IllegalStateException("disk full");
              },
              errors::add);

      assertThatThrownBy(() -> loader.load(file))
          .isInstanceOf(FlatdumpException.class)
          .hasMessage(file + ": loading lines 1..3 failed: disk full");
    }

    @Test
    void checksItsSettings() {
      assertThatThrownBy(() -> new ExtendedJsonLoader(0, batches::add, errors::add))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
