package dev.flatdump.artifact.check;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.encode.Reject;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * Reads {@code rejects.jsonl} back line by line, as {@code RejectsWriter} writes it, for {@code
 * verify}: each line's {@code _id}, and whether it is a document's. A file that cannot be read
 * throws an {@link ArtifactException} naming it. Not thread-safe; the caller closes it.
 */
final class RejectsReader implements Closeable {

  private final Path file;
  private final BufferedReader lines;

  RejectsReader(Path file) {
    this.file = file;
    try {
      this.lines = Files.newBufferedReader(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw cannotRead(e);
    }
  }

  /** The next line; null after the last. */
  String nextLine() {
    try {
      return lines.readLine();
    } catch (IOException e) {
      throw cannotRead(e);
    }
  }

  /**
   * The line's {@code _id}; {@code null} for a JSON null, as a {@link dev.flatdump.encode.Reject}
   * has it.
   */
  static BsonValue idOf(String line) {
    BsonDocument d;
    try {
      d = BsonDocument.parse(line);
    } catch (RuntimeException e) {
      throw new ArtifactException("rejects.jsonl has a line that is not JSON: " + line, e);
    }
    BsonValue id = d.get("_id");
    return id == null || id.isNull() ? null : id;
  }

  /**
   * Whether a reject's {@code _id}, read back from its line, is the document's: compared as {@code
   * rejects.jsonl} writes them (relaxed Extended JSON), which keeps a number's value but not its
   * BSON type (an int64 7 reads back as an int32); a null {@code _id} is none.
   */
  static boolean sameId(BsonValue rejected, BsonValue id) {
    BsonValue a = rejected == null || rejected.isNull() ? null : rejected;
    BsonValue b = id == null || id.isNull() ? null : id;
    if (a == null || b == null) {
      return a == b;
    }
    return Reject.idToJson(a).equals(Reject.idToJson(b));
  }

  @Override
  public void close() {
    try {
      lines.close();
    } catch (IOException e) {
      throw cannotRead(e);
    }
  }

  private ArtifactException cannotRead(IOException e) {
    return new ArtifactException("cannot read " + file + ": " + e.getMessage(), e);
  }
}
