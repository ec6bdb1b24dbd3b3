package dev.flatdump.encode;

import dev.flatdump.Attr;
import dev.flatdump.Org;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.bson.BSONException;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriter;
import org.bson.json.JsonWriterSettings;

/**
 * Writes JSON lines as mongoexport does: one relaxed Extended JSON document per org, in UTF-8, each
 * ended by {@code '\n'}, fields in the collection's document order. Records carry no {@code _id},
 * so none is written. Numbers are plain JSON, except a non-finite percent, which relaxed mode
 * writes as {@code {"$numberDouble": "NaN"}}.
 */
final class JsonOrgStreamEncoder implements OrgStreamEncoder {

  private static final int BUFFER_CHARS = 64 * 1024;
  private static final JsonWriterSettings RELAXED =
      JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();

  private final OutputStream stream;
  private final Writer out;
  private boolean closed;

  JsonOrgStreamEncoder(OutputStream stream) {
    this.stream = stream;
    this.out =
        new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), BUFFER_CHARS);
  }

  @Override
  public void write(Org org) throws IOException {
    Objects.requireNonNull(org, "org must not be null");
    if (closed) {
      throw new IllegalStateException("JSON encoder is closed");
    }
    try {
      writeDocument(org);
    } catch (BSONException e) {
      // JsonWriter wraps the Writer's IOException.
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw e;
    }
    out.write('\n');
  }

  private void writeDocument(Org org) {
    // A JsonWriter writes one top-level document; it is cheap and neither flushes nor closes `out`.
    var json = new JsonWriter(out, RELAXED);
    json.writeStartDocument();
    json.writeString("name", org.name());
    json.writeString("category", org.category());
    json.writeString("country", org.country());
    json.writeString("type", org.type().name());
    json.writeStartArray("attributes");
    for (Attr attr : org.attributes()) {
      json.writeStartDocument();
      json.writeString("id", attr.id());
      json.writeInt32("quantity", attr.quantity());
      json.writeInt32("amount", attr.amount());
      json.writeBoolean("active", attr.active());
      json.writeDouble("percent", attr.percent());
      json.writeInt32("size", attr.size());
      json.writeEndDocument();
    }
    json.writeEndArray();
    json.writeEndDocument();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    // Not out.close(): an OutputStreamWriter whose flush fails leaves its stream open. Every line
    // ends in '\n', so the encoder holds no half surrogate pair that only close() would write.
    try (stream) {
      out.flush();
    }
  }
}
