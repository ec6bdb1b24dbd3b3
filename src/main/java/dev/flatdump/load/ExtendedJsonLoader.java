package dev.flatdump.load;

import com.mongodb.MongoBulkWriteException;
import dev.flatdump.FlatdumpException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import org.bson.BsonType;
import org.bson.RawBsonDocument;
import org.bson.codecs.DecoderContext;
import org.bson.codecs.RawBsonDocumentCodec;
import org.bson.json.JsonParseException;
import org.bson.json.JsonReader;

/**
 * Loads a file of MongoDB Extended JSON, one document per line, into a sink in batches, usually
 * {@code collection::insertMany}. Files whose name ends in {@code .gz} are gunzipped; the text is
 * UTF-8 (a leading byte order mark is ignored, malformed bytes become U+FFFD); blank lines are
 * skipped.
 *
 * <p>Documents are loaded as they are, with no schema validation: sample data deliberately holds
 * documents the exporter must reject. A line that is not one JSON document is reported to the error
 * listener with its file and line number and left out; every other line is still loaded. Canonical
 * and relaxed Extended JSON (and the shell forms the driver's {@link JsonReader} accepts) are read.
 *
 * <p>Not thread-safe. A failure of the sink stops the load with a {@link FlatdumpException} naming
 * the line when the sink is MongoDB's {@code insertMany}.
 */
public final class ExtendedJsonLoader {

  private static final RawBsonDocumentCodec CODEC = new RawBsonDocumentCodec();
  private static final DecoderContext CONTEXT = DecoderContext.builder().build();

  private final int batchSize;
  private final Consumer<List<RawBsonDocument>> sink;
  private final Consumer<LineError> onError;

  /**
   * @param batchSize documents per batch, at least 1
   * @param sink receives each batch, in file order; a new list each time
   * @param onError told about each bad line as it is found
   */
  public ExtendedJsonLoader(
      int batchSize, Consumer<List<RawBsonDocument>> sink, Consumer<LineError> onError) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be >= 1, got " + batchSize);
    }
    this.batchSize = batchSize;
    this.sink = Objects.requireNonNull(sink, "sink");
    this.onError = Objects.requireNonNull(onError, "onError");
  }

  /**
   * Loads every document line of the file; throws {@link FlatdumpException} if it can't be read.
   */
  public LoadSummary load(Path file) {
    try (BufferedReader reader = open(file)) {
      return load(file, reader);
    } catch (NoSuchFileException e) {
      throw new FlatdumpException(file + ": no such file", e);
    } catch (IOException e) {
      throw new FlatdumpException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private LoadSummary load(Path file, BufferedReader reader) throws IOException {
    List<RawBsonDocument> batch = new ArrayList<>(batchSize);
    long[] batchLines = new long[batchSize];
    long lines = 0;
    long loaded = 0;
    long bad = 0;
    String line;
    while ((line = reader.readLine()) != null) {
      lines++;
      if (lines == 1 && line.startsWith("\uFEFF")) {
        line = line.substring(1);
      }
      if (line.isBlank()) {
        continue;
      }
      try {
        batchLines[batch.size()] = lines;
        batch.add(parse(line));
      } catch (JsonParseException e) {
        bad++;
        onError.accept(new LineError(file, lines, e.getMessage()));
        continue;
      }
      if (batch.size() == batchSize) {
        flush(file, batch, batchLines);
        loaded += batch.size();
        batch = new ArrayList<>(batchSize);
      }
    }
    if (!batch.isEmpty()) {
      flush(file, batch, batchLines);
      loaded += batch.size();
    }
    return new LoadSummary(file, lines, loaded, bad);
  }

  private void flush(Path file, List<RawBsonDocument> batch, long[] batchLines) {
    try {
      sink.accept(batch);
    } catch (MongoBulkWriteException e) {
      var errors = e.getWriteErrors();
      String where =
          errors.isEmpty()
              ? "lines " + batchLines[0] + ".." + batchLines[batch.size() - 1]
              : "line " + batchLines[errors.get(0).getIndex()];
      String why = errors.isEmpty() ? e.getMessage() : errors.get(0).getMessage();
      throw new FlatdumpException(file + ": inserting " + where + " failed: " + why, e);
    } catch (RuntimeException e) {
      throw new FlatdumpException(
          file
              + ": loading lines "
              + batchLines[0]
              + ".."
              + batchLines[batch.size() - 1]
              + " failed: "
              + e.getMessage(),
          e);
    }
  }

  /**
   * Parses one line as exactly one Extended JSON document, keeping its fields as they are (order,
   * types, duplicates).
   *
   * @throws JsonParseException with a short reason if the line is not one JSON document
   */
  static RawBsonDocument parse(String line) {
    JsonReader reader = new JsonReader(line);
    try {
      BsonType type = reader.readBsonType();
      if (type != BsonType.DOCUMENT) {
        throw new JsonParseException("expected a JSON object, got " + describe(type));
      }
      RawBsonDocument document = CODEC.decode(reader, CONTEXT);
      if (reader.readBsonType() != BsonType.END_OF_DOCUMENT) {
        throw new JsonParseException("unexpected text after the document");
      }
      return document;
    } catch (JsonParseException e) {
      throw new JsonParseException(shorten("not valid JSON: " + e.getMessage()));
    } catch (RuntimeException e) {
      // JsonReader reports some malformed Extended JSON otherwise: a bad $oid is an
      // IllegalArgumentException, a bad $numberLong a NumberFormatException, a misplaced
      // value a BsonInvalidOperationException.
      throw new JsonParseException(shorten("not valid JSON: " + e.getMessage()));
    }
  }

  private static String describe(BsonType type) {
    return switch (type) {
      case ARRAY -> "an array";
      case STRING -> "a string";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      case INT32, INT64, DOUBLE, DECIMAL128 -> "a number";
      default -> type.name().toLowerCase();
    };
  }

  private static String shorten(String reason) {
    return reason.length() <= 200 ? reason : reason.substring(0, 197) + "...";
  }

  private static BufferedReader open(Path file) throws IOException {
    InputStream in = Files.newInputStream(file);
    try {
      if (file.getFileName().toString().endsWith(".gz")) {
        in = new GZIPInputStream(in, 64 * 1024);
      }
      return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 64 * 1024);
    } catch (IOException e) {
      in.close();
      throw e;
    }
  }
}
